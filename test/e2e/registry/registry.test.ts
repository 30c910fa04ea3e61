/**
 * Registry rehearsal (`npm run test:registry`): the node installed and upgraded
 * the way users get it, through n8n's own community-package installer, from a
 * local npm registry, on the newest n8n (2.41.0, cached by scripts/lib/n8n-runtime.js).
 *
 *   1. verdaccio (scripts/lib/verdaccio.js) on 127.0.0.1, no uplinks, one user;
 *   2. build n8n/ (in a copy of the sources), copy it, set a rehearsal version (<version>-rehearsal.N) in the
 *      copy and `npm publish --access public` it as .github/workflows/release-n8n.yml
 *      does, minus --provenance, plus --tag latest (npm refuses a prerelease
 *      without a tag); `npm view` and the tarball fetched back from the registry;
 *   3. the GUI's way, as the editor does (owner login, POST /rest/community-packages
 *      {name, version}) with N8N_COMMUNITY_PACKAGES_REGISTRY pointing at verdaccio.
 *      n8n 2.41 allows another registry only with the licensed feature
 *      feat:communityNodes:customRegistry: the refusal is checked first, then the
 *      feature is switched on through n8n's own E2E test mode (E2E_TESTS=true,
 *      PATCH /rest/e2e/feature), the switch n8n's own UI tests use;
 *   4. a workflow with the installed node (Manual Trigger → Generate → Get Credits)
 *      run with `n8n execute --id` against the sandbox;
 *   5. upgrade: a higher version published, n8n shows it as an update (npm outdated),
 *      PATCH /rest/community-packages {name, version}; n8n reports the new version;
 *      the same workflow runs;
 *   6. the Docker way: N8N_COMMUNITY_PACKAGES (JSON) with
 *      N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true, reconciled by n8n at start-up.
 *      That path runs before any E2E switch, so without a license it can only use
 *      the default registry: an `npm` wrapper first on n8n's PATH sends n8n's own
 *      npm commands for registry.npmjs.org to verdaccio instead. Every npm command
 *      n8n runs, in every step, is logged by that wrapper (npm-calls.jsonl).
 * Loopback only: n8n's HTTPS calls out (its version check on registry.npmjs.org,
 * api.n8n.io) go through HTTPS_PROXY, a closed port on 127.0.0.1, and fail at
 * once; n8n then falls back to `npm view`, which the wrapper sends to verdaccio.
 *
 * Each step runs in the beforeAll of a describe of its own, right before the
 * tests that check it (jest runs a file's blocks in order); a step whose
 * prerequisite failed throws "not run: …", so its tests fail rather than pass.
 * Logs: the work folder's logs/ (printed at the end; and $SECRET_SCAN_DIR/e2e-registry/ when set).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import * as rt from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall, N8nItem, N8nRun, N8nRunData } from '../../../scripts/lib/n8n-runtime';
import * as vd from '../../../scripts/lib/verdaccio';
import type { Verdaccio as Registry, VerdaccioInstall } from '../../../scripts/lib/verdaccio';

// jest sets NODE_ENV=test, which every child would inherit: n8n then refuses to start ("Not available in tests").
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;

const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-registry-'));
const LOGS = path.join(WORK, 'logs');
fs.mkdirSync(LOGS, { recursive: true });
const USER_FOLDER = path.join(WORK, 'user');
const PKG = JSON.parse(fs.readFileSync(path.join(rt.PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
const NAME = PKG.name;
const VERSIONS = [1, 2, 3].map((n) => `${PKG.version}-rehearsal.${n}`);
const NEWEST = rt.runtime('newest').version;
const DEFAULT_REGISTRY = 'https://registry.npmjs.org';
const WORKFLOW_ID = 'pwRegistryWf0001';
const CREDENTIAL = { id: 'pwRegistryCred01', name: 'Post Writer sandbox (registry)' };
const OWNER = { email: 'owner@postwriter.example', firstName: 'Registry', lastName: 'Owner', password: `Pw-${crypto.randomBytes(6).toString('hex')}-9A` };
const BROWSER_ID = `registry-${crypto.randomBytes(4).toString('hex')}`;
const NODE_TYPES = [`${NAME}.postWriter`, `${NAME}.postWriterTrigger`];
const FEATURE = 'feat:communityNodes:customRegistry';
/**
 * npm's weekly check for a newer npm asks the registry it is given for the
 * package "npm": verdaccio would log a GET /npm that is no package of the rehearsal.
 */
const QUIET_NPM = { npm_config_update_notifier: 'false' };

/** Progress, on stdout and in logs/e2e-registry.out.log. */
function say(message = ''): void {
	process.stdout.write(`${message}\n`);
	fs.appendFileSync(path.join(LOGS, 'e2e-registry.out.log'), `${message}\n`);
}

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 500): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await predicate()) return true;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	return await predicate();
}

/** A value an earlier step should have produced; without it, the step or check that needs it fails. */
function need<T>(value: T | undefined | null | false, what: string): T {
	if (value === undefined || value === null || value === false) throw new Error(`not run: ${what}`);
	return value;
}

