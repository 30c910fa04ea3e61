/**
 * Queue-mode end to end in the newest n8n (2.41.0 on Node 24, from the cache):
 *   1. Debian's postgresql and redis-server (apt-get when missing), started on
 *      127.0.0.1 and free ports: a private throwaway PostgreSQL cluster
 *      (initdb + pg_ctl as the postgres user, fsync off) and a Redis without
 *      persistence (scripts/lib/queue-services.ts);
 *   2. the packed node in a custom extensions folder; credentials and the
 *      workflows of test/n8n/queue/ imported and published; one `n8n start`
 *      with EXECUTIONS_MODE=queue and two `n8n worker`, one sandbox whose
 *      /generate quota is low enough to be hit;
 *   3. rate limit held across workers: 12 executions of a 10-item Generate
 *      batch (default node settings: Concurrency Auto) started at once through
 *      a webhook against 10 calls per 1 s; every item charged exactly once,
 *      credits spent = items, both workers took executions (their logs); the
 *      share of /generate requests answered 429 is printed ("/generate: … answered
 *      429 (x %)") and checked (≤ 25 %), and the run lasts at least the quota-bound time;
 *   4. triggers fire once: New Published Post and Upcoming Scheduled Draft,
 *      posts published and drafts (re)scheduled over two poll intervals, then
 *      a quiet poll: each event recorded exactly once;
 *   5. a worker killed (SIGKILL, by its PID) mid-batch, twice, while the node
 *      waits on the quota (no call in flight): a plain batch (what n8n marks
 *      the execution, what its retry charges, what a rerun charges) and the
 *      recovery procedure: one sub-execution per item, then only the items
 *      without a successful sub-execution sent again.
 * Each step runs once, when the first test that needs it runs, so
 * `npm run test:queue -- -t kill` (development) runs part 5 alone: parts 3 and 4
 * never start. Everything is stopped and deleted in afterAll, also on a failure,
 * SIGINT and SIGTERM; the logs stay in the printed folder. With SECRET_SCAN_DIR
 * set, the logs and a plain-SQL pg_dump of n8n's database are copied to
 * $SECRET_SCAN_DIR/e2e-queue/ first. E2E_N8N_LOG_LEVEL sets n8n's log level (info).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { ensureDebianPackages } from '../../../scripts/lib/debian';
import * as rt from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall, N8nRun, N8nWorkflow } from '../../../scripts/lib/n8n-runtime';
import { startPostgres, startRedis, type PostgresServer } from '../../../scripts/lib/queue-services';
import { childEnv, expectEqual, onInterrupt, sayer, sleep, step, waitFor } from './steps';
import { postWebhook } from '../n8n/support';

const VERSION = rt.runtime('newest').version;
const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-e2e-queue-'));
const LOGS = path.join(WORK, 'logs');
fs.mkdirSync(LOGS, { recursive: true });
/** What the run printed, also kept with the logs (and so copied for the secret scan). */
const say = sayer((line) => fs.appendFileSync(path.join(LOGS, 'queue-e2e.log'), `${line}\n`));

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
/** The first window is free: the last of N calls can start only at (⌈N/Q⌉ − 1) × W. */
const QUOTA_BOUND_MS = (Math.ceil((BATCH_EXECUTIONS * BATCH_ITEMS) / BATCH_QUOTA.limit) - 1) * BATCH_QUOTA.windowMs;
/** Items of each killed batch, and how many the quota lets through before the kill. */
const KILL_ITEMS = 12;
const PLAIN_BEFORE_KILL = 4;
const PER_ITEM_BEFORE_KILL = 5;
const WORKER_CONCURRENCY = 5;
/** How long the main and both workers may take to be ready: each waits for the database migration lock, and on a loaded CI machine (the suites run side by side on 2 cores) the imports alone took 3 minutes. */
const CLUSTER_START_MS = 300_000;
const QUEUE_WORKFLOWS = ['batch', 'kill-plain', 'kill-per-item', 'generate-one', 'trigger-published', 'trigger-upcoming'];
const IDS = {
	batch: 'pwQueueBatch0001',
	plain: 'pwQueueKillPlain',
	perItem: 'pwQueueKillItems',
	generateOne: 'pwQueueGenOne001',
	published: 'pwQueueTrigPost1',
	upcoming: 'pwQueueTrigUpc01',
};
/** Posts published and (draft, time) pairs scheduled over the two trigger rounds. */
const TRIGGER_POSTS = 3;
const TRIGGER_PAIRS = 4;
const OWNER = { email: 'queue-e2e@example.com', firstName: 'Queue', lastName: 'E2E', password: `Qe2e-${crypto.randomBytes(6).toString('hex')}-A1` };
const BROWSER_ID = 'post-writer-queue-e2e';
const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** Set once the cleanup runs: no n8n process starts after that. */
let finishing = false;
/** Cleanups in the order they run: n8n processes first, then the sandbox and the servers. */
const cleanups: { processes: (() => Promise<void>)[]; secretScan?: () => void; services: (() => void | Promise<void>)[] } = { processes: [], services: [] };

