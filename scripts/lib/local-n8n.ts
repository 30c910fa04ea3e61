/**
 * A local, real n8n with this package installed, on the sandbox: what
 * `npm start` runs, and what the browser test runs against, so that both see
 * exactly the same n8n.
 *   1. installs the n8n runtime in the cache when missing ("newest": 2.41.0 on
 *      Node 24; "oldest": 2.8.4 on Node 20), reuses it after;
 *   2. builds and packs the package, installs the packed content into
 *      <userFolder>/.n8n/nodes/node_modules/n8n-nodes-post-writer/;
 *   3. starts the sandbox on 127.0.0.1 (in this process; its keys derive from `keySeed`);
 *   4. imports a sandbox credential (every start) and the example workflows
 *      (those not imported yet into this user folder);
 *   5. starts `n8n start` on `port` (a free port when taken) with its task
 *      broker on a free port, waits until the editor answers, and creates the
 *      owner account on a fresh user folder (its login kept in
 *      <userFolder>/post-writer-start.json).
 * `stop()` of what it returns stops n8n (its whole process group) and the sandbox.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Sandbox } from '../../sandbox';
import type { N8nInstall, RuntimeName } from './n8n-install';
import { ensureN8n } from './n8n-install';
import { buildAndPack, unpack } from './n8n-package';
import { editorUp, n8nEnv, runN8n } from './n8n-process';
import type { CredentialRef, N8nWorkflow } from './n8n-workflows';
import { adaptWorkflow, startSandbox } from './n8n-workflows';
import type { Log } from './paths';
import { PACKAGE_DIR, ROOT } from './paths';
import { freePort, killGroup, portInUse, waitUntil } from './processes';

export const CREDENTIAL: CredentialRef = { id: 'pwSandboxCred001', name: 'Post Writer sandbox' };
export const OWNER = { email: 'owner@postwriter.example', firstName: 'Sandbox', lastName: 'Owner' } as const;

/** The runtime `npm start` and the browser test use unless told otherwise. */
export const DEFAULT_RUNTIME: RuntimeName = 'newest';

/** The owner's login. */
export interface OwnerLogin {
	email: string;
	password: string;
}

