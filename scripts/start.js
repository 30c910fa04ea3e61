#!/usr/bin/env node
/**
 * `npm start`: a local, real n8n with this package installed, on the sandbox.
 *   1. installs n8n 2.8.4 in the cache the first time (progress shown), reuses it after;
 *   2. builds and packs the package, installs the packed content into
 *      $N8N_USER_FOLDER/.n8n/nodes/node_modules/n8n-nodes-post-writer/;
 *   3. starts the sandbox on 127.0.0.1 (same keys on every start);
 *   4. imports a sandbox credential (every start) and the example workflows (first start);
 *   5. starts `n8n start`, creates the owner account on first start so that
 *      the editor opens on a login, and prints the editor URL, the login and
 *      the sandbox key. Ctrl-C stops n8n and the sandbox.
 * Env: POST_WRITER_CACHE (cache root), N8N_USER_FOLDER (default <cache>/n8n-user),
 *      N8N_PORT (default 5678, or a free port when taken).
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const rt = require('./lib/n8n-runtime');

const ROOT = rt.ROOT;
const USER_FOLDER = process.env.N8N_USER_FOLDER || path.join(rt.cacheRoot(), 'n8n-user');
const STATE_FILE = path.join(USER_FOLDER, 'post-writer-start.json');
const CREDENTIAL = { id: 'pwSandboxCred001', name: 'Post Writer sandbox' };
const OWNER = { email: 'owner@postwriter.example', firstName: 'Sandbox', lastName: 'Owner' };

let n8nProcess;
let sandbox;
let stopping = false;

function say(message = '') {
	process.stdout.write(`${message}\n`);
}

function readState() {
	try {
		return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return {};
	}
}

function writeState(state) {
	fs.mkdirSync(USER_FOLDER, { recursive: true });
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function waitFor(predicate, timeoutMs, intervalMs = 500) {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await predicate()) return true;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	return false;
}

async function getJson(url, init) {
	const res = await fetch(url, init);
	const text = await res.text();
	let body;
	try {
		body = JSON.parse(text);
	} catch {
		body = text;
	}
	return { status: res.status, body };
}

/** Creates the owner account on a fresh n8n, so that the editor opens on a login rather than a setup form. */
async function ensureOwner(editorUrl, state) {
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
		say(`(Could not create the owner account automatically: HTTP ${setup.status}. The editor will ask you to create one.)`);
		return undefined;
	}
	const owner = { email: OWNER.email, password };
	writeState({ ...state, owner });
	return owner;
}

async function stop(signal, code = 0) {
	if (stopping) return;
	stopping = true;
	say(`\nStopping (${signal})…`);
	if (n8nProcess && n8nProcess.exitCode === null) {
		rt.killGroup(n8nProcess, 'SIGTERM');
		const exited = await waitFor(() => n8nProcess.exitCode !== null || n8nProcess.signalCode !== null, 20_000);
		if (!exited) rt.killGroup(n8nProcess, 'SIGKILL');
	}
	if (sandbox) await sandbox.close().catch(() => undefined);
	say('Stopped n8n and the sandbox.');
	process.exit(code);
}