/** Runs expectations with a hint (a log file to read) put before jest's own message when they fail. */
function because(hint: string, fn: () => void): void {
	try {
		fn();
	} catch (error) {
		throw new Error(`${hint}\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
	}
}

/** Stop functions run by afterAll, in reverse. */
const cleanups: Array<() => Promise<void>> = [];

/**
 * A process group (or the logs folder) for global-setup.ts to stop (or print) on
 * Ctrl-C: signal listeners in a test file are never called.
 */
function track(entry: { pid?: number; logs?: string; what: string }): void {
	const file = process.env.E2E_REGISTRY_GROUPS;
	if (file) fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
}
let declared = 0;
let passed = 0;

/** One check of the old script: one test; the passes are counted to know whether the work folder can go. */
function check(name: string, fn: () => void | Promise<void>): void {
	declared += 1;
	test(name, async () => {
		await fn();
		passed += 1;
	});
}

/** A step and its checks: the step runs in the beforeAll of a describe of its own, after the checks before it. */
function step(title: string, run: () => Promise<void> | void, checks: () => void, after?: () => Promise<void>): void {
	describe(title, () => {
		beforeAll(async () => {
			say(`\n${title}`);
			await run();
		});
		checks();
		if (after) afterAll(after);
	});
}

interface Npm {
	status: number | null;
	stdout: string;
	stderr: string;
}

/** npm with this machine's npm, no npm_config_* of an enclosing `npm run`, output kept. */
function npm(args: string[], { cwd, label, nodeBin }: { cwd: string; label: string; nodeBin: string }): Npm {
	const result = spawnSync('npm', args, { cwd, env: { ...vd.cleanEnv(nodeBin), ...QUIET_NPM }, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
	fs.writeFileSync(path.join(LOGS, `${label}.log`), `$ npm ${args.join(' ')}\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
	return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** The first JSON value in npm's output (npm may print warnings around it). */
function jsonOf(text: string): any {
	const start = text.search(/[[{]/);
	if (start < 0) return undefined;
	for (let end = text.length; end > start; end--) {
		if (!/[\]}]/.test(text[end - 1])) continue;
		try {
			return JSON.parse(text.slice(start, end));
		} catch {
			// shorter
		}
	}
	return undefined;
}

/**
 * n8n/ built by buildN8n (scripts/lib/n8n-build.ts) in a copy of the sources
 * (n8n/, shared/; node_modules linked), not in place: the other end-to-end
 * suites rebuild n8n/dist while they run, side by side with this one in CI.
 * Returns the built copy of n8n/.
 */
function buildCopy(): string {
	const dir = path.join(WORK, 'build');
	fs.mkdirSync(dir, { recursive: true });
	fs.cpSync(path.join(rt.ROOT, 'shared'), path.join(dir, 'shared'), { recursive: true });
	// verbatimSymlinks: n8n/shared stays "../shared", the copy's shared/.
	fs.cpSync(rt.PACKAGE_DIR, path.join(dir, 'n8n'), {
		recursive: true,
		verbatimSymlinks: true,
		filter: (src) => !(path.dirname(src) === rt.PACKAGE_DIR && ['dist', 'node_modules'].includes(path.basename(src))),
	});
	fs.symlinkSync(path.join(rt.ROOT, 'node_modules'), path.join(dir, 'node_modules'));
	const logFile = path.join(LOGS, 'build.log');
	try {
		const built = rt.buildN8n(path.join(dir, 'n8n'));
		fs.writeFileSync(logFile, `built ${path.join(dir, 'n8n')} in ${built.milliseconds} ms: ${built.assets} assets copied, ${built.listed} n8n entries present\n`);
	} catch (error) {
		fs.writeFileSync(logFile, error instanceof Error ? error.message : String(error));
		throw new Error(`build failed; see ${logFile}`, { cause: error });
	}
	return path.join(dir, 'n8n');
}

interface Published {
	code: number | null;
	json: { id?: string; integrity?: string; shasum?: string };
}

/**
 * A copy of the built n8n/ folder (its symlinks and node_modules left out),
 * the version set in the copy's package.json only, published as the release
 * workflow does. Returns npm publish's exit code and JSON (id, integrity, files…).
 */
function publish(built: string, version: string, registry: Registry, userconfig: string, nodeBin: string): Published {
	const dir = path.join(WORK, `publish-${version}`);
	fs.cpSync(built, dir, {
		recursive: true,
		filter: (src) => path.basename(src) !== 'node_modules' && !fs.lstatSync(src).isSymbolicLink(),
	});
	const pkgFile = path.join(dir, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
	pkg.version = version;
	fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
	const result = npm(['publish', '--access', 'public', '--tag', 'latest', '--json', `--registry=${registry.url}/`, `--userconfig=${userconfig}`], {
		cwd: dir,
		label: `npm-publish-${version}`,
		nodeBin,
	});
	const out = jsonOf(result.stdout) ?? {};
	return { code: result.status, json: out[NAME] ?? out };
}

/** An `npm` first on n8n's PATH: logs every npm command n8n runs; redirects the default registry to POST_WRITER_REDIRECT_REGISTRY when set. */
function writeNpmWrapper(dir: string, callsFile: string): string {
	const realNpm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
	if (!realNpm) throw new Error('npm not found on PATH');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'npm');
	fs.writeFileSync(
		file,
		`#!/usr/bin/env node
'use strict';
// Written by test/e2e/registry/registry.test.ts: logs the npm commands n8n runs.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const to = process.env.POST_WRITER_REDIRECT_REGISTRY;
const args = process.argv.slice(2).map((a) => (to && /^--registry=${DEFAULT_REGISTRY.replace(/[./]/g, '\\$&')}\\/?$/.test(a) ? '--registry=' + to : a));
fs.appendFileSync(${JSON.stringify(callsFile)}, JSON.stringify({ at: new Date().toISOString(), cwd: process.cwd(), argv: process.argv.slice(2), ran: args }) + '\\n');
const r = spawnSync(${JSON.stringify(realNpm)}, args, { stdio: 'inherit' });
process.exit(r.status === null ? 1 : r.status);
`,
		{ mode: 0o755 },
	);
	return dir;
}

interface NpmCall {
	at: string;
	cwd: string;
	argv: string[];
	ran: string[];
}

function npmCalls(callsFile: string): NpmCall[] {
	if (!fs.existsSync(callsFile)) return [];
	return fs
		.readFileSync(callsFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as NpmCall);
}

interface Server {
	url: string;
	child: ChildProcess;
	logFile: string;
	cookie: string;
	up: boolean;
	log(): string;
	stop(): Promise<void>;
}

/** `n8n start` on a free port; resolves once the editor is up (bounded), or `up: false`. */
async function startN8n(n8n: N8nInstall, env: NodeJS.ProcessEnv, label: string): Promise<Server> {
	const port = await rt.freePort();
	const logFile = path.join(LOGS, `${label}.log`);
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, ['start'], { env: { ...env, N8N_PORT: String(port), N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}` }, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	const exited = () => child.exitCode !== null || child.signalCode !== null;
	const stop = async () => {
		if (exited()) return;
		rt.killGroup(child, 'SIGTERM');
		if (!(await waitFor(exited, 30_000))) rt.killGroup(child, 'SIGKILL');
		await waitFor(exited, 10_000);
	};
	const server: Server = { url: `http://127.0.0.1:${port}`, child, logFile, cookie: '', up: false, log: () => fs.readFileSync(logFile, 'utf8'), stop };
	cleanups.push(stop);
	track({ pid: child.pid, what: label });
	const up = await waitFor(async () => {
		if (child.exitCode !== null) return true;
		try {
			return (await fetch(`${server.url}/healthz`)).status === 200 && /Editor is now accessible/.test(server.log());
		} catch {
			return false;
		}
	}, 180_000);
	server.up = up && child.exitCode === null;
	say(`  n8n ${label}: ${server.up ? `up at ${server.url}` : 'NOT up'} (log ${logFile})`);
	return server;
}

interface Rest {
	status: number;
	json: any;
	text: string;
}

/** A REST call as the editor makes it: the session cookie and browser-id header. */
async function rest(server: Server, method: string, route: string, body?: unknown): Promise<Rest> {
	const res = await fetch(`${server.url}${route}`, {
		method,
		headers: { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID, ...(server.cookie ? { Cookie: server.cookie } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	const auth = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (auth) server.cookie = auth;
	return { status: res.status, json, text };
}

/** Owner account on the first start, then a logged-in session. */
async function login(server: Server): Promise<{ status: number; text: string }> {
	const settings = await rest(server, 'GET', '/rest/settings');
	if (settings.json?.data?.userManagement?.showSetupOnFirstLoad === true) {
		const setup = await rest(server, 'POST', '/rest/owner/setup', OWNER);
		if (setup.status !== 200) return { status: setup.status, text: setup.text };
	}
	return await rest(server, 'POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
}

async function sandboxApi(sandbox: Sandbox, method: string, route: string): Promise<any> {
	const res = await fetch(`${sandbox.baseUrl}${route}`, { method, headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
	return await res.json();
}

/** The output items of a node in the run data of `n8n execute`. */
function outputOf(run: N8nRunData, nodeName: string): N8nItem[] {
	const runs = run.data?.resultData?.runData?.[nodeName];
	if (!runs || runs.length === 0) throw new Error(`node "${nodeName}" did not run`);
	if (runs[0].error) throw new Error(`node "${nodeName}" failed: ${runs[0].error.message}`);
	return runs[0].data?.main?.[0] ?? [];
}

function readInstalledVersion(): string | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'package.json'), 'utf8')).version;
	} catch {
		return undefined;
	}
}

function tarballPath(version: string): string {
	return `/${NAME}/-/${NAME}-${version}.tgz`;
}

/** The package n8n lists (GET /rest/community-packages), or undefined. */
function listed(list: Rest): any {
	return ((list.json?.data ?? []) as Array<{ packageName: string }>).find((p) => p.packageName === NAME);
}

/** What the steps hand to the checks and to the later steps. */
const S: {
	n8n?: N8nInstall;
	nodeBin?: string;
	verdaccio?: VerdaccioInstall;
	registry?: Registry;
	userconfig?: string;
	built?: string;
	sandbox?: Sandbox;
	callsFile?: string;
	env?: (extra?: Record<string, string>) => NodeJS.ProcessEnv;
} = {};

/**
 * `n8n execute --id` of the rehearsal workflow (no `n8n start` running), checked
 * in n8n's output and in the sandbox: its step and its two checks.
 */
/** A later rehearsal version: publish it to the local registry, and check that npm said so. */
function publishStep(version: string): void {
	let published: Published | undefined;
	step(
		`publish ${version}`,
		() => {
			published = publish(need(S.built, 'no build'), version, need(S.registry, 'no registry'), need(S.userconfig, 'no npm user'), need(S.nodeBin, 'no Node'));
		},
		() => {
			check(`npm publish ${NAME}@${version} (exit 0)`, () => {
				const done = need(published, 'npm publish did not run');
				because(`see ${path.join(LOGS, `npm-publish-${version}.log`)}`, () => {
					expect({ exit: done.code, id: done.json.id }).toEqual({ exit: 0, id: `${NAME}@${version}` });
				});
			});
		},
	);
}

function runWorkflowStep(title: string, label: string, version: string): void {
	let exec: N8nRun | undefined;
	let run: N8nRunData | undefined;
	let credits: { balance?: number } = {};
	let installed: string | undefined;
	let generateCalls = 0;
	step(
		title,
		async () => {
			const n8n = need(S.n8n, 'no n8n runtime');
			const sandbox = need(S.sandbox, 'no sandbox');
			const env = need(S.env, 'no n8n environment');
			const before = sandbox.stats.byRoute['POST /generate'] ?? 0;
			// Info level: at debug, n8n wraps the run data it prints in a log line.
			exec = await rt.runN8n(n8n.bin, ['execute', '--id', WORKFLOW_ID, '--rawOutput'], { env: { ...env(), N8N_LOG_LEVEL: 'info' }, outDir: LOGS, label, timeoutMs: 180_000 });
			run = rt.parseRunOutput(exec.stdout);
			generateCalls = (sandbox.stats.byRoute['POST /generate'] ?? 0) - before;
			credits = await sandboxApi(sandbox, 'GET', '/credits');
			installed = readInstalledVersion();
			if (run && exec.code !== 0) say(`    note: n8n execute exited with ${exec.code ?? `signal ${exec.signal}`} after a finished run with status ${run.status} (see ${exec.errFile})`);
		},
		() => {
			check(`the workflow runs with ${version} installed (n8n execute: a finished, successful run, Generate → Get Credits)`, () => {
				const e = need(exec, 'n8n execute did not run');
				expect(installed).toBe(version);
				because(`see ${e.outFile} and ${e.errFile}`, () => {
					expect(e.timedOut).toBe(false);
					expect(run).toBeDefined();
					expect(run?.data?.resultData?.error?.message).toBeUndefined();
					// The run's own record decides: n8n's CLI once exited non-zero after printing a finished, successful run.
					expect({ status: run?.status, finished: run?.finished }).toEqual({ status: 'success', finished: true });
					expect(run?.data?.resultData?.lastNodeExecuted).toBe('Get Credits');
				});
			});
			check(`${label}: Generate returned 2 proposals and the sandbox served them; Get Credits equals the sandbox balance`, () => {
				const r = need(run, `no run data from n8n execute; see ${exec?.outFile}`);
				const [item, ...extra] = outputOf(r, 'Generate');
				expect(extra).toHaveLength(0);
				expect(item.json.proposals).toHaveLength(2);
				expect((item.json.proposals as unknown[]).every((p) => typeof p === 'string' && p.length > 10)).toBe(true);
				// POST /generate calls in the sandbox during the run.
				expect(generateCalls).toBe(1);
				expect(outputOf(r, 'Get Credits')[0].json.balance).toBe(credits.balance);
			});
		},
	);
}

describe(`registry rehearsal: ${NAME} through n8n ${NEWEST}'s community-package installer`, () => {
	beforeAll(() => {
		track({ logs: LOGS, what: 'logs' });
		say(`Registry rehearsal: ${NAME} through n8n's community-package installer (work folder ${WORK})`);
	});

	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) {
			try {
				await cleanup();
			} catch {
				// best effort
			}
		}
		try {
			fs.copyFileSync(path.join(WORK, 'verdaccio', 'verdaccio.log'), path.join(LOGS, 'verdaccio.log'));
		} catch {
			// no registry log
		}
		if (process.env.SECRET_SCAN_DIR) {
			const dest = path.join(process.env.SECRET_SCAN_DIR, 'e2e-registry');
			fs.mkdirSync(dest, { recursive: true });
			fs.cpSync(LOGS, dest, { recursive: true });
		}
		if (passed === declared) {
			// Keep the logs; drop the n8n folder, the registry storage and the copies.
			for (const entry of fs.readdirSync(WORK)) if (entry !== 'logs') fs.rmSync(path.join(WORK, entry), { recursive: true, force: true });
		}
		say(`\nlogs: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s; ${passed} of ${declared} checks passed)`);
	});

	// [1] The local registry.
	let reported: string | undefined;
	step(
		'[1] local registry',
		async () => {
			S.n8n = await rt.ensureN8n('newest');
			S.nodeBin = S.n8n.nodeBin ?? process.execPath;
			S.verdaccio = vd.ensureVerdaccio(S.nodeBin);
			reported = spawnSync(S.nodeBin, [S.verdaccio.entry, '--version'], { encoding: 'utf8', timeout: 60_000 }).stdout?.trim();
			say(`  verdaccio ${S.verdaccio.version} ${S.verdaccio.installedNow ? `installed in ${S.verdaccio.seconds} s` : 'reused from the cache'} (${S.verdaccio.dir})`);
		},
		() => {
			check('verdaccio installed (or reused from the cache) reports its pinned version', () => {
				const verdaccio = need(S.verdaccio, 'verdaccio not installed');
				expect(reported).toBe(`v${verdaccio.version}`);
			});
		},
	);

	// [2] Build, publish the first rehearsal version, read it back.
	let first: Published | undefined;
	let view: any;
	let fetched: Npm | undefined;
	let fetchedInfo: any = {};
	let unpacked = '';
	step(
		`[2] build, publish ${VERSIONS[0]}`,
		async () => {
			const nodeBin = need(S.nodeBin, 'no Node for verdaccio');
			const registryPort = await rt.freePort();
			const registry = await vd.startVerdaccio(need(S.verdaccio, 'verdaccio not installed'), { nodeBin, work: path.join(WORK, 'verdaccio'), port: registryPort });
			S.registry = registry;
			const exited = () => registry.child.exitCode !== null || registry.child.signalCode !== null;
			cleanups.push(async () => {
				rt.killGroup(registry.child, 'SIGTERM');
				if (!(await waitFor(exited, 10_000))) rt.killGroup(registry.child, 'SIGKILL');
			});
			track({ pid: registry.child.pid, what: 'verdaccio' });
			say(`  verdaccio at ${registry.url}`);
			const token = await vd.addUser(registry.url, 'rehearsal', crypto.randomBytes(12).toString('hex'));
			S.userconfig = path.join(WORK, 'publish.npmrc');
			fs.writeFileSync(S.userconfig, `//127.0.0.1:${registryPort}/:_authToken=${token}\n`, { mode: 0o600 });

			S.built = buildCopy();
			first = publish(S.built, VERSIONS[0], registry, S.userconfig, nodeBin);
			view = jsonOf(npm(['view', NAME, '--json', `--registry=${registry.url}/`], { cwd: WORK, label: 'npm-view-1', nodeBin }).stdout) ?? {};
			const fetchDir = path.join(WORK, 'fetched');
			fs.mkdirSync(fetchDir, { recursive: true });
			fetched = npm(['pack', `${NAME}@${VERSIONS[0]}`, '--json', `--registry=${registry.url}/`], { cwd: fetchDir, label: 'npm-pack-from-registry', nodeBin });
			fetchedInfo = (jsonOf(fetched.stdout) ?? [])[0] ?? {};
			unpacked = path.join(fetchDir, 'package');
			if (fetchedInfo.filename) rt.unpack(path.join(fetchDir, fetchedInfo.filename), unpacked);
		},
		() => {
			check(`npm publish ${NAME}@${VERSIONS[0]} to the local registry (exit 0)`, () => {
				const published = need(first, 'npm publish did not run');
				because(`see ${path.join(LOGS, `npm-publish-${VERSIONS[0]}.log`)}`, () => {
					expect({ exit: published.code, id: published.json.id }).toEqual({ exit: 0, id: `${NAME}@${VERSIONS[0]}` });
				});
			});
			check('npm view from the registry: the version, latest tag, tarball URL, integrity and shasum of the publish', () => {
				const published = need(first, 'npm publish did not run');
				const registry = need(S.registry, 'no registry');
				expect(view.version).toBe(VERSIONS[0]);
				expect(view['dist-tags']?.latest).toBe(VERSIONS[0]);
				expect(view.dist?.tarball).toBe(`${registry.url}${tarballPath(VERSIONS[0])}`);
				// npm view vs npm publish.
				expect(view.dist?.integrity).toBe(published.json.integrity);
				expect(view.dist?.shasum).toBe(published.json.shasum);
			});
			check('the tarball fetched back from the registry holds dist/, README.md, LICENSE and package.json only, every "n8n" path, no dependencies', () => {
				const published = need(first, 'npm publish did not run');
				expect(fetched?.status).toBe(0);
				expect(fetchedInfo.filename).toBeTruthy();
				expect(fetchedInfo.integrity).toBe(published.json.integrity);
				const files = (fetchedInfo.files as Array<{ path: string }>).map((f) => f.path);
				// Files outside dist/.
				expect(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f))).toEqual([]);
				const inner = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
				expect(inner.version).toBe(VERSIONS[0]);
				expect(Object.keys(inner.dependencies ?? {})).toEqual([]);
				expect(Object.keys(inner.peerDependencies ?? {})).toEqual(['n8n-workflow']);
				const missing = [...inner.n8n.credentials, ...inner.n8n.nodes].filter((p: string) => !fs.existsSync(path.join(unpacked, p)));
				expect(missing).toEqual([]);
			});
		},
	);

	// [3] The sandbox, the credential and the workflow, imported with n8n's CLI.
	let importCreds: N8nRun | undefined;
	let importWf: N8nRun | undefined;
	step(
		'[3] sandbox, credential and workflow',
		async () => {
			const n8n = need(S.n8n, 'no n8n runtime');
			const registry = need(S.registry, 'no local registry');
			const sandbox = await startSandbox({ port: 0, keySeed: 'registry', clockTicks: true });
			S.sandbox = sandbox;
			cleanups.push(() => sandbox.close());
			const brokerPort = await rt.freePort();
			S.callsFile = path.join(LOGS, 'npm-calls.jsonl');
			const wrapperDir = writeNpmWrapper(path.join(WORK, 'npm-wrapper'), S.callsFile);
			fs.writeFileSync(path.join(WORK, 'n8n.npmrc'), '');
			const deadProxy = `http://127.0.0.1:${await rt.freePort()}`;
			const base = rt.n8nEnv(USER_FOLDER, { N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_LOG_LEVEL: 'debug' }, n8n);
			S.env = (extra = {}) => ({
				...base,
				PATH: `${wrapperDir}${path.delimiter}${base.PATH}`,
				// npm outdated (n8n's update check) passes no --registry: it reads npm's own config.
				npm_config_registry: `${registry.url}/`,
				npm_config_userconfig: path.join(WORK, 'n8n.npmrc'),
				...QUIET_NPM,
				// Loopback only: n8n's own calls out (its version check on registry.npmjs.org, api.n8n.io)
				// go to a closed port on 127.0.0.1 and fail at once; verdaccio and the sandbox are not proxied.
				HTTPS_PROXY: deadProxy,
				https_proxy: deadProxy,
				NO_PROXY: '127.0.0.1,localhost',
				no_proxy: '127.0.0.1,localhost',
				...extra,
			});
			const credentialsFile = path.join(WORK, 'credentials.json');
			fs.writeFileSync(credentialsFile, JSON.stringify([{ ...CREDENTIAL, type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } }]), { mode: 0o600 });
			importCreds = await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialsFile}`], { env: S.env(), outDir: LOGS, label: 'import-credentials', timeoutMs: 120_000 });
			fs.rmSync(credentialsFile, { force: true });
			const workflowFile = path.join(WORK, 'workflow.json');
			const credRef = { postWriterApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
			fs.writeFileSync(
				workflowFile,
				JSON.stringify({
					id: WORKFLOW_ID,
					name: 'Registry rehearsal: Generate → Get Credits',
					active: false,
					settings: { executionOrder: 'v1' },
					nodes: [
						{ id: 'a0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
						{
							id: 'a0000000-0000-4000-8000-000000000002',
							name: 'Generate',
							type: `${NAME}.postWriter`,
							typeVersion: 1,
							position: [200, 0],
							parameters: { resource: 'post', operation: 'generate', prompt: 'What a registry rehearsal proves', numProposals: 2, saveDraft: false },
							credentials: credRef,
						},
						{
							id: 'a0000000-0000-4000-8000-000000000003',
							name: 'Get Credits',
							type: `${NAME}.postWriter`,
							typeVersion: 1,
							position: [400, 0],
							parameters: { resource: 'account', operation: 'getCredits' },
							credentials: credRef,
						},
					],
					connections: { Start: { main: [[{ node: 'Generate', type: 'main', index: 0 }]] }, Generate: { main: [[{ node: 'Get Credits', type: 'main', index: 0 }]] } },
				}),
			);
			importWf = await rt.runN8n(n8n.bin, ['import:workflow', `--input=${workflowFile}`], { env: S.env(), outDir: LOGS, label: 'import-workflow', timeoutMs: 120_000 });
		},
		() => {
			check(`n8n import:credentials and import:workflow (types ${NAME}.postWriter)`, () => {
				const creds = need(importCreds, 'import:credentials did not run');
				const wf = need(importWf, 'import:workflow did not run');
				because(`credentials: see ${creds.outFile}`, () => {
					expect(creds.code).toBe(0);
					expect(creds.stdout + creds.stderr).toMatch(/imported 1 credential/i);
				});
				because(`workflow: see ${wf.outFile}`, () => {
					expect(wf.code).toBe(0);
					expect(wf.stdout + wf.stderr).toMatch(/imported 1 workflow/i);
				});
			});
		},
	);

	// [4] The GUI's way: n8n pointed at the local registry, as a licensed instance would be.
	describe(`[4] install ${VERSIONS[0]} through n8n's REST API, as Settings › Community Nodes › Install does`, () => {
		let s1: Server | undefined;
		const up = () => need(s1?.up && s1, 'n8n did not start (see the check "n8n … starts")');
		let login1: { status: number; text: string } | undefined;
		let refused: Rest | undefined;
		let installedBeforeInstall: string | undefined;
		let feature: Rest | undefined;
		let install: Rest | undefined;
		let installSeconds = '';
		let installCalls: NpmCall[] = [];
		let list1: Rest | undefined;
		afterAll(async () => {
			await s1?.stop();
		});

		step(
			'start n8n',
			async () => {
				const registry = need(S.registry, 'no local registry');
				const env = need(S.env, 'no n8n environment');
				s1 = await startN8n(need(S.n8n, 'no n8n runtime'), env({ N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, E2E_TESTS: 'true' }), 'n8n-start-1-install');
			},
			() => {
				check(`n8n ${NEWEST} starts (N8N_COMMUNITY_PACKAGES_REGISTRY=<verdaccio>)`, () => {
					const server = need(s1, 'n8n start did not run');
					because(`not up; see ${server.logFile}`, () => expect(server.up).toBe(true));
				});
			},
		);
		step(
			'log in',
			async () => {
				login1 = await login(up());
			},
			() => {
				check('owner account set up and logged in (POST /rest/login)', () => {
					const result = need(login1, 'no login');
					because(`HTTP ${result.status} ${result.text.slice(0, 200)}`, () => {
						expect(result.status).toBe(200);
						expect(up().cookie).toMatch(/^n8n-auth=/);
					});
				});
			},
		);
		step(
			'install without the licensed feature',
			async () => {
				refused = await rest(up(), 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
				installedBeforeInstall = readInstalledVersion();
			},
			() => {
				check(`without the licensed feature, n8n refuses another registry (${FEATURE})`, () => {
					const r = need(refused, 'no answer');
					expect(r.status).toBeGreaterThanOrEqual(400);
					expect(r.text).toMatch(/license does not allow for feat:communityNodes:customRegistry/);
					// Nothing installed.
					expect(installedBeforeInstall).toBeUndefined();
				});
			},
		);
		step(
			'switch the feature on',
			async () => {
				feature = await rest(up(), 'PATCH', '/rest/e2e/feature', { feature: FEATURE, enabled: true });
			},
			() => {
				check(`${FEATURE} switched on through n8n’s E2E test mode`, () => {
					const r = need(feature, 'no answer');
					because(r.text.slice(0, 200), () => expect(r.status).toBe(200));
				});
			},
		);
		step(
			'install',
			async () => {
				const server = up();
				const callsFile = need(S.callsFile, 'no npm wrapper');
				const callsBefore = npmCalls(callsFile).length;
				const installStarted = Date.now();
				install = await rest(server, 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
				installSeconds = ((Date.now() - installStarted) / 1000).toFixed(1);
				say(`  POST /rest/community-packages: HTTP ${install.status} in ${installSeconds} s`);
				installCalls = npmCalls(callsFile).slice(callsBefore);
				fs.writeFileSync(path.join(LOGS, 'npm-calls-install.json'), JSON.stringify(installCalls, null, 2));
			},
			() => {
				check(`POST /rest/community-packages installs ${NAME}@${VERSIONS[0]} with its node and trigger`, () => {
					const r = need(install, 'no answer');
					because(`HTTP ${r.status} ${r.text.slice(0, 300)}`, () => expect(r.status).toBe(200));
					const data = r.json.data;
					expect(data.installedVersion).toBe(VERSIONS[0]);
					expect((data.installedNodes as Array<{ type: string }>).map((n) => n.type).sort()).toEqual(NODE_TYPES);
					// The version on disk.
					expect(readInstalledVersion()).toBe(VERSIONS[0]);
					// n8n strips these from the unpacked package.json before its `npm install`: n8n-workflow is never fetched.
					const installedPkg = JSON.parse(fs.readFileSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'package.json'), 'utf8'));
					expect([installedPkg.peerDependencies, installedPkg.devDependencies]).toEqual([undefined, undefined]);
					expect(fs.existsSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'node_modules', 'n8n-workflow'))).toBe(false);
				});
				check('n8n ran `npm pack <name>@<version> --registry=<local>` then `npm install --ignore-scripts` in the package folder; verdaccio served the tarball', () => {
					need(install, 'no install');
					const registry = need(S.registry, 'no registry');
					const pack = installCalls.find((c) => c.argv[0] === 'pack');
					expect(pack?.argv).toEqual(['pack', `${NAME}@${VERSIONS[0]}`, '--quiet', `--registry=${registry.url}`]);
					const inst = installCalls.find((c) => c.argv[0] === 'install');
					expect(inst?.argv).toContain('--ignore-scripts=true');
					expect(inst?.cwd.endsWith(path.join('node_modules', NAME))).toBe(true);
					// The GET of the tarball in the verdaccio log.
					expect(registry.requests()).toContainEqual({ method: 'GET', path: tarballPath(VERSIONS[0]), status: 200 });
				});
			},
		);
		step(
			'list',
			async () => {
				list1 = await rest(up(), 'GET', '/rest/community-packages');
			},
			() => {
				check(`GET /rest/community-packages lists ${VERSIONS[0]}, loaded`, () => {
					const list = need(list1, 'no answer');
					const p = listed(list);
					because(`not listed: ${list.text.slice(0, 300)}`, () => expect(p).toBeDefined());
					expect([p.installedVersion, p.failedLoading]).toEqual([VERSIONS[0], false]);
				});
			},
		);
	});

	// [5] The workflow with the installed package.
	runWorkflowStep(`[5] run the workflow with ${VERSIONS[0]}`, 'execute-1', VERSIONS[0]);

	// [6] The update through n8n.
	describe(`[6] publish ${VERSIONS[1]}, update through n8n (PATCH /rest/community-packages)`, () => {
		let s2: Server | undefined;
		const up = () => need(s2?.up && s2, 'n8n did not start again (see the check "n8n starts again")');
		let list2: Rest | undefined;
		let update: Rest | undefined;
		let list3: Rest | undefined;
		const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
		afterAll(async () => {
			await s2?.stop();
		});

		publishStep(VERSIONS[1]);
		step(
			'start n8n again',
			async () => {
				const registry = need(S.registry, 'no local registry');
				const env = need(S.env, 'no n8n environment');
				s2 = await startN8n(need(S.n8n, 'no n8n runtime'), env({ N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, E2E_TESTS: 'true' }), 'n8n-start-2-update');
			},
			() => {
				check('n8n starts again with the installed package', () => {
					const server = need(s2, 'n8n start did not run');
					because(`not up; see ${server.logFile}`, () => expect(server.up).toBe(true));
				});
			},
		);
		step(
			'the update offered',
			async () => {
				const server = up();
				await login(server);
				list2 = await rest(server, 'GET', '/rest/community-packages');
			},
			() => {
				check(`n8n offers ${VERSIONS[1]} as an update of ${VERSIONS[0]} (updateAvailable, from npm outdated)`, () => {
					const list = need(list2, 'no answer');
					const p = listed(list);
					because(`not listed: ${list.text.slice(0, 300)}`, () => expect(p).toBeDefined());
					expect([p.installedVersion, p.updateAvailable]).toEqual([VERSIONS[0], VERSIONS[1]]);
				});
			},
		);
		step(
			'update',
			async () => {
				const server = up();
				await rest(server, 'PATCH', '/rest/e2e/feature', { feature: FEATURE, enabled: true });
				update = await rest(server, 'PATCH', '/rest/community-packages', { name: NAME, version: VERSIONS[1] });
			},
			() => {
				check(`PATCH /rest/community-packages updates to ${VERSIONS[1]}`, () => {
					const r = need(update, 'no answer');
					because(`HTTP ${r.status} ${r.text.slice(0, 300)}`, () => expect(r.status).toBe(200));
					expect(r.json.data.installedVersion).toBe(VERSIONS[1]);
					expect((r.json.data.installedNodes as Array<{ type: string }>).map((n) => n.type).sort()).toEqual(NODE_TYPES);
				});
			},
		);
		step(
			'list after the update',
			async () => {
				list3 = await rest(up(), 'GET', '/rest/community-packages');
			},
			() => {
				check(`GET /rest/community-packages reports ${VERSIONS[1]}, loaded, no update pending; ${VERSIONS[1]} on disk, no backup folder left`, () => {
					const list = need(list3, 'no answer');
					const registry = need(S.registry, 'no registry');
					const p = listed(list);
					because(`not listed: ${list.text.slice(0, 300)}`, () => expect(p).toBeDefined());
					expect([p.installedVersion, p.failedLoading, p.updateAvailable]).toEqual([VERSIONS[1], false, undefined]);
					expect(readInstalledVersion()).toBe(VERSIONS[1]);
					// n8n's nodes/package.json.
					expect(JSON.parse(fs.readFileSync(path.join(nodesDir, 'package.json'), 'utf8')).dependencies).toEqual({ [NAME]: VERSIONS[1] });
					// No backup folders left.
					expect(fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((f) => f.includes('.backup-'))).toEqual([]);
					// The GET of the new tarball in the verdaccio log.
					expect(registry.requests()).toContainEqual({ method: 'GET', path: tarballPath(VERSIONS[1]), status: 200 });
				});
			},
		);
	});

	// [7] The workflow after the update.
	runWorkflowStep('[7] the same workflow after the update', 'execute-2', VERSIONS[1]);

	// [8] The Docker way.
	describe(`[8] the Docker way: N8N_COMMUNITY_PACKAGES with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true, to ${VERSIONS[2]}`, () => {
		let s3: Server | undefined;
		const up = () => need(s3?.up && s3, 'n8n did not start with N8N_COMMUNITY_PACKAGES (see the check "n8n starts with …")');
		let envCalls: NpmCall[] = [];
		let list4: Rest | undefined;
		let blocked: Rest | undefined;
		afterAll(async () => {
			await s3?.stop();
		});

		publishStep(VERSIONS[2]);
		step(
			'start n8n with N8N_COMMUNITY_PACKAGES',
			async () => {
				const registry = need(S.registry, 'no local registry');
				const env = need(S.env, 'no n8n environment');
				const callsFile = need(S.callsFile, 'no npm wrapper');
				const envCallsBefore = npmCalls(callsFile).length;
				s3 = await startN8n(
					need(S.n8n, 'no n8n runtime'),
					env({
						N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
						N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: NAME, version: VERSIONS[2] }]),
						POST_WRITER_REDIRECT_REGISTRY: registry.url,
					}),
					'n8n-start-3-env',
				);
				envCalls = npmCalls(callsFile).slice(envCallsBefore);
				fs.writeFileSync(path.join(LOGS, 'npm-calls-env.json'), JSON.stringify(envCalls, null, 2));
			},
			() => {
				check('n8n starts with N8N_COMMUNITY_PACKAGES (default registry; the npm wrapper sends it to verdaccio)', () => {
					const server = need(s3, 'n8n start did not run');
					because(`not up; see ${server.logFile}`, () => expect(server.up).toBe(true));
				});
				check(`n8n reconciled the package from the environment at start-up: "Updated community package '${NAME}' from ${VERSIONS[1]} to ${VERSIONS[2]} from env"`, () => {
					const server = up();
					const registry = need(S.registry, 'no registry');
					because(`see ${server.logFile}`, () => expect(server.log()).toContain(`Updated community package '${NAME}' from ${VERSIONS[1]} to ${VERSIONS[2]} from env`));
					// npm pack as n8n ran it (before the wrapper's redirect).
					const pack = envCalls.find((c) => c.argv[0] === 'pack');
					expect(pack?.argv).toEqual(['pack', `${NAME}@${VERSIONS[2]}`, '--quiet', `--registry=${DEFAULT_REGISTRY}`]);
					expect(registry.requests()).toContainEqual({ method: 'GET', path: tarballPath(VERSIONS[2]), status: 200 });
				});
			},
		);
		step(
			'list, and an install refused',
			async () => {
				const server = up();
				await login(server);
				list4 = await rest(server, 'GET', '/rest/community-packages');
				blocked = await rest(server, 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
			},
			() => {
				check(`n8n reports ${VERSIONS[2]}, loaded; installs through the API are refused while managed by env`, () => {
					const list = need(list4, 'no answer');
					const refusal = need(blocked, 'no answer');
					const p = listed(list);
					because(`not listed: ${list.text.slice(0, 300)}`, () => expect(p).toBeDefined());
					expect([p.installedVersion, p.failedLoading]).toEqual([VERSIONS[2], false]);
					expect(refusal.status).toBe(400);
					expect(refusal.text).toMatch(/managed via environment variables/);
				});
			},
		);
	});

	// [8] continued, once n8n is stopped.
	runWorkflowStep(`[8] the same workflow with ${VERSIONS[2]}`, 'execute-3', VERSIONS[2]);

	describe('[9] the registry', () => {
		check('the registry served only this package: no other package was asked for, nothing came from another registry', () => {
			const registry = need(S.registry, 'no registry');
			const others = registry
				.requests()
				.filter((r) => !r.path.startsWith(`/${NAME}`) && !r.path.startsWith('/-/user/') && r.path !== '/-/ping' && !r.path.startsWith(`/${encodeURIComponent(NAME)}`));
			expect(others).toEqual([]);
		});
	});
});
