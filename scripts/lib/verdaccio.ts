/**
 * A local npm registry (verdaccio) for the registry rehearsal.
 *
 * verdaccio is installed once, outside the project's dependency tree, into
 * ${POST_WRITER_CACHE:-~/.cache/post-writer}/verdaccio-<version> (about 20 s, 65 MB),
 * and reused while its marker matches the pins below. It needs Node >= 22: it
 * runs on the Node binary it is given (the newest n8n runtime's Node 24).
 *
 * startVerdaccio() runs it on 127.0.0.1:<port> with a generated config in a
 * temporary folder: storage there, an htpasswd file there, no uplinks (nothing
 * is ever fetched from another registry: the package n8n installs has no
 * dependencies, and n8n strips its peer dependencies before `npm install`),
 * no web UI, no audit middleware. Publishing needs a user, created through the
 * registry's API (addUser), whose token goes into a throwaway npm userconfig.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Log } from './paths';
import { cacheRoot, say } from './paths';

export const VERDACCIO_VERSION = '6.10.4';
/**
 * verdaccio-audit asks for node-fetch@cjs, a dist-tag (2.x on npmjs.org) that
 * the registry this machine uses does not carry: pin the version it stands for.
 */
const OVERRIDES = { 'verdaccio-audit': { 'node-fetch': '2.7.0' } };
const MARKER = '.post-writer-install.json';
const PINS = { name: 'post-writer-verdaccio', private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: OVERRIDES };

/** verdaccio in the cache. */
export interface VerdaccioInstall {
	dir: string;
	/** Its bin script, run with a Node >= 22. */
	entry: string;
	version: string;
	/** Installed by this call (false: found in the cache). */
	installedNow: boolean;
	seconds: number;
}

/** Options of startVerdaccio. */
export interface VerdaccioOptions {
	/** A Node >= 22 binary. */
	nodeBin: string;
	/** Its config, storage, htpasswd and log go here. */
	work: string;
	port: number;
	/** How long to wait until it answers (default 60 s). */
	timeoutMs?: number;
}

/** A request verdaccio logged. */
export interface VerdaccioRequest {
	status: number;
	method: string;
	path: string;
}

/** A running verdaccio. */
export interface Verdaccio {
	/** http://127.0.0.1:<port> */
	url: string;
	child: ChildProcess;
	logFile: string;
	/** The requests it logged so far. */
	requests(): VerdaccioRequest[];
}

export function verdaccioDir(): string {
	return path.join(cacheRoot(), `verdaccio-${VERDACCIO_VERSION}`);
}

function entry(dir: string = verdaccioDir()): string {
	return path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
}

/** `env` with the folder of `nodeBin` first on PATH, and no npm_config_* inherited from an `npm run`. */
export function cleanEnv(nodeBin: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	if (nodeBin) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
	return { ...env, ...extra };
}

