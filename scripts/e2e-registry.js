#!/usr/bin/env node
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
 * Ends with "registry: N passed, M failed"; exits 1 on any failure.
 * Logs: the work folder's logs/ (and $SECRET_SCAN_DIR/e2e-registry/ when set).
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const rt = require('./lib/n8n-runtime');
const { say, createChecks, expect, equal, waitFor } = require('./lib/checks');
const vd = require('./lib/verdaccio');

const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-registry-'));
const LOGS = path.join(WORK, 'logs');
const USER_FOLDER = path.join(WORK, 'user');
const PKG = JSON.parse(fs.readFileSync(path.join(rt.PACKAGE_DIR, 'package.json'), 'utf8'));
const NAME = PKG.name;
const VERSIONS = [1, 2, 3].map((n) => `${PKG.version}-rehearsal.${n}`);
const DEFAULT_REGISTRY = 'https://registry.npmjs.org';
const WORKFLOW_ID = 'pwRegistryWf0001';
const CREDENTIAL = { id: 'pwRegistryCred01', name: 'Post Writer sandbox (registry)' };
const OWNER = { email: 'owner@postwriter.example', firstName: 'Registry', lastName: 'Owner', password: `Pw-${crypto.randomBytes(6).toString('hex')}-9A` };
const BROWSER_ID = `registry-${crypto.randomBytes(4).toString('hex')}`;
const cleanups = [];
let finishing = false;
const { check, counts } = createChecks({ skip: () => finishing });

