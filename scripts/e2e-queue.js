#!/usr/bin/env node
/**
 * Queue-mode end to end in the newest n8n (2.41.0 on Node 24, from the cache):
 *   1. Debian's postgresql and redis-server (apt-get when missing), started on
 *      127.0.0.1 and free ports: a private throwaway PostgreSQL cluster
 *      (initdb + pg_ctl as the postgres user, fsync off) and a Redis without
 *      persistence (scripts/lib/queue-services.js);
 *   2. the packed node in a custom extensions folder; credentials and the
 *      workflows of test/n8n/queue/ imported and published; one `n8n start`
 *      with EXECUTIONS_MODE=queue and two `n8n worker`, one sandbox whose
 *      /generate quota is low enough to be hit;
 *   3. rate limit held across workers: 12 executions of a 10-item Generate
 *      batch (default node settings: Concurrency Auto) started at once through
 *      a webhook against 10 calls per 1 s; every item charged exactly once,
 *      credits spent = items, both workers took executions (their logs); the
 *      share of /generate requests answered 429 is printed and checked
 *      (≤ 25 %), and the run lasts at least the quota-bound time;
 *   4. triggers fire once: New Published Post and Upcoming Scheduled Draft,
 *      posts published and drafts (re)scheduled over two poll intervals, then
 *      a quiet poll: each event recorded exactly once;
 *   5. a worker killed (SIGKILL, by its PID) mid-batch, twice, while the node
 *      waits on the quota (no call in flight): a plain batch (what n8n marks
 *      the execution, what its retry charges, what a rerun charges) and the
 *      recovery procedure: one sub-execution per item, then only the items
 *      without a successful sub-execution sent again.
 * `--only=kill` (development) runs part 5 without parts 3 and 4.
 * Everything is stopped and deleted at the end, also on failure, SIGINT and
 * SIGTERM. With SECRET_SCAN_DIR set, the logs and a plain-SQL pg_dump of
 * n8n's database are copied to $SECRET_SCAN_DIR/e2e-queue/ first.
 * Ends with "queue: N passed, M failed"; exits 1 on any failure.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const rt = require('./lib/n8n-runtime');
const { say, createChecks, expect, equal, waitFor } = require('./lib/checks');
const { ensureDebianPackages } = require('./lib/debian');
const { startPostgres, startRedis } = require('./lib/queue-services');

const ROOT = rt.ROOT;
const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-e2e-queue-'));
const LOGS = path.join(WORK, 'logs');
fs.mkdirSync(LOGS, { recursive: true });
/** Set once finish() runs: no n8n process starts after that. */
let finishing = false;
const { results, check, counts } = createChecks();
/** Cleanups in the order they run: n8n processes first, then the sandbox and the servers. */
const cleanups = { processes: [], secretScan: undefined, services: [] };

/** Executions and items of the rate-limit part. */
const BATCH_EXECUTIONS = 12;
const BATCH_ITEMS = 10;
/**
 * /generate quota of the rate-limit part: far fewer calls per window than the
 * executions make at once (today's per-run pacing failed items against it).
 */
const BATCH_QUOTA = { limit: 10, windowMs: 1000 };
/** The largest share of the batch's /generate requests that may be answered 429. */
const BATCH_MAX_REFUSED_SHARE = 0.25;
/** Items of each killed batch, and how many the quota lets through before the kill. */
const KILL_ITEMS = 12;
const WORKER_CONCURRENCY = 5;
const QUEUE_WORKFLOWS = ['batch', 'kill-plain', 'kill-per-item', 'generate-one', 'trigger-published', 'trigger-upcoming'];
const IDS = {
	batch: 'pwQueueBatch0001',
	plain: 'pwQueueKillPlain',
	perItem: 'pwQueueKillItems',
	generateOne: 'pwQueueGenOne001',
	published: 'pwQueueTrigPost1',
	upcoming: 'pwQueueTrigUpc01',
};
const OWNER = { email: 'queue-e2e@example.com', firstName: 'Queue', lastName: 'E2E', password: `Qe2e-${crypto.randomBytes(6).toString('hex')}-A1` };
const BROWSER_ID = 'post-writer-queue-e2e';
/** Development switch: `--only=kill` runs the kill part alone (the result line then says so by its count). */
const ONLY_KILL = process.argv.includes('--only=kill');

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An n8n process (main or worker) with its log file; `kill` ends its process group. */
function startN8nProcess(n8n, label, args, env) {
	if (finishing) throw new Error(`not starting ${label}: the run is stopping`);
	const logFile = path.join(LOGS, `${label}.log`);
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, args, { env, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	const proc = {
		label,
		child,
		pid: child.pid,
		logFile,
		log: () => fs.readFileSync(logFile, 'utf8'),
		alive: () => child.exitCode === null && child.signalCode === null,
		async stop() {
			if (!proc.alive()) return;
			rt.killGroup(child, 'SIGTERM');
			if (!(await waitFor(() => !proc.alive(), 15_000))) rt.killGroup(child, 'SIGKILL');
		},
	};
	cleanups.processes.push(() => proc.stop());
	return proc;
}

/** Execution ids a worker's log says it started ("Worker started execution <id> (job <n>)"). */
function startedBy(worker) {
	return new Set([...worker.log().matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]));
}