function readJson<T>(file: string): T {
	return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

interface N8nProcess {
	label: string;
	child: ChildProcess;
	pid: number;
	logFile: string;
	log(): string;
	alive(): boolean;
	stop(): Promise<void>;
}

/** An n8n process (main or worker) with its log file; `stop` ends its process group. */
function startN8nProcess(n8n: N8nInstall, label: string, args: string[], env: NodeJS.ProcessEnv): N8nProcess {
	if (finishing) throw new Error(`not starting ${label}: the run is stopping`);
	const logFile = path.join(LOGS, `${label}.log`);
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, args, { env, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	const proc: N8nProcess = {
		label,
		child,
		pid: child.pid ?? -1,
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

/** A log's last non-empty line, to say why a process stopped. */
function lastLine(log: string): string {
	return log.trim().split('\n').pop()?.trim() || 'no output';
}

/** Execution ids a worker's log says it started ("Worker started execution <id> (job <n>)"). */
function startedBy(worker: N8nProcess): Set<string> {
	return new Set([...worker.log().matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]));
}

// ---------------------------------------------------------------------------
// [1] and [2]: the servers, n8n's database, the main and the workers
// ---------------------------------------------------------------------------

const services = step(async () => {
	say(`n8n ${VERSION} queue mode end to end (work folder ${WORK})`);
	say('\n[1] PostgreSQL and Redis');
	ensureDebianPackages(['postgresql', 'redis-server'], { log: say });
	const pg = startPostgres({ port: await rt.freePort(), user: 'n8n', password: crypto.randomBytes(12).toString('hex'), database: 'n8n', logDir: LOGS });
	cleanups.services.push(() => pg.stop());
	say(`  PostgreSQL (${path.basename(path.dirname(pg.bin))}) on 127.0.0.1:${pg.port}, data in ${pg.dataDir}`);
	const redis = await startRedis({ port: await rt.freePort(), logDir: LOGS });
	cleanups.services.push(() => redis.stop());
	say(`  Redis on 127.0.0.1:${redis.port}`);
	cleanups.secretScan = () => copyForSecretScan(pg);
	return { pg, redis };
});

/** /generate answers the sandbox logged, with their time. */
const generateAnswers: { at: number; status: string }[] = [];
const sandboxLog = path.join(LOGS, 'sandbox.log');

const runtime = step(async () => {
	const { pg, redis } = await services();
	say('\n[2] n8n main and two workers');
	const n8n = await rt.ensureN8n('newest');
	const packed = rt.buildAndPack(path.join(WORK, 'pack'));
	const pkg = readJson<{ name: string }>(path.join(rt.PACKAGE_DIR, 'package.json'));
	rt.unpack(packed.tarball, path.join(WORK, 'custom', packed.name));
	// The sandbox's answer lines (method, path, status: no key) go to sandbox.log; /generate answers are kept with their time.
	const sandboxLine = (line: string) => {
		fs.appendFileSync(sandboxLog, `${new Date().toISOString()} ${line}\n`);
		const m = /^POST \S*\/generate -> (\S+)/.exec(line);
		if (m) generateAnswers.push({ at: Date.now(), status: m[1] });
	};
	const sandbox = await startSandbox({ port: 0, keySeed: 'e2e-queue', clockTicks: true, credits: 5000, rateLimitReset: true, quota: { generate: BATCH_QUOTA }, log: sandboxLine });
	cleanups.services.unshift(() => sandbox.close());
	say(`  n8n ${n8n.version}, sandbox at ${sandbox.baseUrl}, /generate quota ${BATCH_QUOTA.limit} per ${BATCH_QUOTA.windowMs} ms`);

	const shared = {
		N8N_CUSTOM_EXTENSIONS: path.join(WORK, 'custom'),
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
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
	const envFor = async (name: string, extra: Record<string, string> = {}) =>
		childEnv(rt.n8nEnv(path.join(WORK, `user-${name}`), { ...shared, N8N_RUNNERS_BROKER_PORT: String(await rt.freePort()), ...extra }, n8n));
	return { pg, n8n, pkg, sandbox, envFor };
});

const imported = step(async () => {
	const { n8n, pkg, sandbox, envFor } = await runtime();
	const cliEnv = await envFor('cli');
	const run = (args: string[], label: string, timeoutMs: number): Promise<N8nRun> => rt.runN8n(n8n.bin, args, { env: cliEnv, outDir: LOGS, label, timeoutMs });
	const credentialsFile = path.join(WORK, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify([{ id: 'pwSandboxCred001', name: 'Post Writer sandbox', type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } }]));
	const credentials = await run(['import:credentials', `--input=${credentialsFile}`], 'import-credentials', 240_000);
	fs.rmSync(credentialsFile, { force: true });
	const workflowsDir = path.join(WORK, 'workflows');
	fs.mkdirSync(workflowsDir, { recursive: true });
	for (const name of QUEUE_WORKFLOWS) {
		const wf = rt.adaptWorkflow(readJson<N8nWorkflow>(path.join(rt.ROOT, 'test', 'n8n', 'queue', `${name}.workflow.json`)), { packageName: pkg.name, typePrefix: 'CUSTOM' });
		fs.writeFileSync(path.join(workflowsDir, `${name}.json`), JSON.stringify(wf));
	}
	const workflows = await run(['import:workflow', '--separate', `--input=${workflowsDir}`], 'import-workflows', 120_000);
	const published: string[] = [];
	for (const id of Object.values(IDS)) {
		const r = await run(['publish:workflow', `--id=${id}`], `publish-${id}`, 120_000);
		if (r.code === 0) published.push(id);
	}
	return { credentials, workflows, published };
});

const cluster = step(async () => {
	const { n8n, envFor } = await runtime();
	// As before: the processes start whatever the imports did; the tests of the imports say what went wrong.
	await imported();
	const mainPort = await rt.freePort();
	const mainUrl = `http://127.0.0.1:${mainPort}`;
	const main = startN8nProcess(n8n, 'main', ['start'], await envFor('main', { N8N_PORT: String(mainPort), N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.5', OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' }));
	const startWorker = async (name: string) =>
		startN8nProcess(n8n, name, ['worker', `--concurrency=${WORKER_CONCURRENCY}`], await envFor(name, { N8N_PORT: String(await rt.freePort()), QUEUE_HEALTH_CHECK_PORT: String(await rt.freePort()) }));
	const workers = [await startWorker('worker-1'), await startWorker('worker-2')];
	// One wait for the three, which ends as soon as one of them has exited (a worker that cannot bind a port stops at once).
	const all = [main, ...workers];
	const isMainReady = async () => {
		if (!/Editor is now accessible/.test(main.log())) return false;
		try {
			return (await fetch(`${mainUrl}/healthz`)).ok;
		} catch {
			return false;
		}
	};
	const isWorkerReady = (w: N8nProcess) => /n8n worker is now ready/.test(w.log());
	await waitFor(async () => all.some((p) => !p.alive()) || (workers.every(isWorkerReady) && (await isMainReady())), CLUSTER_START_MS);
	const mainReady = main.alive() && (await isMainReady());
	const workersReady = workers.every((w) => w.alive() && isWorkerReady(w));
	const exited = all.filter((p) => !p.alive()).map((p) => `${p.label} exited (${lastLine(p.log())})`);
	return { main, mainPort, mainUrl, workers, startWorker, mainReady, workersReady, exited };
});

/** The cluster up, the owner set up, and what the later steps read from n8n, PostgreSQL and the sandbox. */
const ready = step(async () => {
	const { pg, sandbox } = await runtime();
	const c = await cluster();
	if (!c.mainReady || !c.workersReady) throw new Error(`the n8n main or its workers did not start${c.exited.length ? `: ${c.exited.join('; ')}` : ''}; see ${c.main.logFile} and ${c.workers.map((w) => w.logFile).join(', ')}`);
	say(`  main pid ${c.main.pid} on port ${c.mainPort}; workers pid ${c.workers.map((w) => w.pid).join(' and ')}`);
	const rest = await restClient(c.mainUrl);
	const spare: N8nProcess[] = [];
	const allWorkers = () => [...c.workers, ...spare];
	const { n8n } = await runtime();
	const flatted = createRequire(path.join(n8n.dir, 'package.json'))('flatted') as { parse(text: string): unknown };
	return {
		...c,
		pg,
		sandbox,
		rest,
		spare,
		allWorkers,
		account: () => sandbox.state.account('acc_1'),
		charges: (prefix: string) => Object.entries(sandbox.stats.chargesByInput).filter(([k]) => k.startsWith(`generate:${prefix}`)),
		chargeCount: (prefix: string) =>
			Object.entries(sandbox.stats.chargesByInput)
				.filter(([k]) => k.startsWith(`generate:${prefix}`))
				.reduce((n, [, count]) => n + count, 0),
		generateRequests: () => sandbox.stats.byRoute['POST /generate'] ?? 0,
		executions: (workflowId: string) =>
			pg
				.query(`SELECT id, status, mode, COALESCE("retryOf", '') FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`)
				.map(([id, status, mode, retryOf]) => ({ id, status, mode, retryOf })),
		/** Executions of `ids` each worker's log says it started. */
		ranBy: (ids: string[]) => {
			const counts: Record<string, number> = {};
			for (const w of allWorkers()) counts[w.label] = [...startedBy(w)].filter((id) => ids.includes(id)).length;
			return counts;
		},
		/** An execution's run data as n8n stores it (flatted), parsed; undefined when it has none. */
		executionData: (id: string): ExecutionData | undefined => {
			const [[text] = []] = pg.query(`SELECT data FROM execution_data WHERE "executionId" = ${Number(id)}`);
			return text ? (flatted.parse(text) as ExecutionData) : undefined;
		},
		/** An execution's record and data (n8n's flatted form) into the logs, to read what n8n kept. */
		saveExecution: (id: string, label: string) => {
			const [[status, data] = []] = pg.query(`SELECT e.status, d.data FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e.id = ${Number(id)}`);
			fs.writeFileSync(path.join(LOGS, `execution-${id}-${label}.txt`), `status: ${status}\n${data}\n`);
		},
		/** POSTs to a production webhook of the main; retries while n8n has not registered it yet (404, nothing started). */
		postWebhook: (webhookPath: string, body: unknown): Promise<number | string> => postWebhook(c.mainUrl, webhookPath, body),
	};
});

/** What this suite reads of an execution's run data. */
interface ExecutionData {
	parentExecution?: { executionId?: string | number };
	resultData?: {
		error?: { message?: string };
		runData?: Record<string, { data: { main: { json: { prompt: string } }[][] } }[]>;
	};
}

// ---------------------------------------------------------------------------
// [3] triggers fire once, and the rate limit holds across workers
// ---------------------------------------------------------------------------

const polls = (sandbox: Sandbox) => ({ posts: sandbox.stats.byRoute['GET /posts'] ?? 0, calendar: sandbox.stats.byRoute['GET /calendar'] ?? 0 });

const activation = step(async () => {
	const q = await ready();
	say('\n[3] triggers fire once, and the rate limit holds across workers');
	const activated = await waitFor(() => polls(q.sandbox).posts >= 1 && polls(q.sandbox).calendar >= 1, 120_000);
	return { activated, polls: polls(q.sandbox), mainLog: q.main.logFile };
});

/** Round 1 of the triggers: two posts published, two drafts scheduled within the 2-hour notice. */
const round1 = step(async () => {
	const q = await ready();
	await activation();
	const expectedSeen: string[] = [];
	const expectedUpcoming: string[] = [];
	const minute = (m: number) => new Date(Math.ceil(Date.now() / 60_000) * 60_000 + m * 60_000).toISOString();
	const schedule = (text: string, at: string) => {
		const d = q.sandbox.state.createDraft('acc_1', text, at);
		expectedUpcoming.push(`Upcoming ${d.id} at ${at}`);
		return d;
	};
	const publish = () => {
		const post = rt.publishNow(q.sandbox, 'A post published while the queue e2e runs.');
		expectedSeen.push(`Seen ${post.id}`);
	};
	publish();
	publish();
	const draftA = schedule('Queue e2e: draft A', minute(30));
	schedule('Queue e2e: draft B', minute(45));
	say('  round 1: published 2 posts, scheduled 2 drafts; the next polls come within a minute');
	return { polls: polls(q.sandbox), draftA, expectedSeen, expectedUpcoming, minute, schedule, publish };
});

/** Meanwhile: the batch of executions through the webhook. */
const batch = step(async () => {
	const q = await ready();
	await round1();
	q.sandbox.configure({ quota: { generate: BATCH_QUOTA } });
	q.sandbox.resetRateLimits();
	const creditsBefore = q.account().credits;
	const requestsBefore = q.generateRequests();
	const answersBefore = generateAnswers.length;
	const started = Date.now();
	const statuses = await Promise.all(
		Array.from({ length: BATCH_EXECUTIONS }, (_, e) =>
			q.postWebhook('pw-queue-batch', { prompts: Array.from({ length: BATCH_ITEMS }, (_, i) => ({ prompt: `queue-batch e${e} item${i}` })) }),
		),
	);
	const done = await waitFor(
		() => {
			const rows = q.executions(IDS.batch);
			return rows.length >= BATCH_EXECUTIONS && rows.every((r) => FINISHED.includes(r.status));
		},
		240_000,
		1000,
	);
	const rows = q.executions(IDS.batch);
	const charges = q.charges('queue-batch ');
	const requests = q.generateRequests() - requestsBefore;
	const answers = generateAnswers.slice(answersBefore);
	const refused = answers.filter((a) => a.status === '429').length;
	const admitted = answers.filter((a) => a.status === '200');
	const otherAnswers = answers.filter((a) => a.status !== '200' && a.status !== '429').map((a) => a.status);
	const refusedShare = requests > 0 ? refused / requests : 0;
	// Answer times (the sandbox logs on writing): the span between charged calls is printed; the check uses the run's
	// duration up to the last charged answer, from before the first webhook call, which no clock jitter can shorten.
	const spanMs = admitted.length > 0 ? admitted[admitted.length - 1].at - admitted[0].at : 0;
	const untilLastChargeMs = admitted.length > 0 ? admitted[admitted.length - 1].at - started : 0;
	const perWorker = q.ranBy(rows.map((r) => r.id));
	say(`  batch: ${rows.length} executions in ${Math.round((Date.now() - started) / 1000)} s, ${q.chargeCount('queue-batch ')} charges, executions per worker ${JSON.stringify(perWorker)}`);
	say(
		`  /generate: ${requests} requests, ${refused} answered 429 (${(refusedShare * 100).toFixed(1)} %)${otherAnswers.length ? `, other answers ${JSON.stringify(otherAnswers)}` : ''}; ` +
			`first to last charged call ${(spanMs / 1000).toFixed(1)} s, start to last charged call ${(untilLastChargeMs / 1000).toFixed(1)} s (quota-bound ${(QUOTA_BOUND_MS / 1000).toFixed(0)} s); sandbox log ${sandboxLog}`,
	);
	return {
		statuses,
		done,
		rows,
		charges,
		requests,
		answers: answers.length,
		refused,
		refusedShare,
		otherAnswers,
		untilLastChargeMs,
		creditsSpent: creditsBefore - q.account().credits,
		perWorker,
		workerLabels: q.workers.map((w) => w.label),
	};
});

/** Round 1 fired, round 2 (one more post, draft A rescheduled, draft C scheduled) fired, then a quiet poll of each. */
const rounds = step(async () => {
	const q = await ready();
	const r1 = await round1();
	const seen = () =>
		q
			.account()
			.drafts.filter((d) => d.text.startsWith('Seen '))
			.map((d) => d.text);
	const upcoming = () =>
		q
			.account()
			.drafts.filter((d) => d.text.startsWith('Upcoming '))
			.map((d) => d.text);
	const now = () => polls(q.sandbox);
	const fired1 = await waitFor(() => seen().length >= 2 && upcoming().length >= 2 && now().posts > r1.polls.posts && now().calendar > r1.polls.calendar, 150_000);
	const afterRound1 = { seen: seen(), upcoming: upcoming() };
	r1.publish();
	const draftA = r1.draftA;
	const at = r1.minute(50);
	draftA.scheduledAt = at;
	draftA.updatedAt = new Date(q.sandbox.clock.now()).toISOString();
	r1.expectedUpcoming.push(`Upcoming ${draftA.id} at ${at}`);
	r1.schedule('Queue e2e: draft C', r1.minute(60));
	const round2 = now();
	say('  round 2: published 1 post, rescheduled draft A, scheduled draft C');
	const fired2 = await waitFor(() => seen().length >= 3 && upcoming().length >= 4 && now().posts > round2.posts && now().calendar > round2.calendar, 150_000);
	// A quiet round: one more poll of each fires nothing.
	const round3 = now();
	const quiet = fired2 && (await waitFor(() => now().posts > round3.posts && now().calendar > round3.calendar, 90_000));
	await sleep(5000);
	const triggerRows = [...q.executions(IDS.published), ...q.executions(IDS.upcoming)];
	const perWorker = q.ranBy(triggerRows.map((r) => r.id));
	say(`  trigger executions: ${triggerRows.length} (${triggerRows.map((r) => r.status).join(', ')}), per worker ${JSON.stringify(perWorker)}`);
	return {
		fired1,
		afterRound1,
		fired2,
		quiet,
		polls: now(),
		seen: seen(),
		upcoming: upcoming(),
		expectedSeen: r1.expectedSeen,
		expectedUpcoming: r1.expectedUpcoming,
		triggerRows,
		perWorker,
	};
});

// ---------------------------------------------------------------------------
// [4] a worker dies mid-batch
// ---------------------------------------------------------------------------

const prompts = (prefix: string, indexes: number[] = [...Array(KILL_ITEMS).keys()]) => indexes.map((i) => ({ prompt: `${prefix}item${String(i).padStart(2, '0')}` }));

const killPart = step(async () => {
	const q = await ready();
	say('\n[4] a worker dies mid-batch');
	return q;
});

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
async function killRun({ title, prefix, webhook, workflowId, before }: { title: string; prefix: string; webhook: string; workflowId: string; before: number }) {
	const q = await killPart();
	say(`  — ${title}`);
	q.sandbox.configure({ quota: { generate: { limit: before, windowMs: 20_000 } } });
	q.sandbox.resetRateLimits();
	const requests0 = q.generateRequests();
	const status = await q.postWebhook(webhook, { prompts: prompts(prefix) });
	// The quota lets `before` calls through; the node's pacer then waits for the window's end (X-RateLimit-Remaining 0, or a 429).
	const reached = await waitFor(() => q.chargeCount(prefix) >= before, 90_000, 50);
	await sleep(1500);
	const [row] = q.executions(workflowId).slice(-1);
	const worker = row && q.allWorkers().find((w) => w.alive() && startedBy(w).has(row.id));
	const start = { status, reached, charges: q.chargeCount(prefix), requests: q.generateRequests() - requests0, execution: row?.id, worker: worker?.label };
	if (!reached || !worker) return { start, killed: undefined };
	const chargedBeforeKill = q.chargeCount(prefix);
	const chargesAtKill = Object.fromEntries(q.charges(prefix).map(([k, c]) => [k.slice('generate:'.length), c]));
	process.kill(worker.pid, 'SIGKILL');
	const killedAt = Date.now();
	say(`    killed ${worker.label} (pid ${worker.pid}) running execution ${row.id}: ${chargedBeforeKill} of ${KILL_ITEMS} items charged`);
	await waitFor(() => !worker.alive(), 10_000, 100);
	rt.killGroup(worker.child, 'SIGKILL');
	const replacement = await q.startWorker(`worker-${3 + q.spare.length}`);
	q.spare.push(replacement);
	// A generous quota again: what runs next must not wait on it.
	q.sandbox.configure({ quota: { generate: { limit: 1000, windowMs: 1000 } } });
	q.sandbox.resetRateLimits();
	let sawCrashed = false;
	const settled = await waitFor(
		() => {
			const s = q.executions(workflowId).find((r) => r.id === row.id)?.status;
			if (s === 'crashed') sawCrashed = true;
			// The main logs the problem just before it writes "error" over "crashed": "crashed" is not settled yet.
			return new RegExp(`Problem with execution ${row.id}:`).test(q.main.log()) && !['new', 'running', 'crashed'].includes(s ?? 'new');
		},
		180_000,
		500,
	);
	const chargedAfterKill = q.chargeCount(prefix);
	const doubleInside = q
		.charges(prefix)
		.filter(([, c]) => c > 1)
		.map(([k]) => k);
	const finalStatus = q.executions(workflowId).find((r) => r.id === row.id)?.status;
	const data = q.executionData(row.id);
	q.saveExecution(row.id, `${prefix.trim()}-killed`);
	await waitFor(() => /n8n worker is now ready/.test(replacement.log()), 120_000);
	say(
		`    n8n settled execution ${row.id} as "${finalStatus}" ${Math.round((Date.now() - killedAt) / 1000)} s after the kill${settled ? '' : ' (not settled after 180 s)'}; ${replacement.label} (pid ${replacement.pid}) replaces ${worker.label}`,
	);
	return {
		start,
		killed: {
			id: row.id,
			prefix,
			chargedBeforeKill,
			chargesAtKill,
			chargedAfterKill,
			doubleInside,
			status: finalStatus,
			sawCrashed,
			errorMessage: data?.resultData?.error?.message ?? '',
			runNodes: Object.keys(data?.resultData?.runData ?? {}),
		},
	};
}

type KillRun = Awaited<ReturnType<typeof killRun>>;

/** The kill itself, for the tests that read what followed it: fails them when the batch never got to the kill. */
function killedOf(run: KillRun, prefix: string): NonNullable<KillRun['killed']> {
	if (!run.killed) throw new Error(`no worker was killed: the ${prefix.trim()} batch did not wait on the quota on a live worker (${JSON.stringify(run.start)})`);
	return run.killed;
}

const PLAIN = 'queue-plain ';
const PER_ITEM = 'queue-per-item ';

// (a) A plain batch: Webhook → Split Out → Generate, 12 items in one node run.
const plainKill = step(() =>
	killRun({ title: 'plain batch: Webhook → Split Out → Generate (12 items in one node run)', prefix: PLAIN, webhook: 'pw-queue-kill-plain', workflowId: IDS.plain, before: PLAIN_BEFORE_KILL }),
);

/** n8n's retry of the dead execution, then the whole batch run again. */
const plainAfter = step(async () => {
	const q = await killPart();
	const plain = killedOf(await plainKill(), PLAIN);
	const before = Object.fromEntries(q.charges(PLAIN));
	const retry = await q.rest.retry(plain.id);
	await sleep(2000);
	const retryCharges = q.chargeCount(PLAIN) - plain.chargedBeforeKill;
	const retryItems = q.charges(PLAIN).filter(([k, c]) => c !== before[k]);
	if (retry.id) q.saveExecution(retry.id, 'plain-retry');
	// What is left without item records: run the whole batch again.
	const again = await q.postWebhook('pw-queue-kill-plain', { prompts: prompts(PLAIN) });
	const rerunDone = await waitFor(() => q.chargeCount(PLAIN) >= plain.chargedBeforeKill + retryCharges + KILL_ITEMS, 120_000);
	await sleep(1500);
	const rerunCharges = q.chargeCount(PLAIN) - plain.chargedBeforeKill - retryCharges;
	const twice = q.charges(PLAIN).filter(([, c]) => c > 1).length;
	say(
		`    figures: charged before the kill ${plain.chargedBeforeKill}; n8n status "${plain.status}"${plain.sawCrashed ? ' (shown "crashed" first)' : ''}: ${plain.errorMessage}; ` +
			`n8n's retry (execution ${retry.id ?? '-'}, ${retry.status ?? retry.error}) charged ${retryCharges}; running the whole batch again charged ${rerunCharges}, ${twice} items twice`,
	);
	return { plain, retry, retryCharges, retryItems, again, rerunDone, rerunCharges, twice, charges: q.chargeCount(PLAIN) };
});

// (b) The recovery procedure: one sub-execution per item (Loop Over Items → Execute Sub-workflow → Generate).
const perItemKill = step(() =>
	killRun({
		title: 'one sub-execution per item: Loop Over Items (1) → Execute Sub-workflow → Generate',
		prefix: PER_ITEM,
		webhook: 'pw-queue-kill-per-item',
		workflowId: IDS.perItem,
		before: PER_ITEM_BEFORE_KILL,
	}),
);

/** The items done, from n8n's records (the successful sub-executions of the dead execution); only the others sent again. */
const perItemAfter = step(async () => {
	const q = await killPart();
	const perItem = killedOf(await perItemKill(), PER_ITEM);
	await waitFor(() => q.executions(IDS.generateOne).every((r) => !['new', 'running'].includes(r.status)), 90_000, 1000);
	const subs = q.executions(IDS.generateOne).map((r) => ({ ...r, data: q.executionData(r.id) }));
	const ofParent = subs.filter((r) => String(r.data?.parentExecution?.executionId) === perItem.id);
	const done = ofParent.filter((r) => r.status === 'success').map((r) => r.data?.resultData?.runData?.['When Called']?.[0]?.data.main[0][0].json.prompt ?? `?${r.id}`);
	const notSuccess = ofParent.filter((r) => r.status !== 'success').map((r) => `${r.id}:${r.status}`);
	const all = prompts(PER_ITEM).map((p) => p.prompt);
	const missing = all.filter((p) => !done.includes(p));
	const chargedBefore = q.chargeCount(PER_ITEM);
	const resend = await q.postWebhook('pw-queue-kill-per-item', { prompts: missing.map((prompt) => ({ prompt })) });
	const resent = await waitFor(() => {
		const last = q.executions(IDS.perItem).slice(-1)[0];
		return last !== undefined && last.id !== perItem.id && last.status === 'success';
	}, 120_000);
	await sleep(1000);
	const resendCharges = q.chargeCount(PER_ITEM) - chargedBefore;
	const perPrompt = Object.fromEntries(q.charges(PER_ITEM).map(([k, c]) => [k.slice('generate:'.length), c]));
	say(
		`    figures: charged before the kill ${perItem.chargedBeforeKill}; n8n status "${perItem.status}"${perItem.sawCrashed ? ' (shown "crashed" first)' : ''}; ` +
			`${done.length} successful sub-executions (items done), sub-execution at the kill: ${notSuccess.join(', ') || 'none'}; re-sending the ${missing.length} items without one charged ${resendCharges}`,
	);
	return { perItem, done, resend, resent, resendCharges, chargesPerItem: all.map((p) => perPrompt[p] ?? 0) };
});

interface RestClient {
	ok: boolean;
	error: string;
	/** POST /rest/executions/:id/retry with the workflow as it was (what the editor's "Retry with original workflow" does); waits for the end. */
	retry(executionId: string): Promise<{ ok: boolean; id?: string; status?: string; error?: string }>;
}

/**
 * n8n's internal REST API as the owner (set up on first use): what the editor
 * calls. Only the retry of an execution is used.
 */
async function restClient(baseUrl: string): Promise<RestClient> {
	const headers = { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID };
	const failed = (error: string): RestClient => ({ ok: false, error, retry: async () => ({ ok: false, error }) });
	let cookie = '';
	try {
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, { method: 'POST', headers, body: JSON.stringify(OWNER) });
		if (!setup.ok) return failed(`owner setup: ${setup.status} ${await setup.text()}`);
		cookie = setup.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ');
	} catch (e) {
		return failed(`owner setup: ${e instanceof Error ? e.message : String(e)}`);
	}
	return {
		ok: cookie.includes('n8n-auth='),
		error: 'no auth cookie after the owner setup',
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
				const body = JSON.parse(text) as { data?: { id?: string | number; status?: string }; id?: string | number; status?: string };
				const data = body.data ?? body;
				return { ok: true, id: data.id === undefined ? undefined : String(data.id), status: data.status };
			} catch (e) {
				return { ok: false, error: `retry: ${e instanceof Error ? e.message : String(e)}` };
			}
		},
	};
}

