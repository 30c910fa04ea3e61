/** Child processes of the Zapier CLI suite, and what it reads of their output. */
import { spawn } from 'node:child_process';
import { childEnv } from '../queue/steps';

export interface Ran {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
}

/** Runs a command asynchronously (the in-process sandbox must keep answering), killed with its process group after `timeoutMs`. */
export function exec(cmd: string, args: string[], { cwd, env = childEnv(process.env), timeoutMs = 120_000 }: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout.on('data', (d: Buffer) => (stdout += d));
		child.stderr.on('data', (d: Buffer) => (stderr += d));
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				// The process group this call started.
				process.kill(-(child.pid ?? 0), 'SIGKILL');
			} catch {
				child.kill('SIGKILL');
			}
		}, timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, timedOut });
		});
	});
}

const stripColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The JSON document a `zapier-platform invoke` printed (after its progress lines). */
export function jsonOf(text: string): unknown {
	const clean = stripColours(text);
	const start = clean.search(/^[[{]/m);
	if (start < 0) return undefined;
	try {
		return JSON.parse(clean.slice(start).trim()) as unknown;
	} catch {
		return undefined;
	}
}

/** The last lines of an output, without colours: what a failure shows. */
export function tail(text: string, lines = 15): string {
	return stripColours(text).trim().split('\n').slice(-lines).join('\n');
}