async function main() {
	process.on('SIGINT', () => stop('Ctrl-C'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	process.on('SIGHUP', () => stop('SIGHUP'));

	const n8n = await rt.ensureN8n();
	const pkg = JSON.parse(fs.readFileSync(path.join(rt.PACKAGE_DIR, 'package.json'), 'utf8'));

	say('Building and packing the node…');
	const work = path.join(rt.cacheRoot(), 'start-work');
	fs.rmSync(work, { recursive: true, force: true });
	const packed = rt.buildAndPack(path.join(work, 'pack'));
	const installDir = path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', packed.name);
	rt.unpack(packed.tarball, installDir);
	say(`Installed ${path.basename(packed.tarball)} into ${installDir}`);

	sandbox = await rt.startSandbox({ port: 0, keySeed: 'npm-start', clockTicks: true });
	say(`Sandbox on ${sandbox.baseUrl}`);

	const logDir = path.join(USER_FOLDER, 'logs');
	const brokerPort = await rt.freePort();
	const wantedPort = Number(process.env.N8N_PORT || 5678);
	const port = (await rt.portInUse(wantedPort)) ? await rt.freePort() : wantedPort;
	const env = rt.n8nEnv(USER_FOLDER, { N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}` });

	say('Importing the sandbox credential…');
	const credentialFile = path.join(work, 'credential.json');
	fs.writeFileSync(
		credentialFile,
		JSON.stringify([{ ...CREDENTIAL, type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } }]),
		{ mode: 0o600 },
	);
	const importedCredential = await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialFile}`], { env, outDir: logDir, label: 'import-credentials', timeoutMs: 180_000 });
	fs.rmSync(credentialFile, { force: true });
	if (importedCredential.code !== 0) throw new Error(`n8n import:credentials failed; see ${importedCredential.errFile}`);

	const state = readState();
	const examplesDir = path.join(ROOT, 'n8n', 'examples');
	const examples = fs.readdirSync(examplesDir).filter((f) => f.endsWith('.json'));
	const missing = examples.filter((f) => !(state.importedExamples ?? []).includes(f));
	if (missing.length > 0) {
		say(`Importing ${missing.length} example workflow(s)…`);
		const dir = path.join(work, 'examples');
		fs.mkdirSync(dir, { recursive: true });
		for (const f of missing) {
			const workflow = rt.adaptWorkflow(JSON.parse(fs.readFileSync(path.join(examplesDir, f), 'utf8')), { packageName: pkg.name, typePrefix: pkg.name, credential: CREDENTIAL });
			fs.writeFileSync(path.join(dir, f), JSON.stringify(workflow));
		}
		const imported = await rt.runN8n(n8n.bin, ['import:workflow', '--separate', `--input=${dir}`], { env, outDir: logDir, label: 'import-workflows', timeoutMs: 180_000 });
		if (imported.code !== 0) throw new Error(`n8n import:workflow failed; see ${imported.errFile}`);
		writeState({ ...readState(), importedExamples: [...(state.importedExamples ?? []), ...missing] });
	}

	say(`Starting n8n ${n8n.version}…`);
	fs.mkdirSync(logDir, { recursive: true });
	const logFile = path.join(logDir, 'n8n.log');
	const log = fs.openSync(logFile, 'w');
	n8nProcess = spawn(n8n.bin, ['start'], { env, stdio: ['ignore', log, log], detached: true });
	n8nProcess.on('exit', (code, signal) => {
		if (!stopping) {
			say(`n8n stopped on its own (${signal ?? `exit ${code}`}); see ${logFile}`);
			stop('n8n exit', 1);
		}
	});
	const editorUrl = `http://127.0.0.1:${port}`;
	const up = await waitFor(async () => {
		try {
			return (await fetch(`${editorUrl}/healthz`)).status === 200 && /Editor is now accessible/.test(fs.readFileSync(logFile, 'utf8'));
		} catch {
			return false;
		}
	}, 180_000);
	if (!up) throw new Error(`n8n did not come up within 3 minutes; see ${logFile}`);
	const owner = await ensureOwner(editorUrl, readState());

	say('');
	say('================================================================');
	say(` n8n ${n8n.version} with ${pkg.name} is running`);
	say(`   Editor:        ${editorUrl}`);
	if (owner) say(`   Log in with:   ${owner.email} / ${owner.password}`);
	say(`   Sandbox API:   ${sandbox.baseUrl}`);
	say(`   Sandbox key:   ${sandbox.keys.full}`);
	say(`   Credential:    "${CREDENTIAL.name}" (already set up with that key)`);
	say('   Workflows:     open "Post Writer: try it …" and click "Execute workflow";');
	say('                  the trigger examples work once you activate them (they poll every minute).');
	say(`   n8n log:       ${logFile}`);
	say('   Stop:          Ctrl-C (stops n8n and the sandbox; the sandbox forgets its data)');
	say('================================================================');
}

main().catch((error) => {
	say(`npm start failed: ${(error && error.message) || error}`);
	stop('error', 1);
});
