/**
 * Running n8n commands: the environment of an n8n process (no telemetry, no
 * outside calls, 127.0.0.1), one command with its output in files and bounded
 * in time, and the run data `n8n execute --rawOutput` prints.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { N8nInstall } from './n8n-install';
import { withNode } from './n8n-install';
import { killGroup } from './processes';

/** Options of runN8n. */
export interface RunN8nOptions {
	env: NodeJS.ProcessEnv;
	/** Killed with its process group after this long (default 2 minutes). */
	timeoutMs?: number;
	/** Where <label>.out.log and <label>.err.log are written. */
	outDir: string;
	label: string;
}

/** How an n8n command ended, with its output. */
export interface N8nRun {
	code: number | null;
	signal: NodeJS.Signals | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	outFile: string;
	errFile: string;
}

/**
 * The environment of an n8n process: no telemetry, no outside calls, 127.0.0.1;
 * with the runtime's Node first on PATH when `install` (from ensureN8n) has one.
 */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}, install?: Pick<N8nInstall, 'nodeBin'>): NodeJS.ProcessEnv {
	return {
		...withNode(process.env, install?.nodeBin),
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Loopback only: what n8n itself calls out to over HTTPS (api.n8n.io, registry.npmjs.org…) goes
		// to a closed port on 127.0.0.1 and fails at once; 127.0.0.1 itself (the sandbox) is not proxied.
		HTTPS_PROXY: 'http://127.0.0.1:9',
		https_proxy: 'http://127.0.0.1:9',
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		...extra,
	};
}

/**
 * Runs one n8n command, output to files (never piped into something that may
 * stop reading), killed with its process group after `timeoutMs`.
 */
export function runN8n(bin: string, args: string[], { env, timeoutMs = 120_000, outDir, label }: RunN8nOptions): Promise<N8nRun> {
	fs.mkdirSync(outDir, { recursive: true });
	const outFile = path.join(outDir, `${label}.out.log`);
	const errFile = path.join(outDir, `${label}.err.log`);
	const out = fs.openSync(outFile, 'w');
	const err = fs.openSync(errFile, 'w');
	return new Promise((resolve) => {
		const child = spawn(bin, args, { env, stdio: ['ignore', out, err], detached: true });
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGKILL');
		}, timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			fs.closeSync(out);
			fs.closeSync(err);
			resolve({ code, signal, timedOut, stdout: fs.readFileSync(outFile, 'utf8'), stderr: fs.readFileSync(errFile, 'utf8'), outFile, errFile });
		});
	});
}

/** One item of a node's output. */
export interface N8nItem {
	json: Record<string, any>;
	[key: string]: unknown;
}

/** One run of a node in n8n's execution data. */
export interface N8nTaskData {
	startTime: number;
	executionTime: number;
	error?: { message?: string; [key: string]: unknown };
	data?: { main?: N8nItem[][] };
	[key: string]: unknown;
}

/** What `n8n execute --rawOutput` prints: the parts the suites read. */
export interface N8nRunData {
	startedAt?: string;
	stoppedAt?: string;
	status?: string;
	data?: {
		resultData?: {
			error?: { message?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
			runData?: Record<string, N8nTaskData[]>;
		};
	};
	[key: string]: unknown;
}

/** The run data that `n8n execute --rawOutput` prints after its log lines, or undefined. */
export function parseRunOutput(text: string): N8nRunData | undefined {
	const lines = text.split('\n');
	const start = lines.findIndex((l) => l === '{');
	if (start < 0) return undefined;
	for (let end = lines.length; end > start; end--) {
		if (lines[end - 1] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end).join('\n'));
		} catch {
			// a log line after the JSON; try a shorter slice
		}
	}
	return undefined;
}

/** n8n's editor answers: /healthz is 200 and `logFile` (n8n start's output) says the editor is accessible. */
export async function editorUp(url: string, logFile: string): Promise<boolean> {
	try {
		return (await fetch(`${url}/healthz`)).status === 200 && /Editor is now accessible/.test(fs.readFileSync(logFile, 'utf8'));
	} catch {
		return false;
	}
}