/** Makes sure verdaccio is installed in the cache. `nodeBin`: a Node >= 22 binary (npm runs on it too). */
export function ensureVerdaccio(nodeBin: string, { log = say }: { log?: Log } = {}): VerdaccioInstall {
	const dir = verdaccioDir();
	const markerFile = path.join(dir, MARKER);
	try {
		const marker = JSON.parse(fs.readFileSync(markerFile, 'utf8')) as { version?: string; overrides?: unknown };
		if (marker.version === VERDACCIO_VERSION && JSON.stringify(marker.overrides) === JSON.stringify(OVERRIDES) && fs.existsSync(entry(dir))) {
			return { dir, entry: entry(dir), version: VERDACCIO_VERSION, installedNow: false, seconds: 0 };
		}
	} catch {
		// no marker: install
	}
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(markerFile, { force: true });
	fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(PINS, null, 2)}\n`);
	log(`Installing verdaccio ${VERDACCIO_VERSION} into ${dir} (once; about 20 s)`);
	const started = Date.now();
	const logFile = path.join(dir, 'install.log');
	const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn'], {
		cwd: dir,
		env: cleanEnv(nodeBin),
		encoding: 'utf8',
		timeout: 600_000,
		maxBuffer: 64 * 1024 * 1024,
	});
	fs.writeFileSync(logFile, `${result.stdout ?? ''}${result.stderr ?? ''}`);
	if (result.status !== 0 || !fs.existsSync(entry(dir))) throw new Error(`npm install of verdaccio failed (exit ${result.status}); see ${logFile}`);
	const version = spawnSync(nodeBin, [entry(dir), '--version'], { encoding: 'utf8', timeout: 60_000 }).stdout?.trim();
	if (version !== `v${VERDACCIO_VERSION}`) throw new Error(`verdaccio installed but reports ${version || 'no version'}; see ${logFile}`);
	const seconds = Math.round((Date.now() - started) / 1000);
	fs.writeFileSync(markerFile, JSON.stringify({ version: VERDACCIO_VERSION, overrides: OVERRIDES, installedAt: new Date().toISOString(), seconds }));
	log(`verdaccio ${VERDACCIO_VERSION} installed in ${seconds} s.`);
	return { dir, entry: entry(dir), version: VERDACCIO_VERSION, installedNow: true, seconds };
}

/** The generated config: only what the rehearsal needs. */
function configYaml(work: string): string {
	return [
		`storage: ${JSON.stringify(path.join(work, 'storage'))}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(work, 'htpasswd'))}`,
		'    max_users: 1',
		'# No uplinks: nothing is fetched from another registry.',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		'web:',
		'  enable: false',
		'middlewares:',
		'  audit:',
		'    enabled: false',
		'log: { type: stdout, format: json, level: http }',
		'',
	].join('\n');
}

/** Starts verdaccio on 127.0.0.1:`port`, its config, storage and log in `work`; resolves once it answers (bounded wait). */
export async function startVerdaccio(install: Pick<VerdaccioInstall, 'entry'>, { nodeBin, work, port, timeoutMs = 60_000 }: VerdaccioOptions): Promise<Verdaccio> {
	fs.mkdirSync(work, { recursive: true });
	const config = path.join(work, 'config.yaml');
	fs.writeFileSync(config, configYaml(work));
	const logFile = path.join(work, 'verdaccio.log');
	const out = fs.openSync(logFile, 'w');
	const child = spawn(nodeBin, [install.entry, '--config', config, '--listen', `127.0.0.1:${port}`], {
		cwd: work,
		env: cleanEnv(nodeBin),
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	const url = `http://127.0.0.1:${port}`;
	const until = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}); see ${logFile}`);
		try {
			if ((await fetch(`${url}/-/ping`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > until) throw new Error(`verdaccio did not answer within ${timeoutMs / 1000} s; see ${logFile}`);
		await new Promise((r) => setTimeout(r, 300));
	}
	const requests = (): VerdaccioRequest[] =>
		fs
			.readFileSync(logFile, 'utf8')
			.split('\n')
			.map((line) => {
				try {
					return (JSON.parse(line) as { msg?: string }).msg;
				} catch {
					return undefined;
				}
			})
			.map((msg) => /^(\d{3}), user: .*?, req: '(\w+) ([^']+)'/.exec(msg ?? ''))
			.filter((m): m is RegExpExecArray => m !== null)
			.map((m) => ({ status: Number(m[1]), method: m[2], path: m[3] }));
	return { url, child, logFile, requests };
}

/** Creates the registry's one user; returns its token. */
export async function addUser(url: string, name: string, password: string): Promise<string> {
	const res = await fetch(`${url}/-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ name, password }),
	});
	const body = (await res.json()) as { token?: string };
	if (res.status !== 201 || !body.token) throw new Error(`verdaccio user creation failed: HTTP ${res.status} ${JSON.stringify(body)}`);
	return body.token;
}