/** Options of startLocalN8n. */
export interface LocalN8nOptions {
	/** "newest" (default) or "oldest". */
	runtime?: RuntimeName;
	/** N8N_USER_FOLDER (kept as given). */
	userFolder: string;
	/** Where the package is packed (emptied first; default <userFolder>/start-work). */
	workDir?: string;
	/** n8n's logs (default <userFolder>/logs). */
	logDir?: string;
	/** The editor port wanted (0 or undefined: a free one; taken: a free one). */
	port?: number;
	/** The sandbox key seed (same seed, same keys; default "npm-start"). */
	keySeed?: string;
	/** Import n8n/examples/ (default true). */
	importExamples?: boolean;
	/** One line of progress (default: stdout). */
	log?: Log;
	/** Called if n8n stops on its own after it came up. */
	onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/** A running local n8n. */
export interface LocalN8n {
	n8n: N8nInstall;
	/** n8n/package.json. */
	pkg: { name: string; version: string; [key: string]: unknown };
	editorUrl: string;
	port: number;
	sandbox: Sandbox;
	/** The owner's login, undefined when it could not be created (the editor asks for one). */
	owner: OwnerLogin | undefined;
	credential: CredentialRef;
	/** n8n start's output. */
	logFile: string;
	logDir: string;
	child: ChildProcess;
	/** Stops n8n (its whole process group) and the sandbox. */
	stop(): Promise<void>;
}

interface StartState {
	owner?: OwnerLogin;
	importedExamples?: string[];
}

interface Handle {
	child?: ChildProcess;
	sandbox?: Sandbox;
	stopping: boolean;
	up?: boolean;
	stop(): Promise<void>;
}

function stateFile(userFolder: string): string {
	return path.join(userFolder, 'post-writer-start.json');
}

function readState(userFolder: string): StartState {
	try {
		return JSON.parse(fs.readFileSync(stateFile(userFolder), 'utf8')) as StartState;
	} catch {
		return {};
	}
}

function writeState(userFolder: string, state: StartState): void {
	fs.mkdirSync(userFolder, { recursive: true });
	fs.writeFileSync(stateFile(userFolder), JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
	const res = await fetch(url, init);
	const text = await res.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		body = text;
	}
	return { status: res.status, body };
}

/**
 * Creates the owner account on a fresh n8n, so that the editor opens on a
 * login rather than a setup form. Returns the login, or the one kept from an
 * earlier start, or undefined when it could not.
 */
async function ensureOwner(editorUrl: string, userFolder: string, log: Log): Promise<OwnerLogin | undefined> {
	const state = readState(userFolder);
	const settings = await getJson(`${editorUrl}/rest/settings`);
	const needsSetup = settings.body?.data?.userManagement?.showSetupOnFirstLoad === true;
	if (!needsSetup) return state.owner;
	const password = `Pw-${crypto.randomBytes(6).toString('hex')}-9A`;
	const setup = await getJson(`${editorUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ ...OWNER, password }),
	});
	if (setup.status !== 200) {
		log(`(Could not create the owner account automatically: HTTP ${setup.status}. The editor will ask you to create one.)`);
		return undefined;
	}
	const owner = { email: OWNER.email, password };
	writeState(userFolder, { ...readState(userFolder), owner });
	return owner;
}

/** Brings up n8n with the packed node, the sandbox, its credential and the owner. */
export async function startLocalN8n(options: LocalN8nOptions): Promise<LocalN8n> {
	const { runtime = DEFAULT_RUNTIME, userFolder, keySeed = 'npm-start', importExamples = true, onExit } = options;
	const log = options.log ?? ((m = '') => process.stdout.write(`${m}\n`));
	if (!userFolder) throw new Error('startLocalN8n: userFolder is required');
	const workDir = options.workDir ?? path.join(userFolder, 'start-work');
	const logDir = options.logDir ?? path.join(userFolder, 'logs');
	const handle: Handle = {
		stopping: false,
		async stop() {
			handle.stopping = true;
			const child = handle.child;
			if (child && child.exitCode === null && child.signalCode === null) {
				killGroup(child, 'SIGTERM');
				const exited = await waitUntil(() => child.exitCode !== null || child.signalCode !== null, 20_000);
				if (!exited) killGroup(child, 'SIGKILL');
			}
			if (handle.sandbox) await handle.sandbox.close().catch(() => undefined);
			handle.sandbox = undefined;
		},
	};
	try {
		return await bringUp(handle, { runtime, userFolder, keySeed, importExamples, onExit, log, workDir, logDir, port: options.port });
	} catch (error) {
		await handle.stop();
		throw error;
	}
}

type BringUpOptions = Required<Pick<LocalN8nOptions, 'runtime' | 'userFolder' | 'keySeed' | 'importExamples' | 'log' | 'workDir' | 'logDir'>> &
	Pick<LocalN8nOptions, 'onExit' | 'port'>;

async function bringUp(handle: Handle, { runtime, userFolder, keySeed, importExamples, onExit, log, workDir, logDir, port: wantedPort }: BringUpOptions): Promise<LocalN8n> {
	const n8n = await ensureN8n(runtime);
	const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as LocalN8n['pkg'];

	log('Building and packing the node…');
	fs.rmSync(workDir, { recursive: true, force: true });
	const packed = buildAndPack(path.join(workDir, 'pack'));
	const installDir = path.join(userFolder, '.n8n', 'nodes', 'node_modules', packed.name);
	unpack(packed.tarball, installDir);
	log(`Installed ${path.basename(packed.tarball)} into ${installDir}`);

	const sandbox = await startSandbox({ port: 0, keySeed, clockTicks: true });
	handle.sandbox = sandbox;
	log(`Sandbox on ${sandbox.baseUrl}`);

	const brokerPort = await freePort();
	const port = !wantedPort || (await portInUse(wantedPort)) ? await freePort() : wantedPort;
	const editorUrl = `http://127.0.0.1:${port}`;
	const env = n8nEnv(userFolder, { N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_EDITOR_BASE_URL: editorUrl }, n8n);

	log('Importing the sandbox credential…');
	fs.mkdirSync(workDir, { recursive: true });
	const credentialFile = path.join(workDir, 'credential.json');
	fs.writeFileSync(
		credentialFile,
		JSON.stringify([{ ...CREDENTIAL, type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } }]),
		{ mode: 0o600 },
	);
	const importedCredential = await runN8n(n8n.bin, ['import:credentials', `--input=${credentialFile}`], { env, outDir: logDir, label: 'import-credentials', timeoutMs: 180_000 });
	fs.rmSync(credentialFile, { force: true });
	if (importedCredential.code !== 0) throw new Error(`n8n import:credentials failed; see ${importedCredential.errFile}`);

	if (importExamples) {
		const state = readState(userFolder);
		const examplesDir = path.join(ROOT, 'n8n', 'examples');
		const examples = fs.readdirSync(examplesDir).filter((f) => f.endsWith('.json'));
		const missing = examples.filter((f) => !(state.importedExamples ?? []).includes(f));
		if (missing.length > 0) {
			log(`Importing ${missing.length} example workflow(s)…`);
			const dir = path.join(workDir, 'examples');
			fs.mkdirSync(dir, { recursive: true });
			for (const f of missing) {
				const workflow = adaptWorkflow(JSON.parse(fs.readFileSync(path.join(examplesDir, f), 'utf8')) as N8nWorkflow, { packageName: pkg.name, typePrefix: pkg.name, credential: CREDENTIAL });
				fs.writeFileSync(path.join(dir, f), JSON.stringify(workflow));
			}
			const imported = await runN8n(n8n.bin, ['import:workflow', '--separate', `--input=${dir}`], { env, outDir: logDir, label: 'import-workflows', timeoutMs: 180_000 });
			if (imported.code !== 0) throw new Error(`n8n import:workflow failed; see ${imported.errFile}`);
			writeState(userFolder, { ...readState(userFolder), importedExamples: [...(state.importedExamples ?? []), ...missing] });
		}
	}

	log(`Starting n8n ${n8n.version}…`);
	fs.mkdirSync(logDir, { recursive: true });
	const logFile = path.join(logDir, 'n8n.log');
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, ['start'], { env, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	handle.child = child;
	let exited = false;
	child.on('exit', (code, signal) => {
		exited = true;
		if (!handle.stopping && handle.up && onExit) onExit(code, signal);
	});
	const up = await waitUntil(async () => exited || (await editorUp(editorUrl, logFile)), 240_000);
	if (exited) throw new Error(`n8n stopped while starting (exit ${child.exitCode ?? child.signalCode}); see ${logFile}`);
	if (!up) throw new Error(`n8n did not come up within 4 minutes; see ${logFile}`);
	handle.up = true;
	const owner = await ensureOwner(editorUrl, userFolder, log);
	return { n8n, pkg, editorUrl, port, sandbox, owner, credential: CREDENTIAL, logFile, logDir, child, stop: () => handle.stop() };
}