// ---------------------------------------------------------------------------
// The cleanup, and the copy for the secret scan
// ---------------------------------------------------------------------------

/** The logs and a plain-SQL dump of n8n's database, for CI's secret scan (scripts/secret-scan.js --require e2e-queue). */
function copyForSecretScan(pg: PostgresServer): void {
	const dir = process.env.SECRET_SCAN_DIR;
	if (!dir) return;
	const dest = path.join(dir, 'e2e-queue');
	fs.mkdirSync(dest, { recursive: true });
	pg.saveLog();
	fs.cpSync(LOGS, path.join(dest, 'logs'), { recursive: true });
	pg.dump(path.join(dest, 'n8n-database.sql'));
	say(`  logs and pg_dump copied to ${dest} for the secret scan`);
}

/** Stops everything (n8n processes first, newest first), copies for the secret scan, deletes what is not a log. */
async function finish(): Promise<void> {
	if (finishing) return;
	finishing = true;
	let copyError: unknown;
	// A process started meanwhile is stopped too.
	while (cleanups.processes.length > 0) {
		try {
			await cleanups.processes.pop()?.();
		} catch {
			// best effort
		}
	}
	try {
		cleanups.secretScan?.();
	} catch (error) {
		copyError = error;
		say(`  secret-scan copy failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	for (const stop of cleanups.services) {
		try {
			await stop();
		} catch {
			// best effort
		}
	}
	for (const dir of ['custom', 'pack', 'workflows']) fs.rmSync(path.join(WORK, dir), { recursive: true, force: true });
	for (const entry of fs.readdirSync(WORK)) if (entry.startsWith('user-')) fs.rmSync(path.join(WORK, entry), { recursive: true, force: true });
	say(`\nlogs: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s)`);
	// The copy is what the secret scan reads: without it, CI's scan fails later; fail here, where the reason is.
	if (copyError) throw copyError;
}

let removeInterruptHandlers: () => void = () => undefined;
beforeAll(() => {
	removeInterruptHandlers = onInterrupt(finish);
});
afterAll(async () => {
	removeInterruptHandlers();
	await finish();
});

// ---------------------------------------------------------------------------
// The tests: one per check of the former scripts/e2e-queue.js
// ---------------------------------------------------------------------------

describe(`n8n ${VERSION} queue mode (PostgreSQL, Redis, a main and two workers)`, () => {
	describe('setup', () => {
		test('n8n import:credentials into PostgreSQL (migrations run)', async () => {
			const { credentials } = await imported();
			expectEqual({ exit: credentials.code, imported: /imported 1 credential/i.test(credentials.stdout + credentials.stderr) }, { exit: 0, imported: true }, { see: credentials.outFile });
		});

		test(`n8n import:workflow (${QUEUE_WORKFLOWS.length} workflows of test/n8n/queue)`, async () => {
			const { workflows } = await imported();
			expectEqual(
				{ exit: workflows.code, imported: new RegExp(`imported ${QUEUE_WORKFLOWS.length} workflow`, 'i').test(workflows.stdout + workflows.stderr) },
				{ exit: 0, imported: true },
				{ see: workflows.outFile },
			);
		});

		test(`n8n publish:workflow activates the ${Object.keys(IDS).length} workflows`, async () => {
			const { published } = await imported();
			expectEqual({ published }, { published: Object.values(IDS) }, { logs: LOGS });
		});

		test('the main (EXECUTIONS_MODE=queue) and both workers are up', async () => {
			const c = await cluster();
			expectEqual({ mainReady: c.mainReady, workersReady: c.workersReady }, { mainReady: true, workersReady: true }, { see: [c.main, ...c.workers].map((p) => p.logFile) });
		});

		test('n8n owner set up for the REST API (to retry executions)', async () => {
			const { rest } = await ready();
			expectEqual({ ok: rest.ok }, { ok: true }, { error: rest.ok ? undefined : rest.error });
		});
	});

	describe('triggers fire once, and the rate limit holds across workers', () => {
		test('both trigger workflows are active and polled once (New Published Post sets its watermark)', async () => {
			const a = await activation();
			expectEqual({ activated: a.activated }, { activated: true }, { polls: a.polls, see: a.mainLog });
		});

		test(`${BATCH_EXECUTIONS} webhook calls accepted at once`, async () => {
			const b = await batch();
			expect(b.statuses).toEqual(Array(BATCH_EXECUTIONS).fill(200));
		});

		test(`every batch execution succeeded (${BATCH_EXECUTIONS} × ${BATCH_ITEMS} items)`, async () => {
			const b = await batch();
			expectEqual(
				{ finished: b.done, executions: b.rows.length, notSuccessful: b.rows.filter((r) => r.status !== 'success').map((r) => `${r.id}:${r.status}`) },
				{ finished: true, executions: BATCH_EXECUTIONS, notSuccessful: [] },
				{ statuses: b.rows.map((r) => r.status) },
			);
		});

		test(`the quota bound the batch and few calls were refused: ≤ ${BATCH_MAX_REFUSED_SHARE * 100} % of /generate requests answered 429, the run lasted ≥ the quota-bound ${QUOTA_BOUND_MS / 1000} s`, async () => {
			const b = await batch();
			const figures = { requests: b.requests, refused: b.refused, refusedPercent: Number((b.refusedShare * 100).toFixed(1)), untilLastChargeMs: b.untilLastChargeMs, quotaBoundMs: QUOTA_BOUND_MS };
			expectEqual(
				{ answersLogged: b.answers, otherAnswers: b.otherAnswers, refusedShareWithinLimit: b.refusedShare <= BATCH_MAX_REFUSED_SHARE, lastChargeAfterQuotaBound: b.untilLastChargeMs >= QUOTA_BOUND_MS },
				{ answersLogged: b.requests, otherAnswers: [], refusedShareWithinLimit: true, lastChargeAfterQuotaBound: true },
				figures,
			);
		});

		test(`credits spent = items (${BATCH_EXECUTIONS * BATCH_ITEMS}), every item charged once: 0 double charges, 0 missing`, async () => {
			const b = await batch();
			expectEqual(
				{ creditsSpent: b.creditsSpent, itemsCharged: b.charges.length, chargedMoreThanOnce: b.charges.filter(([, c]) => c !== 1).map(([k, c]) => `${k} ×${c}`) },
				{ creditsSpent: BATCH_EXECUTIONS * BATCH_ITEMS, itemsCharged: BATCH_EXECUTIONS * BATCH_ITEMS, chargedMoreThanOnce: [] },
			);
		});

		test('both workers took batch executions (their logs)', async () => {
			const b = await batch();
			expectEqual(
				{ inWorkerLogs: Object.values(b.perWorker).reduce((a, n) => a + n, 0), everyWorkerTookSome: b.workerLabels.every((w) => (b.perWorker[w] ?? 0) > 0) },
				{ inWorkerLogs: BATCH_EXECUTIONS, everyWorkerTookSome: true },
				{ perWorker: b.perWorker },
			);
		});

		test('round 1 fired: 2 published posts, 2 upcoming drafts', async () => {
			const r = await rounds();
			expectEqual({ fired1: r.fired1 }, { fired1: true }, { afterRound1: r.afterRound1 });
		});

		test('round 2 fired, and a quiet poll of each followed', async () => {
			const r = await rounds();
			expectEqual({ fired2: r.fired2, quietPoll: r.quiet }, { fired2: true, quietPoll: true }, { polls: r.polls });
		});

		test(`New Published Post: each of the ${TRIGGER_POSTS} posts fired exactly once (0 duplicates, 0 misses)`, async () => {
			const r = await rounds();
			expect(r.expectedSeen).toHaveLength(TRIGGER_POSTS);
			expect([...r.seen].sort()).toEqual([...r.expectedSeen].sort());
		});

		test(`Upcoming Scheduled Draft: each of the ${TRIGGER_PAIRS} (draft, time) pairs fired exactly once (0 duplicates, 0 misses)`, async () => {
			const r = await rounds();
			expect(r.expectedUpcoming).toHaveLength(TRIGGER_PAIRS);
			expect([...r.upcoming].sort()).toEqual([...r.expectedUpcoming].sort());
		});

		test('every trigger execution ran on a worker and succeeded', async () => {
			const r = await rounds();
			expectEqual(
				{
					notSuccessful: r.triggerRows.filter((row) => row.status !== 'success').map((row) => `${row.id}:${row.status}`),
					inWorkerLogs: Object.values(r.perWorker).reduce((a, n) => a + n, 0),
				},
				{ notSuccessful: [], inWorkerLogs: r.triggerRows.length },
				{ perWorker: r.perWorker },
			);
		});
	});

	describe('a worker killed mid-batch', () => {
		/** The check before each kill: the batch waits on the quota, on a live worker. */
		const reachedTest = (prefix: string, before: number, run: () => Promise<KillRun>) =>
			test(`${prefix.trim()}: the batch reached the quota on a worker, which waits (${before} items charged, none since)`, async () => {
				const { start } = await run();
				expectEqual(
					{ webhookStatus: start.status, reached: start.reached, charged: start.charges, onLiveWorker: start.worker !== undefined },
					{ webhookStatus: 200, reached: true, charged: before, onLiveWorker: true },
					{ execution: start.execution, requests: start.requests, logs: LOGS },
				);
			});

		describe('plain batch: Webhook → Split Out → Generate (12 items in one node run)', () => {
			reachedTest(PLAIN, PLAIN_BEFORE_KILL, plainKill);

			test(`plain: the kill stopped the charges at ${PLAIN_BEFORE_KILL}; nothing charged twice inside the killed execution`, async () => {
				const plain = killedOf(await plainKill(), PLAIN);
				expectEqual({ chargedAfterKill: plain.chargedAfterKill, doubleInside: plain.doubleInside }, { chargedAfterKill: plain.chargedBeforeKill, doubleInside: [] });
			});

			test('plain: n8n marks the execution "error" ("failed to be processed too many times") and drops its run data', async () => {
				const plain = killedOf(await plainKill(), PLAIN);
				expect(plain.status).toBe('error');
				expect(plain.errorMessage).toMatch(/processed too many times/);
				expect(plain.runNodes).toEqual([]);
			});

			test(`plain: n8n's own retry of it runs no node and charges nothing, so the ${KILL_ITEMS - PLAIN_BEFORE_KILL} items not done stay undone`, async () => {
				const a = await plainAfter();
				expectEqual({ retryOk: a.retry.ok, retryCharges: a.retryCharges, itemsChargedByRetry: a.retryItems }, { retryOk: true, retryCharges: 0, itemsChargedByRetry: [] }, { retry: a.retry });
			});

			test(`plain: running the whole batch again charges all ${KILL_ITEMS}: the ${PLAIN_BEFORE_KILL} done before the kill a second time (the known limit)`, async () => {
				const a = await plainAfter();
				expectEqual(
					{ webhookStatus: a.again, rerunDone: a.rerunDone, rerunCharges: a.rerunCharges, itemsChargedTwice: a.twice },
					{ webhookStatus: 200, rerunDone: true, rerunCharges: KILL_ITEMS, itemsChargedTwice: a.plain.chargedBeforeKill },
					{ charges: a.charges },
				);
			});
		});

		describe('one sub-execution per item: Loop Over Items (1) → Execute Sub-workflow → Generate', () => {
			reachedTest(PER_ITEM, PER_ITEM_BEFORE_KILL, perItemKill);

			test(`per item: the kill stopped the charges at ${PER_ITEM_BEFORE_KILL}; nothing charged twice inside the killed execution`, async () => {
				const perItem = killedOf(await perItemKill(), PER_ITEM);
				expectEqual(
					{ chargedAfterKill: perItem.chargedAfterKill, doubleInside: perItem.doubleInside, status: perItem.status },
					{ chargedAfterKill: perItem.chargedBeforeKill, doubleInside: [], status: 'error' },
				);
			});

			test("per item: n8n's successful sub-executions name exactly the items the sandbox charged", async () => {
				const a = await perItemAfter();
				expect(a.done).toHaveLength(a.perItem.chargedBeforeKill);
				expect([...a.done].sort()).toEqual(Object.keys(a.perItem.chargesAtKill).sort());
			});

			test(`per item: re-sending only the ${KILL_ITEMS - PER_ITEM_BEFORE_KILL} items without a successful sub-execution charges exactly those; every item charged once in all`, async () => {
				const a = await perItemAfter();
				expectEqual(
					{ webhookStatus: a.resend, resentBatchSucceeded: a.resent, resendCharges: a.resendCharges, chargesPerItem: a.chargesPerItem },
					{ webhookStatus: 200, resentBatchSucceeded: true, resendCharges: KILL_ITEMS - a.perItem.chargedBeforeKill, chargesPerItem: Array(KILL_ITEMS).fill(1) },
				);
			});
		});
	});
});