async function main() {
	say(`n8n queue mode end to end (work folder ${WORK})`);

	say('\n[1] PostgreSQL and Redis');
	ensureDebianPackages(['postgresql', 'redis-server']);
	const pg = startPostgres({ port: await rt.freePort(), user: 'n8n', password: crypto.randomBytes(12).toString('hex'), database: 'n8n', logDir: LOGS });
	cleanups.services.push(() => pg.stop());
	say(`  PostgreSQL (${path.basename(path.dirname(pg.bin))}) on 127.0.0.1:${pg.port}, data in ${pg.dataDir}`);
	const redis = await startRedis({ port: await rt.freePort(), logDir: LOGS });
	cleanups.services.push(() => redis.stop());
	say(`  Redis on 127.0.0.1:${redis.port}`);
	cleanups.secretScan = () => copyForSecretScan(pg);

	say('\n[2] n8n main and two workers');
	const n8n = await rt.ensureN8n('newest');
	const packed = rt.buildAndPack(path.join(WORK, 'pack'));
	const pkg = readJson(path.join(rt.PACKAGE_DIR, 'package.json'));
	rt.unpack(packed.tarball, path.join(WORK, 'custom', packed.name));
	// The sandbox's answer lines (method, path, status: no key) go to sandbox.log; /generate answers are kept with their time.
	const sandboxLog = path.join(LOGS, 'sandbox.log');
	const generateAnswers = [];
	const sandboxLine = (line) => {
		fs.appendFileSync(sandboxLog, `${new Date().toISOString()} ${line}\n`);
		const m = /^POST \S*\/generate -> (\S+)/.exec(line);
		if (m) generateAnswers.push({ at: Date.now(), status: m[1] });
	};
	const sandbox = await rt.startSandbox({ port: 0, keySeed: 'e2e-queue', clockTicks: true, credits: 5000, rateLimitReset: true, quota: { generate: BATCH_QUOTA }, log: sandboxLine });
	cleanups.services.unshift(() => sandbox.close());
	say(`  n8n ${n8n.version}, sandbox at ${sandbox.baseUrl}, /generate quota ${BATCH_QUOTA.limit} per ${BATCH_QUOTA.windowMs} ms`);

	const encryptionKey = crypto.randomBytes(24).toString('hex');
	const shared = {
		N8N_CUSTOM_EXTENSIONS: path.join(WORK, 'custom'),
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'info',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		// A dead worker's job is found stalled within seconds (n8n sets maxStalledCount 0: a stalled job fails, it is not run again).
		QUEUE_WORKER_LOCK_DURATION: '20000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
		QUEUE_WORKER_STALLED_INTERVAL: '10000',
		EXECUTIONS_DATA_PRUNE: 'false',
		N8N_RUNNERS_MODE: 'internal',
	};
	const envFor = async (name, extra = {}) => rt.n8nEnv(path.join(WORK, `user-${name}`), { ...shared, N8N_RUNNERS_BROKER_PORT: String(await rt.freePort()), ...extra }, n8n);

	const cliEnv = await envFor('cli');
	const credentialsFile = path.join(WORK, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify([{ id: 'pwSandboxCred001', name: 'Post Writer sandbox', type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } }]));
	const importCreds = await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialsFile}`], { env: cliEnv, outDir: LOGS, label: 'import-credentials', timeoutMs: 240_000 });
	fs.rmSync(credentialsFile, { force: true });
	check('n8n import:credentials into PostgreSQL (migrations run)', () =>
		expect(importCreds.code === 0 && /imported 1 credential/i.test(importCreds.stdout + importCreds.stderr), `exit ${importCreds.code}; see ${importCreds.outFile}`),
	);
	const workflowsDir = path.join(WORK, 'workflows');
	fs.mkdirSync(workflowsDir, { recursive: true });
	for (const name of QUEUE_WORKFLOWS) {
		const wf = rt.adaptWorkflow(readJson(path.join(ROOT, 'test', 'n8n', 'queue', `${name}.workflow.json`)), { packageName: pkg.name, typePrefix: 'CUSTOM' });
		fs.writeFileSync(path.join(workflowsDir, `${name}.json`), JSON.stringify(wf));
	}
	const importWf = await rt.runN8n(n8n.bin, ['import:workflow', '--separate', `--input=${workflowsDir}`], { env: cliEnv, outDir: LOGS, label: 'import-workflows', timeoutMs: 120_000 });
	check(`n8n import:workflow (${QUEUE_WORKFLOWS.length} workflows of test/n8n/queue)`, () =>
		expect(importWf.code === 0 && new RegExp(`imported ${QUEUE_WORKFLOWS.length} workflow`, 'i').test(importWf.stdout + importWf.stderr), `exit ${importWf.code}; see ${importWf.outFile}`),
	);
	const published = [];
	for (const id of Object.values(IDS)) {
		const r = await rt.runN8n(n8n.bin, ['publish:workflow', `--id=${id}`], { env: cliEnv, outDir: LOGS, label: `publish-${id}`, timeoutMs: 120_000 });
		if (r.code === 0) published.push(id);
	}
	check(`n8n publish:workflow activates the ${Object.keys(IDS).length} workflows`, () => equal(published, Object.values(IDS), 'published'));

	const mainPort = await rt.freePort();
	const mainUrl = `http://127.0.0.1:${mainPort}`;
	const mainProc = startN8nProcess(n8n, 'main', ['start'], await envFor('main', { N8N_PORT: String(mainPort), N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.5', OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' }));
	const workerEnv = async (name) => envFor(name, { N8N_PORT: String(await rt.freePort()), QUEUE_HEALTH_CHECK_PORT: String(await rt.freePort()) });
	const startWorker = async (name) => startN8nProcess(n8n, name, ['worker', `--concurrency=${WORKER_CONCURRENCY}`], await workerEnv(name));
	const workers = [await startWorker('worker-1'), await startWorker('worker-2')];
	const mainReady = await waitFor(async () => {
		if (!/Editor is now accessible/.test(mainProc.log())) return false;
		try {
			return (await fetch(`${mainUrl}/healthz`)).ok;
		} catch {
			return false;
		}
	}, 180_000);
	const workersReady = await waitFor(() => workers.every((w) => /n8n worker is now ready/.test(w.log())), 180_000);
	check('the main (EXECUTIONS_MODE=queue) and both workers are up', () => {
		expect(mainReady, `main not ready; see ${mainProc.logFile}`);
		expect(workersReady, `workers not ready; see ${workers.map((w) => w.logFile).join(', ')}`);
	});
	if (!mainReady || !workersReady) return;
	say(`  main pid ${mainProc.pid} on port ${mainPort}; workers pid ${workers.map((w) => w.pid).join(' and ')}`);
	const rest = await restClient(mainUrl);
	check('n8n owner set up for the REST API (to retry executions)', () => expect(rest.ok, rest.error));

	const account = () => sandbox.state.account('acc_1');
	const charges = (prefix) => Object.entries(sandbox.stats.chargesByInput).filter(([k]) => k.startsWith(`generate:${prefix}`));
	const chargeCount = (prefix) => charges(prefix).reduce((n, [, c]) => n + c, 0);
	const generateRequests = () => sandbox.stats.byRoute['POST /generate'] ?? 0;
	const executions = (workflowId) =>
		pg.query(`SELECT id, status, mode, COALESCE("retryOf", '') FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`).map(([id, status, mode, retryOf]) => ({ id, status, mode, retryOf }));
	const ranBy = (ids) => {
		const counts = {};
		for (const w of allWorkers()) counts[w.label] = [...startedBy(w)].filter((id) => ids.includes(id)).length;
		return counts;
	};
	const spare = [];
	const flatted = require(path.join(n8n.dir, 'node_modules', 'flatted'));
	/** An execution's run data as n8n stores it (flatted), parsed; undefined when it has none. */
	const executionData = (id) => {
		const [[text] = []] = pg.query(`SELECT data FROM execution_data WHERE "executionId" = ${Number(id)}`);
		return text ? flatted.parse(text) : undefined;
	};
	/** POSTs to a production webhook of the main; retries while n8n has not registered it yet (404, nothing started). */
	const postWebhook = async (webhookPath, body) => {
		let status = 0;
		await waitFor(async () => {
			try {
				const r = await fetch(`${mainUrl}/webhook/${webhookPath}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
				await r.text();
				status = r.status;
			} catch (e) {
				status = String(e);
			}
			return status !== 404;
		}, 60_000, 1000);
		return status;
	};
	/** An execution's record and data (n8n's flatted form) into the logs, to read what n8n kept. */
	const saveExecution = (id, label) => {
		const [[status, data] = []] = pg.query(`SELECT e.status, d.data FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e.id = ${Number(id)}`);
		fs.writeFileSync(path.join(LOGS, `execution-${id}-${label}.txt`), `status: ${status}\n${data}\n`);
	};
	const allWorkers = () => [...workers, ...spare];

	if (ONLY_KILL) say('\n[3] skipped (--only=kill)');
	else await triggersAndBatch();
	async function triggersAndBatch() {
	say('\n[3] triggers fire once, and the rate limit holds across workers');
	const polls = () => ({ posts: sandbox.stats.byRoute['GET /posts'] ?? 0, calendar: sandbox.stats.byRoute['GET /calendar'] ?? 0 });
	const activated = await waitFor(() => polls().posts >= 1 && polls().calendar >= 1, 120_000);
	check('both trigger workflows are active and polled once (New Published Post sets its watermark)', () => expect(activated, `polls so far ${JSON.stringify(polls())}; see ${mainProc.logFile}`));
	const expectedSeen = [];
	const expectedUpcoming = [];
	const minute = (m) => new Date(Math.ceil(Date.now() / 60_000) * 60_000 + m * 60_000).toISOString();
	const schedule = (text, at) => {
		const d = sandbox.state.createDraft('acc_1', text, at);
		expectedUpcoming.push(`Upcoming ${d.id} at ${at}`);
		return d;
	};
	const reschedule = (draft, at) => {
		draft.scheduledAt = at;
		draft.updatedAt = new Date(sandbox.clock.now()).toISOString();
		expectedUpcoming.push(`Upcoming ${draft.id} at ${at}`);
	};
	const publish = () => {
		const post = rt.publishNow(sandbox, 'A post published while the queue e2e runs.');
		expectedSeen.push(`Seen ${post.id}`);
	};
	// Round 1: two posts published, two drafts scheduled within the 2-hour notice.
	publish();
	publish();
	const draftA = schedule('Queue e2e: draft A', minute(30));
	schedule('Queue e2e: draft B', minute(45));
	const round1 = polls();
	say(`  round 1: published 2 posts, scheduled 2 drafts; the next polls come within a minute`);

	// Meanwhile: the batch of executions through the webhook.
	sandbox.configure({ quota: { generate: BATCH_QUOTA } });
	sandbox.resetRateLimits();
	const creditsBefore = account().credits;
	const requestsBefore = generateRequests();
	const answersBefore = generateAnswers.length;
	const batchStarted = Date.now();
	const posts = await Promise.all(
		Array.from({ length: BATCH_EXECUTIONS }, (_, e) => postWebhook('pw-queue-batch', { prompts: Array.from({ length: BATCH_ITEMS }, (_, i) => ({ prompt: `queue-batch e${e} item${i}` })) })),
	);
	check(`${BATCH_EXECUTIONS} webhook calls accepted at once`, () => equal(posts, Array(BATCH_EXECUTIONS).fill(200), 'statuses'));
	const finishedStatuses = ['success', 'error', 'crashed', 'canceled'];
	const batchDone = await waitFor(() => {
		const rows = executions(IDS.batch);
		return rows.length >= BATCH_EXECUTIONS && rows.every((r) => finishedStatuses.includes(r.status));
	}, 240_000, 1000);
	const batchRows = executions(IDS.batch);
	const batchSeconds = Math.round((Date.now() - batchStarted) / 1000);
	const batchCharges = charges('queue-batch ');
	const batchRequests = generateRequests() - requestsBefore;
	const answers = generateAnswers.slice(answersBefore);
	const refused = answers.filter((a) => a.status === '429').length;
	const admitted = answers.filter((a) => a.status === '200');
	const otherAnswers = answers.filter((a) => a.status !== '200' && a.status !== '429').map((a) => a.status);
	const refusedShare = batchRequests > 0 ? refused / batchRequests : 0;
	const items = BATCH_EXECUTIONS * BATCH_ITEMS;
	/** The first window is free: the last of N calls can start only at (⌈N/Q⌉ − 1) × W. */
	const quotaBoundMs = (Math.ceil(items / BATCH_QUOTA.limit) - 1) * BATCH_QUOTA.windowMs;
	// Answer times (the sandbox logs on writing): the span between charged calls is printed; the check uses the run's
	// duration up to the last charged answer, from before the first webhook call, which no clock jitter can shorten.
	const spanMs = admitted.length > 0 ? admitted[admitted.length - 1].at - admitted[0].at : 0;
	const untilLastChargeMs = admitted.length > 0 ? admitted[admitted.length - 1].at - batchStarted : 0;
	const perWorker = ranBy(batchRows.map((r) => r.id));
	say(`  batch: ${batchRows.length} executions in ${batchSeconds} s, ${chargeCount('queue-batch ')} charges, executions per worker ${JSON.stringify(perWorker)}`);
	say(
		`  /generate: ${batchRequests} requests, ${refused} answered 429 (${(refusedShare * 100).toFixed(1)} %)${otherAnswers.length ? `, other answers ${JSON.stringify(otherAnswers)}` : ''}; ` +
			`first to last charged call ${(spanMs / 1000).toFixed(1)} s, start to last charged call ${(untilLastChargeMs / 1000).toFixed(1)} s (quota-bound ${(quotaBoundMs / 1000).toFixed(0)} s); sandbox log ${sandboxLog}`,
	);
	check(`every batch execution succeeded (${BATCH_EXECUTIONS} × ${BATCH_ITEMS} items)`, () => {
		expect(batchDone, `not finished in time: ${JSON.stringify(batchRows.map((r) => r.status))}`);
		equal(batchRows.length, BATCH_EXECUTIONS, 'executions');
		equal(
			batchRows.filter((r) => r.status !== 'success').map((r) => `${r.id}:${r.status}`),
			[],
			'executions not successful',
		);
	});
	check(`the quota bound the batch and few calls were refused: ≤ ${BATCH_MAX_REFUSED_SHARE * 100} % of /generate requests answered 429, the run lasted ≥ the quota-bound ${quotaBoundMs / 1000} s`, () => {
		equal(answers.length, batchRequests, '/generate answers logged vs requests counted');
		equal(otherAnswers, [], '/generate answers other than 200 and 429');
		expect(refusedShare <= BATCH_MAX_REFUSED_SHARE, `${refused} of ${batchRequests} requests answered 429 (${(refusedShare * 100).toFixed(1)} %)`);
		expect(untilLastChargeMs >= quotaBoundMs, `the last charged call answered ${untilLastChargeMs} ms after the start, below the quota-bound ${quotaBoundMs} ms`);
	});
	check(`credits spent = items (${BATCH_EXECUTIONS * BATCH_ITEMS}), every item charged once: 0 double charges, 0 missing`, () => {
		equal(creditsBefore - account().credits, BATCH_EXECUTIONS * BATCH_ITEMS, 'credits spent');
		equal(batchCharges.length, BATCH_EXECUTIONS * BATCH_ITEMS, 'distinct items charged');
		equal(batchCharges.filter(([, c]) => c !== 1).map(([k, c]) => `${k} ×${c}`), [], 'items charged more than once');
	});
	check('both workers took batch executions (their logs)', () => {
		equal(Object.values(perWorker).reduce((a, b) => a + b, 0), BATCH_EXECUTIONS, 'executions found in the worker logs');
		expect(workers.every((w) => perWorker[w.label] > 0), `per worker ${JSON.stringify(perWorker)}`);
	});

	const seenDrafts = () => account().drafts.filter((d) => d.text.startsWith('Seen ')).map((d) => d.text);
	const upcomingDrafts = () => account().drafts.filter((d) => d.text.startsWith('Upcoming ')).map((d) => d.text);
	const fired1 = await waitFor(() => seenDrafts().length >= 2 && upcomingDrafts().length >= 2 && polls().posts > round1.posts && polls().calendar > round1.calendar, 150_000);
	check('round 1 fired: 2 published posts, 2 upcoming drafts', () => expect(fired1, `seen ${JSON.stringify(seenDrafts())}, upcoming ${JSON.stringify(upcomingDrafts())}`));
	// Round 2: one more post, draft A rescheduled (a new time: fires again), draft C scheduled.
	publish();
	reschedule(draftA, minute(50));
	schedule('Queue e2e: draft C', minute(60));
	const round2 = polls();
	say('  round 2: published 1 post, rescheduled draft A, scheduled draft C');
	const fired2 = await waitFor(() => seenDrafts().length >= 3 && upcomingDrafts().length >= 4 && polls().posts > round2.posts && polls().calendar > round2.calendar, 150_000);
	// A quiet round: one more poll of each fires nothing.
	const round3 = polls();
	const quiet = fired2 && (await waitFor(() => polls().posts > round3.posts && polls().calendar > round3.calendar, 90_000));
	await sleep(5000);
	check('round 2 fired, and a quiet poll of each followed', () => expect(fired2 && quiet, `fired2 ${fired2}, quiet poll ${quiet}; polls ${JSON.stringify(polls())}`));
	check(`New Published Post: each of the ${expectedSeen.length} posts fired exactly once (0 duplicates, 0 misses)`, () => equal([...seenDrafts()].sort(), [...expectedSeen].sort(), 'Seen drafts'));
	check(`Upcoming Scheduled Draft: each of the ${expectedUpcoming.length} (draft, time) pairs fired exactly once (0 duplicates, 0 misses)`, () =>
		equal([...upcomingDrafts()].sort(), [...expectedUpcoming].sort(), 'Upcoming drafts'),
	);
	const triggerRows = [...executions(IDS.published), ...executions(IDS.upcoming)];
	const triggerPerWorker = ranBy(triggerRows.map((r) => r.id));
	say(`  trigger executions: ${triggerRows.length} (${triggerRows.map((r) => r.status).join(', ')}), per worker ${JSON.stringify(triggerPerWorker)}`);
	check('every trigger execution ran on a worker and succeeded', () => {
		equal(triggerRows.filter((r) => r.status !== 'success').length, 0, 'trigger executions not successful');
		equal(Object.values(triggerPerWorker).reduce((a, b) => a + b, 0), triggerRows.length, 'trigger executions found in the worker logs');
	});

	}

	say('\n[4] a worker dies mid-batch');
	const prompts = (prefix, indexes = [...Array(KILL_ITEMS).keys()]) => indexes.map((i) => ({ prompt: `${prefix}item${String(i).padStart(2, '0')}` }));

	// (a) A plain batch: Webhook → Split Out → Generate, 12 items in one node run.
	const plain = await killRun({ title: 'plain batch: Webhook → Split Out → Generate (12 items in one node run)', prefix: 'queue-plain ', webhook: 'pw-queue-kill-plain', workflowId: IDS.plain, before: 4 });
	if (plain) {
		const before = Object.fromEntries(charges(plain.prefix));
		const retry = await rest.retry(plain.id);
		await sleep(2000);
		const retryCharges = chargeCount(plain.prefix) - plain.chargedBeforeKill;
		const retryItems = charges(plain.prefix).filter(([k, c]) => c !== before[k]);
		if (retry.id) saveExecution(retry.id, 'plain-retry');
		// What is left without item records: run the whole batch again.
		const again = await postWebhook('pw-queue-kill-plain', { prompts: prompts(plain.prefix) });
		const rerunDone = await waitFor(() => chargeCount(plain.prefix) >= plain.chargedBeforeKill + retryCharges + KILL_ITEMS, 120_000);
		await sleep(1500);
		const rerunCharges = chargeCount(plain.prefix) - plain.chargedBeforeKill - retryCharges;
		const twice = charges(plain.prefix).filter(([, c]) => c > 1).length;
		say(
			`    figures: charged before the kill ${plain.chargedBeforeKill}; n8n status "${plain.status}"${plain.sawCrashed ? ' (shown "crashed" first)' : ''}: ${plain.errorMessage}; ` +
				`n8n's retry (execution ${retry.id ?? '-'}, ${retry.status ?? retry.error}) charged ${retryCharges}; running the whole batch again charged ${rerunCharges}, ${twice} items twice`,
		);
		check(`plain: the kill stopped the charges at ${plain.chargedBeforeKill}; nothing charged twice inside the killed execution`, () => {
			equal(plain.chargedAfterKill, plain.chargedBeforeKill, 'charged after the kill');
			equal(plain.doubleInside, [], 'items charged twice by the killed execution');
		});
		check('plain: n8n marks the execution "error" ("failed to be processed too many times") and drops its run data', () => {
			equal(plain.status, 'error', 'status');
			expect(/processed too many times/.test(plain.errorMessage), `error: ${plain.errorMessage}`);
			equal(plain.runNodes, [], 'nodes with run data left in the execution');
		});
		check(`plain: n8n's own retry of it runs no node and charges nothing, so the ${KILL_ITEMS - plain.chargedBeforeKill} items not done stay undone`, () => {
			expect(retry.ok, retry.error);
			equal(retryCharges, 0, 'charges of the retry');
			equal(retryItems, [], 'items charged by the retry');
		});
		check(`plain: running the whole batch again charges all ${KILL_ITEMS}: the ${plain.chargedBeforeKill} done before the kill a second time (the known limit)`, () => {
			equal(again, 200, 'webhook status');
			expect(rerunDone, `charges ${chargeCount(plain.prefix)}`);
			equal(rerunCharges, KILL_ITEMS, 'charges of the rerun');
			equal(twice, plain.chargedBeforeKill, 'items charged twice');
		});
	}

	// (b) The recovery procedure: one sub-execution per item (Loop Over Items → Execute Sub-workflow → Generate).
	const perItem = await killRun({
		title: 'one sub-execution per item: Loop Over Items (1) → Execute Sub-workflow → Generate',
		prefix: 'queue-per-item ',
		webhook: 'pw-queue-kill-per-item',
		workflowId: IDS.perItem,
		before: 5,
	});
	if (perItem) {
		// The items done, from n8n's records: the successful sub-executions whose parent is the dead execution, with their input.
		await waitFor(() => executions(IDS.generateOne).every((r) => !['new', 'running'].includes(r.status)), 90_000, 1000);
		const subs = executions(IDS.generateOne).map((r) => ({ ...r, data: executionData(r.id) }));
		const ofParent = subs.filter((r) => String(r.data?.parentExecution?.executionId) === perItem.id);
		const done = ofParent.filter((r) => r.status === 'success').map((r) => r.data.resultData.runData['When Called'][0].data.main[0][0].json.prompt);
		const notSuccess = ofParent.filter((r) => r.status !== 'success').map((r) => `${r.id}:${r.status}`);
		const all = prompts(perItem.prefix).map((p) => p.prompt);
		const missing = all.filter((p) => !done.includes(p));
		const chargedBefore = chargeCount(perItem.prefix);
		const resend = await postWebhook('pw-queue-kill-per-item', { prompts: missing.map((prompt) => ({ prompt })) });
		const resent = await waitFor(() => {
			const last = executions(IDS.perItem).slice(-1)[0];
			return last && last.id !== perItem.id && last.status === 'success';
		}, 120_000);
		await sleep(1000);
		const resendCharges = chargeCount(perItem.prefix) - chargedBefore;
		const perPrompt = Object.fromEntries(charges(perItem.prefix).map(([k, c]) => [k.slice('generate:'.length), c]));
		say(
			`    figures: charged before the kill ${perItem.chargedBeforeKill}; n8n status "${perItem.status}"${perItem.sawCrashed ? ' (shown "crashed" first)' : ''}; ` +
				`${done.length} successful sub-executions (items done), sub-execution at the kill: ${notSuccess.join(', ') || 'none'}; re-sending the ${missing.length} items without one charged ${resendCharges}`,
		);
		check(`per item: the kill stopped the charges at ${perItem.chargedBeforeKill}; nothing charged twice inside the killed execution`, () => {
			equal(perItem.chargedAfterKill, perItem.chargedBeforeKill, 'charged after the kill');
			equal(perItem.doubleInside, [], 'items charged twice by the killed execution');
			equal(perItem.status, 'error', 'status of the dead execution');
		});
		check("per item: n8n's successful sub-executions name exactly the items the sandbox charged", () => {
			equal(done.length, perItem.chargedBeforeKill, 'successful sub-executions');
			equal([...done].sort(), Object.keys(perItem.chargesAtKill).sort(), 'items done (n8n) vs items charged at the kill (sandbox)');
		});
		check(`per item: re-sending only the ${KILL_ITEMS - perItem.chargedBeforeKill} items without a successful sub-execution charges exactly those; every item charged once in all`, () => {
			equal(resend, 200, 'webhook status');
			expect(resent, 'the re-sent batch did not succeed');
			equal(resendCharges, KILL_ITEMS - perItem.chargedBeforeKill, 'charges of the re-sent batch');
			equal(all.map((p) => perPrompt[p] ?? 0), Array(KILL_ITEMS).fill(1), 'charges per item');
		});
	}

	/**
	 * Starts a batch of KILL_ITEMS paid items through `webhook`; the quota lets
	 * `before` items through, then the window stays full for 20 s: the node's
	 * pacer waits (no call in flight, so the count is exact) and the worker
	 * running the execution is killed with SIGKILL by its PID. A new worker
	 * replaces it. Then waits until n8n has settled the execution: its Bull job
	 * stalls and fails (n8n runs queues with maxStalledCount 0), the main's
	 * queue recovery may mark it "crashed" first, and the main writes the
	 * failure over it. Every charge is counted per item in the sandbox.
	 */
	async function killRun({ title, prefix, webhook, workflowId, before }) {
		say(`  — ${title}`);
		sandbox.configure({ quota: { generate: { limit: before, windowMs: 20_000 } } });
		sandbox.resetRateLimits();
		const requests0 = generateRequests();
		const status0 = await postWebhook(webhook, { prompts: prompts(prefix) });
		// The quota lets `before` calls through; the node's pacer then waits for the window's end (X-RateLimit-Remaining 0, or a 429).
		const reached = await waitFor(() => chargeCount(prefix) >= before, 90_000, 50);
		await sleep(1500);
		const [row] = executions(workflowId).slice(-1);
		const worker = row && allWorkers().find((w) => w.alive() && startedBy(w).has(row.id));
		check(`${prefix.trim()}: the batch reached the quota on a worker, which waits (${before} items charged, none since)`, () => {
			equal(status0, 200, 'webhook status');
			expect(reached, `charges ${chargeCount(prefix)}, requests ${generateRequests() - requests0}`);
			equal(chargeCount(prefix), before, 'charges while the worker waits');
			expect(worker, `no live worker log shows execution ${row?.id}`);
		});
		if (!reached || !worker) return undefined;
		const chargedBeforeKill = chargeCount(prefix);
		const chargesAtKill = Object.fromEntries(charges(prefix).map(([k, c]) => [k.slice('generate:'.length), c]));
		process.kill(worker.pid, 'SIGKILL');
		const killedAt = Date.now();
		say(`    killed ${worker.label} (pid ${worker.pid}) running execution ${row.id}: ${chargedBeforeKill} of ${KILL_ITEMS} items charged`);
		await waitFor(() => !worker.alive(), 10_000, 100);
		rt.killGroup(worker.child, 'SIGKILL');
		const replacement = await startWorker(`worker-${3 + spare.length}`);
		spare.push(replacement);
		// A generous quota again: what runs next must not wait on it.
		sandbox.configure({ quota: { generate: { limit: 1000, windowMs: 1000 } } });
		sandbox.resetRateLimits();
		let sawCrashed = false;
		const settled = await waitFor(
			() => {
				const status = executions(workflowId).find((r) => r.id === row.id)?.status;
				if (status === 'crashed') sawCrashed = true;
				// The main logs the problem just before it writes "error" over "crashed": "crashed" is not settled yet.
				return new RegExp(`Problem with execution ${row.id}:`).test(mainProc.log()) && !['new', 'running', 'crashed'].includes(status);
			},
			180_000,
			500,
		);
		const chargedAfterKill = chargeCount(prefix);
		const doubleInside = charges(prefix)
			.filter(([, c]) => c > 1)
			.map(([k]) => k);
		const status = executions(workflowId).find((r) => r.id === row.id)?.status;
		const data = executionData(row.id);
		saveExecution(row.id, `${prefix.trim()}-killed`);
		await waitFor(() => /n8n worker is now ready/.test(replacement.log()), 120_000);
		say(`    n8n settled execution ${row.id} as "${status}" ${Math.round((Date.now() - killedAt) / 1000)} s after the kill${settled ? '' : ' (not settled after 180 s)'}; ${replacement.label} (pid ${replacement.pid}) replaces ${worker.label}`);
		return {
			id: row.id,
			prefix,
			chargedBeforeKill,
			chargesAtKill,
			chargedAfterKill,
			doubleInside,
			status,
			sawCrashed,
			errorMessage: data?.resultData?.error?.message ?? '',
			runNodes: Object.keys(data?.resultData?.runData ?? {}),
		};
	}
}

/**
 * n8n's internal REST API as the owner (set up on first use): what the editor
 * calls. Only the retry of an execution is used.
 */
async function restClient(baseUrl) {
	const headers = { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID };
	let cookie = '';
	try {
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, { method: 'POST', headers, body: JSON.stringify(OWNER) });
		if (!setup.ok) return { ok: false, error: `owner setup: ${setup.status} ${await setup.text()}` };
		cookie = setup.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ');
	} catch (e) {
		return { ok: false, error: `owner setup: ${e.message}` };
	}
	return {
		ok: cookie.includes('n8n-auth='),
		error: 'no auth cookie after the owner setup',
		/** POST /rest/executions/:id/retry with the workflow as it was (what the editor's "Retry with original workflow" does); waits for the end. */
		async retry(executionId) {
			try {
				const r = await fetch(`${baseUrl}/rest/executions/${executionId}/retry`, {
					method: 'POST',
					headers: { ...headers, cookie },
					body: JSON.stringify({ loadWorkflow: false }),
					signal: AbortSignal.timeout(180_000),
				});
				const text = await r.text();
				if (!r.ok) return { ok: false, error: `retry answered ${r.status}: ${text.slice(0, 300)}` };
				const body = JSON.parse(text);
				const data = body.data ?? body;
				return { ok: true, id: data.id, status: data.status };
			} catch (e) {
				return { ok: false, error: `retry: ${e.message}` };
			}
		},
	};
}

/** The logs and a plain-SQL dump of n8n's database, for CI's secret scan. */
function copyForSecretScan(pg) {
	const dir = process.env.SECRET_SCAN_DIR;
	if (!dir) return;
	const dest = path.join(dir, 'e2e-queue');
	fs.mkdirSync(dest, { recursive: true });
	pg.saveLog();
	fs.cpSync(LOGS, path.join(dest, 'logs'), { recursive: true });
	pg.dump(path.join(dest, 'n8n-database.sql'));
	say(`  logs and pg_dump copied to ${dest} for the secret scan`);
}

async function finish(code) {
	if (finishing) return;
	finishing = true;
	// Newest first; a process started meanwhile is stopped too.
	while (cleanups.processes.length > 0) {
		try {
			await cleanups.processes.pop()();
		} catch {
			// best effort
		}
	}
	try {
		cleanups.secretScan?.();
	} catch (error) {
		say(`  secret-scan copy failed: ${error.message}`);
		results.push({ name: 'secret-scan copy', ok: false });
	}
	for (const stop of cleanups.services) {
		try {
			await stop();
		} catch {
			// best effort
		}
	}
	const { passed, failed } = counts(code);
	for (const dir of ['custom', 'pack', 'workflows']) fs.rmSync(path.join(WORK, dir), { recursive: true, force: true });
	for (const entry of fs.readdirSync(WORK)) if (entry.startsWith('user-')) fs.rmSync(path.join(WORK, entry), { recursive: true, force: true });
	say(`\nlogs: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s)`);
	say(`queue: ${passed} passed, ${failed} failed`);
	process.exit(failed > 0 ? 1 : 0);
}

process.on('SIGINT', () => finish(130));
process.on('SIGTERM', () => finish(143));
main().then(
	() => finish(0),
	(error) => {
		say(`\nqueue e2e aborted: ${(error && error.stack) || error}`);
		finish(1);
	},
);