/** npm with this machine's npm, no npm_config_* of an enclosing `npm run`, output kept. */
function npm(args, { cwd, label, nodeBin }) {
	const result = spawnSync('npm', args, { cwd, env: vd.cleanEnv(nodeBin), encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
	fs.writeFileSync(path.join(LOGS, `${label}.log`), `$ npm ${args.join(' ')}\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
	return result;
}

/** The first JSON value in npm's output (npm may print warnings around it). */
function jsonOf(text) {
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
 * n8n/ built by scripts/build-n8n.js in a copy of the sources (n8n/, shared/,
 * the build script; node_modules linked), not in place: the other end-to-end
 * suites rebuild n8n/dist while they run, side by side with this one in CI.
 * Returns the built copy of n8n/.
 */
function buildCopy() {
	const dir = path.join(WORK, 'build');
	fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
	fs.cpSync(path.join(rt.ROOT, 'shared'), path.join(dir, 'shared'), { recursive: true });
	// verbatimSymlinks: n8n/shared stays "../shared", the copy's shared/.
	fs.cpSync(rt.PACKAGE_DIR, path.join(dir, 'n8n'), {
		recursive: true,
		verbatimSymlinks: true,
		filter: (src) => !(path.dirname(src) === rt.PACKAGE_DIR && ['dist', 'node_modules'].includes(path.basename(src))),
	});
	fs.symlinkSync(path.join(rt.ROOT, 'node_modules'), path.join(dir, 'node_modules'));
	const build = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(rt.ROOT, 'scripts', 'build-n8n.ts'), path.join(dir, 'n8n')], { cwd: rt.ROOT, encoding: 'utf8', timeout: 300_000 });
	fs.writeFileSync(path.join(LOGS, 'build.log'), `${build.stdout}${build.stderr}`);
	if (build.status !== 0) throw new Error(`build failed; see ${path.join(LOGS, 'build.log')}`);
	return path.join(dir, 'n8n');
}

/**
 * A copy of the built n8n/ folder (its symlinks and node_modules left out),
 * the version set in the copy's package.json only, published as the release
 * workflow does. Returns npm publish's JSON (id, integrity, files…).
 */
function publish(built, version, registry, userconfig, nodeBin) {
	const dir = path.join(WORK, `publish-${version}`);
	fs.cpSync(built, dir, {
		recursive: true,
		filter: (src) => path.basename(src) !== 'node_modules' && !fs.lstatSync(src).isSymbolicLink(),
	});
	const pkgFile = path.join(dir, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
	pkg.version = version;
	fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
	const result = npm(['publish', '--access', 'public', '--tag', 'latest', '--json', `--registry=${registry}/`, `--userconfig=${userconfig}`], {
		cwd: dir,
		label: `npm-publish-${version}`,
		nodeBin,
	});
	const out = jsonOf(result.stdout) ?? {};
	return { code: result.status, json: out[NAME] ?? out };
}

/** An `npm` first on n8n's PATH: logs every npm command n8n runs; redirects the default registry to `redirectTo` when set. */
function writeNpmWrapper(dir, callsFile) {
	const realNpm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
	if (!realNpm) throw new Error('npm not found on PATH');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'npm');
	fs.writeFileSync(
		file,
		`#!/usr/bin/env node
'use strict';
// Written by scripts/e2e-registry.js: logs the npm commands n8n runs.
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

function npmCalls(callsFile) {
	if (!fs.existsSync(callsFile)) return [];
	return fs
		.readFileSync(callsFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l));
}

/** `n8n start` on a free port; resolves once the editor is up (bounded). */
async function startN8n(n8n, env, label) {
	const port = await rt.freePort();
	const logFile = path.join(LOGS, `${label}.log`);
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, ['start'], { env: { ...env, N8N_PORT: String(port), N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}` }, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	const server = { url: `http://127.0.0.1:${port}`, child, logFile, cookie: '', log: () => fs.readFileSync(logFile, 'utf8') };
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		rt.killGroup(child, 'SIGTERM');
		if (!(await waitFor(() => child.exitCode !== null || child.signalCode !== null, 30_000))) rt.killGroup(child, 'SIGKILL');
		await waitFor(() => child.exitCode !== null || child.signalCode !== null, 10_000);
	};
	server.stop = stop;
	cleanups.push(stop);
	const up = await waitFor(async () => {
		if (child.exitCode !== null) return true;
		try {
			return (await fetch(`${server.url}/healthz`)).status === 200 && /Editor is now accessible/.test(server.log());
		} catch {
			return false;
		}
	}, 180_000);
	server.up = up && child.exitCode === null;
	return server;
}

/** A REST call as the editor makes it: the session cookie and browser-id header. */
async function rest(server, method, route, body) {
	const res = await fetch(`${server.url}${route}`, {
		method,
		headers: { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID, ...(server.cookie ? { Cookie: server.cookie } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	const setCookie = res.headers.getSetCookie?.() ?? [];
	const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
	if (auth) server.cookie = auth;
	return { status: res.status, json, text };
}

/** Owner account on the first start, then a logged-in session. */
async function login(server) {
	const settings = await rest(server, 'GET', '/rest/settings');
	if (settings.json?.data?.userManagement?.showSetupOnFirstLoad === true) {
		const setup = await rest(server, 'POST', '/rest/owner/setup', OWNER);
		if (setup.status !== 200) return { status: setup.status, text: setup.text };
	}
	return await rest(server, 'POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
}

async function sandboxApi(sandbox, method, route) {
	const res = await fetch(`${sandbox.baseUrl}${route}`, { method, headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
	return await res.json();
}

/** The output items of a node in the run data of `n8n execute`. */
function outputOf(run, nodeName) {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs || runs.length === 0) throw new Error(`node "${nodeName}" did not run`);
	if (runs[0].error) throw new Error(`node "${nodeName}" failed: ${runs[0].error.message}`);
	return runs[0].data.main[0];
}

/** `n8n execute --id` of the rehearsal workflow (no `n8n start` running), checked in n8n's output and in the sandbox. */
async function runWorkflow(n8n, env, sandbox, label, version) {
	const before = sandbox.stats.byRoute['POST /generate'] ?? 0;
	// Info level: at debug, n8n wraps the run data it prints in a log line.
	const exec = await rt.runN8n(n8n.bin, ['execute', '--id', WORKFLOW_ID, '--rawOutput'], { env: { ...env, N8N_LOG_LEVEL: 'info' }, outDir: LOGS, label, timeoutMs: 180_000 });
	const run = rt.parseRunOutput(exec.stdout);
	const credits = await sandboxApi(sandbox, 'GET', '/credits');
	const installed = readInstalledVersion();
	check(`the workflow runs with the installed ${installed} (n8n execute, exit 0, Generate → Get Credits)`, () => {
		equal(installed, version, `version on disk in ${path.join('.n8n', 'nodes', 'node_modules', NAME)}`);
		expect(!exec.timedOut, 'timed out');
		expect(run, `no run data in the output; see ${exec.outFile} and ${exec.errFile}`);
		expect(!run.data.resultData.error, `failed: ${run.data.resultData.error?.message}; see ${exec.errFile}`);
		// The run's own record decides: n8n's CLI once exited non-zero after printing a finished, successful run.
		expect(run.status === 'success' && run.finished === true, `run status ${run.status}, finished ${run.finished}; see ${exec.outFile}`);
		equal(run.data.resultData.lastNodeExecuted, 'Get Credits', 'last node');
	});
	if (run && exec.code !== 0) say(`    note: n8n execute exited with ${exec.code ?? `signal ${exec.signal}`} after a finished run with status ${run.status} (see ${exec.errFile})`);
	if (!run) return;
	check(`${label}: Generate returned 2 proposals and the sandbox served them; Get Credits equals the sandbox balance`, () => {
		const [item, ...rest] = outputOf(run, 'Generate');
		equal(rest.length, 0, 'extra items');
		equal(item.json.proposals.length, 2, 'proposals');
		expect(item.json.proposals.every((p) => typeof p === 'string' && p.length > 10), 'proposal texts');
		equal((sandbox.stats.byRoute['POST /generate'] ?? 0) - before, 1, 'POST /generate calls in the sandbox during the run');
		equal(outputOf(run, 'Get Credits')[0].json.balance, credits.balance, 'balance');
	});
}

function readInstalledVersion() {
	try {
		return JSON.parse(fs.readFileSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'package.json'), 'utf8')).version;
	} catch {
		return undefined;
	}
}

function tarballPath(version) {
	return `/${NAME}/-/${NAME}-${version}.tgz`;
}

/** The package n8n lists (GET /rest/community-packages), or undefined. */
function listed(list) {
	return (list.json?.data ?? []).find((p) => p.packageName === NAME);
}

async function main() {
	say(`Registry rehearsal: ${NAME} through n8n's community-package installer (work folder ${WORK})`);
	fs.mkdirSync(LOGS, { recursive: true });
	const n8n = await rt.ensureN8n('newest');
	const nodeBin = n8n.nodeBin ?? process.execPath;

	say('\n[1] local registry');
	const verdaccio = vd.ensureVerdaccio(nodeBin);
	const reported = spawnSync(nodeBin, [verdaccio.entry, '--version'], { encoding: 'utf8', timeout: 60_000 }).stdout?.trim();
	check(`verdaccio ${verdaccio.version} ${verdaccio.installedNow ? `installed in ${verdaccio.seconds} s` : 'reused from the cache'} (${verdaccio.dir})`, () =>
		equal(reported, `v${verdaccio.version}`, 'verdaccio --version'),
	);
	const registryPort = await rt.freePort();
	const registry = await vd.startVerdaccio(verdaccio, { nodeBin, work: path.join(WORK, 'verdaccio'), port: registryPort });
	cleanups.push(async () => {
		rt.killGroup(registry.child, 'SIGTERM');
		if (!(await waitFor(() => registry.child.exitCode !== null || registry.child.signalCode !== null, 10_000))) rt.killGroup(registry.child, 'SIGKILL');
	});
	say(`  verdaccio at ${registry.url}`);
	const token = await vd.addUser(registry.url, 'rehearsal', crypto.randomBytes(12).toString('hex'));
	const userconfig = path.join(WORK, 'publish.npmrc');
	fs.writeFileSync(userconfig, `//127.0.0.1:${registryPort}/:_authToken=${token}\n`, { mode: 0o600 });

	say(`\n[2] build, publish ${VERSIONS[0]}`);
	const built = buildCopy();
	const first = publish(built, VERSIONS[0], registry.url, userconfig, nodeBin);
	check(`npm publish ${NAME}@${VERSIONS[0]} to the local registry (exit 0)`, () => {
		equal(first.code, 0, `exit code; see ${path.join(LOGS, `npm-publish-${VERSIONS[0]}.log`)}`);
		equal(first.json.id, `${NAME}@${VERSIONS[0]}`, 'published id');
	});
	const view = jsonOf(npm(['view', NAME, '--json', `--registry=${registry.url}/`], { cwd: WORK, label: 'npm-view-1', nodeBin }).stdout) ?? {};
	check('npm view from the registry: the version, latest tag, tarball URL, integrity and shasum of the publish', () => {
		equal(view.version, VERSIONS[0], 'version');
		equal(view['dist-tags']?.latest, VERSIONS[0], 'latest');
		equal(view.dist?.tarball, `${registry.url}${tarballPath(VERSIONS[0])}`, 'tarball');
		equal(view.dist?.integrity, first.json.integrity, 'integrity (npm view vs npm publish)');
		equal(view.dist?.shasum, first.json.shasum, 'shasum (npm view vs npm publish)');
	});
	const fetchDir = path.join(WORK, 'fetched');
	fs.mkdirSync(fetchDir, { recursive: true });
	const fetched = npm(['pack', `${NAME}@${VERSIONS[0]}`, '--json', `--registry=${registry.url}/`], { cwd: fetchDir, label: 'npm-pack-from-registry', nodeBin });
	const fetchedInfo = (jsonOf(fetched.stdout) ?? [])[0] ?? {};
	const unpacked = path.join(fetchDir, 'package');
	if (fetchedInfo.filename) rt.unpack(path.join(fetchDir, fetchedInfo.filename), unpacked);
	check('the tarball fetched back from the registry holds dist/, README.md, LICENSE and package.json only, every "n8n" path, no dependencies', () => {
		expect(fetched.status === 0 && fetchedInfo.filename, 'npm pack from the registry failed');
		equal(fetchedInfo.integrity, first.json.integrity, 'integrity');
		const files = fetchedInfo.files.map((f) => f.path);
		equal(
			files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f)),
			[],
			'files outside dist',
		);
		const inner = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
		equal(inner.version, VERSIONS[0], 'version');
		equal(Object.keys(inner.dependencies ?? {}), [], 'dependencies');
		equal(Object.keys(inner.peerDependencies ?? {}), ['n8n-workflow'], 'peerDependencies');
		for (const p of [...inner.n8n.credentials, ...inner.n8n.nodes]) expect(fs.existsSync(path.join(unpacked, p)), `${p} in the tarball`);
	});

	say('\n[3] sandbox, credential and workflow');
	const sandbox = await rt.startSandbox({ port: 0, keySeed: 'registry', clockTicks: true });
	cleanups.push(() => sandbox.close());
	const brokerPort = await rt.freePort();
	const callsFile = path.join(LOGS, 'npm-calls.jsonl');
	const wrapperDir = writeNpmWrapper(path.join(WORK, 'npm-wrapper'), callsFile);
	fs.writeFileSync(path.join(WORK, 'n8n.npmrc'), '');
	const deadProxy = `http://127.0.0.1:${await rt.freePort()}`;
	const base = rt.n8nEnv(USER_FOLDER, { N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_LOG_LEVEL: 'debug' }, n8n);
	const env = (extra = {}) => ({
		...base,
		PATH: `${wrapperDir}${path.delimiter}${base.PATH}`,
		// npm outdated (n8n's update check) passes no --registry: it reads npm's own config.
		npm_config_registry: `${registry.url}/`,
		npm_config_userconfig: path.join(WORK, 'n8n.npmrc'),
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
	const importCreds = await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialsFile}`], { env: env(), outDir: LOGS, label: 'import-credentials', timeoutMs: 120_000 });
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
	const importWf = await rt.runN8n(n8n.bin, ['import:workflow', `--input=${workflowFile}`], { env: env(), outDir: LOGS, label: 'import-workflow', timeoutMs: 120_000 });
	check('n8n import:credentials and import:workflow (types n8n-nodes-post-writer.postWriter)', () => {
		expect(importCreds.code === 0 && /imported 1 credential/i.test(importCreds.stdout + importCreds.stderr), `credentials: exit ${importCreds.code}; see ${importCreds.outFile}`);
		expect(importWf.code === 0 && /imported 1 workflow/i.test(importWf.stdout + importWf.stderr), `workflow: exit ${importWf.code}; see ${importWf.outFile}`);
	});

	// The GUI's way: n8n pointed at the local registry, as a licensed instance would be.
	const guiEnv = env({ N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, E2E_TESTS: 'true' });
	say(`\n[4] install ${VERSIONS[0]} through n8n's REST API, as Settings › Community Nodes › Install does`);
	const s1 = await startN8n(n8n, guiEnv, 'n8n-start-1-install');
	check(`n8n ${n8n.version} starts (N8N_COMMUNITY_PACKAGES_REGISTRY=${registry.url})`, () => expect(s1.up, `not up; see ${s1.logFile}`));
	if (!s1.up) return;
	const login1 = await login(s1);
	check('owner account set up and logged in (POST /rest/login)', () => expect(login1.status === 200 && s1.cookie, `HTTP ${login1.status} ${login1.text?.slice(0, 200)}`));
	const refused = await rest(s1, 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
	check('without the licensed feature, n8n refuses another registry (feat:communityNodes:customRegistry)', () => {
		expect(refused.status >= 400, `HTTP ${refused.status}`);
		expect(/license does not allow for feat:communityNodes:customRegistry/.test(refused.text), refused.text.slice(0, 300));
		equal(readInstalledVersion(), undefined, 'nothing installed');
	});
	const feature = await rest(s1, 'PATCH', '/rest/e2e/feature', { feature: 'feat:communityNodes:customRegistry', enabled: true });
	check('feat:communityNodes:customRegistry switched on through n8n’s E2E test mode', () => expect(feature.status === 200, `HTTP ${feature.status} ${feature.text.slice(0, 200)}`));
	const callsBefore = npmCalls(callsFile).length;
	const installStarted = Date.now();
	const install = await rest(s1, 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
	const installSeconds = ((Date.now() - installStarted) / 1000).toFixed(1);
	check(`POST /rest/community-packages installs ${NAME}@${VERSIONS[0]} (${installSeconds} s) with its node and trigger`, () => {
		expect(install.status === 200, `HTTP ${install.status} ${install.text.slice(0, 300)}`);
		const data = install.json.data;
		equal(data.installedVersion, VERSIONS[0], 'installedVersion');
		equal(data.installedNodes.map((n) => n.type).sort(), [`${NAME}.postWriter`, `${NAME}.postWriterTrigger`], 'installed node types');
		equal(readInstalledVersion(), VERSIONS[0], 'version on disk');
		// n8n strips these from the unpacked package.json before its `npm install`: n8n-workflow is never fetched.
		const installedPkg = JSON.parse(fs.readFileSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'package.json'), 'utf8'));
		equal([installedPkg.peerDependencies, installedPkg.devDependencies], [undefined, undefined], 'peer and dev dependencies left in the installed package.json');
		expect(!fs.existsSync(path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', NAME, 'node_modules', 'n8n-workflow')), 'n8n-workflow installed under the package');
	});
	const installCalls = npmCalls(callsFile).slice(callsBefore);
	fs.writeFileSync(path.join(LOGS, 'npm-calls-install.json'), JSON.stringify(installCalls, null, 2));
	check('n8n ran `npm pack <name>@<version> --registry=<local>` then `npm install --ignore-scripts` in the package folder; verdaccio served the tarball', () => {
		const pack = installCalls.find((c) => c.argv[0] === 'pack');
		equal(pack?.argv, ['pack', `${NAME}@${VERSIONS[0]}`, '--quiet', `--registry=${registry.url}`], 'npm pack arguments');
		const inst = installCalls.find((c) => c.argv[0] === 'install');
		expect(inst && inst.argv.includes('--ignore-scripts=true') && inst.cwd.endsWith(path.join('node_modules', NAME)), `npm install: ${JSON.stringify(inst)}`);
		expect(registry.requests().some((r) => r.method === 'GET' && r.path === tarballPath(VERSIONS[0]) && r.status === 200), 'GET of the tarball in the verdaccio log');
	});
	const list1 = await rest(s1, 'GET', '/rest/community-packages');
	check(`GET /rest/community-packages lists ${VERSIONS[0]}, loaded`, () => {
		const p = listed(list1);
		expect(p, `not listed: ${list1.text.slice(0, 300)}`);
		equal([p.installedVersion, p.failedLoading], [VERSIONS[0], false], 'installedVersion, failedLoading');
	});
	await s1.stop();

	say(`\n[5] run the workflow with ${VERSIONS[0]}`);
	await runWorkflow(n8n, env(), sandbox, 'execute-1', VERSIONS[0]);

	say(`\n[6] publish ${VERSIONS[1]}, update through n8n (PATCH /rest/community-packages)`);
	const second = publish(built, VERSIONS[1], registry.url, userconfig, nodeBin);
	check(`npm publish ${NAME}@${VERSIONS[1]} (exit 0)`, () => equal([second.code, second.json.id], [0, `${NAME}@${VERSIONS[1]}`], 'exit code, id'));
	const s2 = await startN8n(n8n, guiEnv, 'n8n-start-2-update');
	check('n8n starts again with the installed package', () => expect(s2.up, `not up; see ${s2.logFile}`));
	if (!s2.up) return;
	await login(s2);
	const list2 = await rest(s2, 'GET', '/rest/community-packages');
	check(`n8n offers ${VERSIONS[1]} as an update of ${VERSIONS[0]} (updateAvailable, from npm outdated)`, () => {
		const p = listed(list2);
		expect(p, `not listed: ${list2.text.slice(0, 300)}`);
		equal([p.installedVersion, p.updateAvailable], [VERSIONS[0], VERSIONS[1]], 'installedVersion, updateAvailable');
	});
	await rest(s2, 'PATCH', '/rest/e2e/feature', { feature: 'feat:communityNodes:customRegistry', enabled: true });
	const update = await rest(s2, 'PATCH', '/rest/community-packages', { name: NAME, version: VERSIONS[1] });
	check(`PATCH /rest/community-packages updates to ${VERSIONS[1]}`, () => {
		expect(update.status === 200, `HTTP ${update.status} ${update.text.slice(0, 300)}`);
		equal(update.json.data.installedVersion, VERSIONS[1], 'installedVersion');
		equal(update.json.data.installedNodes.map((n) => n.type).sort(), [`${NAME}.postWriter`, `${NAME}.postWriterTrigger`], 'installed node types');
	});
	const list3 = await rest(s2, 'GET', '/rest/community-packages');
	const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
	check(`GET /rest/community-packages reports ${VERSIONS[1]}, loaded, no update pending; ${VERSIONS[1]} on disk, no backup folder left`, () => {
		const p = listed(list3);
		expect(p, `not listed: ${list3.text.slice(0, 300)}`);
		equal([p.installedVersion, p.failedLoading, p.updateAvailable], [VERSIONS[1], false, undefined], 'installedVersion, failedLoading, updateAvailable');
		equal(readInstalledVersion(), VERSIONS[1], 'version on disk');
		equal(JSON.parse(fs.readFileSync(path.join(nodesDir, 'package.json'), 'utf8')).dependencies, { [NAME]: VERSIONS[1] }, "n8n's nodes/package.json");
		equal(fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((f) => f.includes('.backup-')), [], 'backup folders');
		expect(registry.requests().some((r) => r.method === 'GET' && r.path === tarballPath(VERSIONS[1]) && r.status === 200), 'GET of the new tarball in the verdaccio log');
	});
	await s2.stop();

	say(`\n[7] the same workflow after the update`);
	await runWorkflow(n8n, env(), sandbox, 'execute-2', VERSIONS[1]);

	say(`\n[8] the Docker way: N8N_COMMUNITY_PACKAGES with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true, to ${VERSIONS[2]}`);
	const third = publish(built, VERSIONS[2], registry.url, userconfig, nodeBin);
	check(`npm publish ${NAME}@${VERSIONS[2]} (exit 0)`, () => equal([third.code, third.json.id], [0, `${NAME}@${VERSIONS[2]}`], 'exit code, id'));
	const envCallsBefore = npmCalls(callsFile).length;
	const s3 = await startN8n(
		n8n,
		env({
			N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
			N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: NAME, version: VERSIONS[2] }]),
			POST_WRITER_REDIRECT_REGISTRY: registry.url,
		}),
		'n8n-start-3-env',
	);
	check('n8n starts with N8N_COMMUNITY_PACKAGES (default registry; the npm wrapper sends it to verdaccio)', () => expect(s3.up, `not up; see ${s3.logFile}`));
	if (!s3.up) return;
	const envCalls = npmCalls(callsFile).slice(envCallsBefore);
	fs.writeFileSync(path.join(LOGS, 'npm-calls-env.json'), JSON.stringify(envCalls, null, 2));
	check(`n8n reconciled the package from the environment at start-up: "Updated community package '${NAME}' from ${VERSIONS[1]} to ${VERSIONS[2]} from env"`, () => {
		expect(s3.log().includes(`Updated community package '${NAME}' from ${VERSIONS[1]} to ${VERSIONS[2]} from env`), `not in ${s3.logFile}`);
		const pack = envCalls.find((c) => c.argv[0] === 'pack');
		equal(pack?.argv, ['pack', `${NAME}@${VERSIONS[2]}`, '--quiet', `--registry=${DEFAULT_REGISTRY}`], 'npm pack as n8n ran it');
		expect(registry.requests().some((r) => r.method === 'GET' && r.path === tarballPath(VERSIONS[2]) && r.status === 200), 'GET of the tarball in the verdaccio log');
	});
	await login(s3);
	const list4 = await rest(s3, 'GET', '/rest/community-packages');
	const blocked = await rest(s3, 'POST', '/rest/community-packages', { name: NAME, version: VERSIONS[0] });
	check(`n8n reports ${VERSIONS[2]}, loaded; installs through the API are refused while managed by env`, () => {
		const p = listed(list4);
		expect(p, `not listed: ${list4.text.slice(0, 300)}`);
		equal([p.installedVersion, p.failedLoading], [VERSIONS[2], false], 'installedVersion, failedLoading');
		expect(blocked.status === 400 && /managed via environment variables/.test(blocked.text), `HTTP ${blocked.status} ${blocked.text.slice(0, 200)}`);
	});
	await s3.stop();
	await runWorkflow(n8n, env(), sandbox, 'execute-3', VERSIONS[2]);

	check('the registry served only this package: no other package was asked for, nothing came from another registry', () => {
		const others = registry
			.requests()
			.filter((r) => !r.path.startsWith(`/${NAME}`) && !r.path.startsWith('/-/user/') && r.path !== '/-/ping' && !r.path.startsWith(`/${encodeURIComponent(NAME)}`));
		equal(others, [], 'other requests');
	});
}

async function finish(code) {
	for (const cleanup of cleanups.reverse()) {
		try {
			await cleanup();
		} catch {
			// best effort
		}
	}
	cleanups.length = 0;
	const { passed, failed } = counts(code);
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
	if (failed === 0) {
		// Keep the logs; drop the n8n folder, the registry storage and the copies.
		for (const entry of fs.readdirSync(WORK)) if (entry !== 'logs') fs.rmSync(path.join(WORK, entry), { recursive: true, force: true });
	}
	say(`\nlogs: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s)`);
	say(`registry: ${passed} passed, ${failed} failed`);
	process.exit(failed > 0 ? 1 : 0);
}

function finishOnce(code) {
	if (finishing) return;
	finishing = true;
	finish(code);
}

process.on('SIGINT', () => {
	say('\ninterrupted (SIGINT): stopping n8n, the sandbox and the registry');
	finishOnce(130);
});
process.on('SIGTERM', () => {
	say('\nterminated (SIGTERM): stopping n8n, the sandbox and the registry');
	finishOnce(143);
});
main().then(
	() => finishOnce(0),
	(error) => {
		say(`\nRegistry rehearsal aborted: ${(error && error.stack) || error}`);
		finishOnce(1);
	},
);
