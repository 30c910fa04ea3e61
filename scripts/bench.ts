/**
 * `npm run bench`: reproducible figures, printed as a table and written to
 * docs/benchmarks.md (its generated block `bench-figures`; the report around
 * it is kept by hand) with the chart of section 1, docs/images/bench-batches.svg
 * (scripts/lib/bench-charts.ts). Not a test: it measures and reports; it never
 * tunes itself to meet a target.
 *
 *   1. Batches under a quota, against the quota-bound limit
 *      (⌈N/Q⌉ − 1) × W + L (the first window is free; the last call still
 *      takes its latency L): S1 (N = 200, L = 1 s, Q = 10 per 1 s), S2
 *      (N = 200, L = 1 s, Q = 50 per 5 s), S3 (N = 100, L = 0, Q = 10 per
 *      1 s) through Generate, and S4 (N = 50 through Create Guided Post,
 *      500 ms per creation step, no binding quota: limit N·L/C), each way on
 *      its own sandbox (X-RateLimit-Reset on every answer, as real APIs
 *      send it):
 *        (a) the n8n node's execute() with default settings (Options ›
 *            Concurrency left out: Auto once the node sizes it itself),
 *        (b) at the maximum concurrency, (c) at concurrency 1 (the behaviour
 *            before), N input items in one execution;
 *        (d) a naive loop: raw axios, fixed 1 s wait, 3 tries per item (n8n's
 *            default Retry On Fail), no Retry-After handling (S1–S3);
 *        (a') in S3, (a) without X-RateLimit-Reset;
 *        (e) n8n's own HTTP Request node with its Batching option (Q items
 *            per batch, W ms between batches) in a real n8n 2.8.4, the one
 *            `npm start` and `npm run test:e2e` install in the cache (S1–S3):
 *            what a user would build instead of the node. Skipped, with the
 *            reason printed, when that n8n is not installed or fails.
 *      Then one key shared by many runs (issue 18), Q = 10 per 1 s, each way
 *      beside the baseline (base): the node of main at BASELINE_COMMIT
 *      (pacing per execution, Concurrency 5), extracted with `git archive`
 *      into .bench/baseline and loaded with its own modules:
 *        S5: executions in one process, each its own execute() and context,
 *            started together: 12 × 10 items, and 4 × 50 (also (b) at
 *            Concurrency 20); L = 1 s, X-RateLimit-* on every answer;
 *        S6: 3 node processes (scripts/bench-process.ts, forked with IPC
 *            before any measured run; all start on one go) × 4 executions ×
 *            20 items, L = 1 s, with X-RateLimit-*, with Retry-After only,
 *            and with the IETF RateLimit-Policy / RateLimit fields only;
 *        S7: one execution of 100 items at L = 5 s and at L = 15 s.
 *      The latency-bound scenarios (S1, S2, S4–S7) run their ways side by
 *      side, then S3 (latency 0, bound by the process) runs its ways one by
 *      one, then (e) runs scenario by scenario, one n8n process at a time,
 *      with nothing else running.
 *   2. Poll cost: HTTP requests per steady-state poll of each trigger, and the
 *      JSON size of the n8n trigger's static data after 10,000 posts.
 *   3. Footprint: time to require the built Zapier app and the built n8n
 *      modules in fresh node processes (median of 5), and `npm pack` sizes.
 *
 * Run with ts-node --prefer-ts-exts: n8n/nodes/PostWriter/PostWriter.node.json
 * (the codex file) sits next to PostWriter.node.ts, and Node's own resolution
 * would load the .json for `./PostWriter.node`.
 *
 * Options: --only S1,S3 (some scenarios only, with their targets; implies --no-write),
 * --no-write (do not touch docs/benchmarks.md), --build (rebuild first;
 * otherwise builds only when dist/ or zapier/dist/ is missing), --no-n8n
 * (skip (e)).
 *
 * The last line of the output is the machine-readable summary:
 * `BENCH_SUMMARY {json}` (one line; see `summaryLine`).
 */
import axios from 'axios';
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server';
import * as n8nOptions from '../n8n/nodes/PostWriter/helpers/options';
import { runNode } from '../test/n8n/helpers/context';
import { BENCH_CHART_FILE, batchChart, gridChart, wayLegend } from './lib/bench-charts';
import { runS8, s8ChartRows, s8Misses, s8Tables } from './lib/bench-s8';
import { S6_RUNS, meanOfRuns, runsNote, type RunFigures } from './lib/bench-runs';
import { blockEnd, blockStart, replaceBetween } from './lib/generated-blocks';
import type { BatchChartRow } from './lib/bench-charts';
import * as n8nRuntime from './lib/n8n-runtime';
import { BASELINE_COMMIT, BASELINE_CONCURRENCY, extractBaseline, loadNode, runExecutions } from './lib/bench-executions';
import type { ExecutionOutcome, NodeKind } from './lib/bench-executions';
import type { ToChild } from './bench-process';
import { forkWorker, runOnWorker } from './lib/bench-workers';
import { POLLS, loadZapierHelpers, pollCostN8n, pollCostZapier, triggerState, type PollCost } from './lib/bench-triggers';
import { ensureBuilt, loadTime, packSize } from './lib/bench-footprint';

const ROOT = join(__dirname, '..');
const MAX_CONCURRENCY = n8nOptions.MAX_CONCURRENCY;
/** The fixed default of Options › Concurrency before issue 18 (5); undefined once the node sizes it itself (Auto). */
const DEFAULT_CONCURRENCY = (n8nOptions as unknown as Record<string, unknown>).DEFAULT_CONCURRENCY as number | undefined;
const args = process.argv.slice(2);
const only = (() => {
	const i = args.indexOf('--only');
	return i >= 0 ? new Set(String(args[i + 1] ?? '').split(',')) : undefined;
})();
const WRITE = !args.includes('--no-write') && only === undefined;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
type Obj = Record<string, unknown>;

function log(line: string) {
	process.stderr.write(`[bench] ${line}\n`);
}

// ---------------------------------------------------------------------------
// Machine

function machine() {
	const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
	const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
	let nproc = String(cpus().length);
	try {
		nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
	} catch {
		/* cpus().length */
	}
	return {
		nproc,
		memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
		node: process.version,
		cpu: model,
		platform: `${process.platform} ${process.arch}`,
		load: loadavg()
			.map((x) => x.toFixed(2))
			.join(' / '),
	};
}

// ---------------------------------------------------------------------------
// 1. Batches under a quota, against the quota-bound limit

type ScenarioId = 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'S7';

interface Scenario {
	id: ScenarioId;
	/** A part of the scenario (S5: executions × items, S6: the header form, S7: the latency); its results are keyed "<way> <part>". */
	part?: string;
	/** Items in all (every execution of every process). */
	n: number;
	/** Latency of one call (faults.latencyMs) or of one creation step (S4, creationLatencyMs). */
	latencyMs: number;
	/** /generate quota per window (S4: none binds; the creation endpoints have a generous default quota). */
	q?: number;
	windowMs: number;
	guided?: boolean;
	/** Ways run side by side (each on its own sandbox): latency-bound runs, where the process is idle most of the time. */
	sideBySide: boolean;
	/** Executions started together in each process, each its own execute() and context (S5–S7); S1–S4: one execution of N items. */
	executions?: number;
	/** Separate node processes, each running `executions` executions (S6). */
	processes?: number;
	/** Sandbox options of the scenario, on top of the common ones (S6: the header form). */
	sandbox?: Partial<SandboxOptions>;
	/** The rate-limit fields the answers carry, for the title. */
	headers: string;
}

/** Calls per item: one for Generate, four steps for Create Guided Post (ideas, prepare, write, validate). */
const GUIDED_STEPS = 4;
const X_RATELIMIT = '`X-RateLimit-Limit`, `-Remaining` and `-Reset` on every answer';

const SCENARIOS: Scenario[] = [
	{ id: 'S1', n: 200, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S2', n: 200, latencyMs: 1000, q: 50, windowMs: 5000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S3', n: 100, latencyMs: 0, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S4', n: 50, latencyMs: 500, windowMs: 1000, guided: true, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S5', part: '12×10', n: 120, executions: 12, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S5', part: '4×50', n: 200, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S6', part: 'X-RateLimit', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT, sandbox: { rateLimitHeaders: 'x-ratelimit' } },
	{ id: 'S6', part: 'Retry-After', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: 'no rate-limit field on successes, only `Retry-After: <s>` on a 429', sandbox: { rateLimitHeaders: 'retry-after' } },
	{ id: 'S6', part: 'IETF', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: 'the IETF fields only, `RateLimit-Policy: "generate";q=10;w=1` and `RateLimit: "generate";r=…;t=…` on every answer (no `Retry-After` on a 429)', sandbox: { rateLimitHeaders: 'ietf' } },
	{ id: 'S7', part: 'L = 5 s', n: 100, executions: 1, latencyMs: 5000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S7', part: 'L = 15 s', n: 100, executions: 1, latencyMs: 15_000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
];

/** S5–S7: many executions, processes or long calls, through Post › Generate. */
const isExecutionScenario = (sc: Scenario) => sc.executions !== undefined;
const executionCount = (sc: Scenario) => (sc.processes ?? 1) * (sc.executions ?? 1);
const itemsPerExecution = (sc: Scenario) => sc.n / executionCount(sc);
const scenarioKey = (sc: Scenario) => (sc.part ? `${sc.id} ${sc.part}` : sc.id);

interface Way {
	id: string;
	label: string;
	/** Items at once (the naive loop: 1; n8n's HTTP Request node: N, it has no cap; Auto: the most the node may reach, for S4's N·L/C). */
	concurrency: number;
	/** What the C column shows instead of `concurrency`. */
	concurrencyNote?: string;
	/** Options › Concurrency left out: the node sizes it (Auto, issue 18) or takes its default. */
	auto?: boolean;
	run: (sb: Sandbox, scenario: Scenario) => Promise<RunOutcome>;
	/** Sandbox options of this way on top of the scenario's. */
	sandbox?: Partial<SandboxOptions>;
}

interface RunOutcome {
	failed: number;
	/** Failed items whose message is WORKFLOW_BUSY. */
	busySurfaced?: number;
	/** The way's own measure of its wall time, when the time around `run` holds more than the batch ((e): n8n's start-up). */
	wallMs?: number;
	/** Printed with the way's log line. */
	note?: string;
	/** Executions with at least one failed item (S5–S7). */
	failedExecutions?: number;
	/** The first failure messages (at most 2, distinct), printed with the log line. */
	messages?: string[];
}

/** A way's result: what it measured (RunFigures), and which scenario and way it is. */
interface BatchResult extends RunFigures {
	scenario: ScenarioId;
	part?: string;
	way: string;
	label: string;
	concurrency: number;
	concurrencyNote?: string;
	auto?: boolean;
}

/**
 * The quota-bound limit (⌈N/Q⌉ − 1) × W + L: the first window is free, so the
 * last of N calls can start only at (⌈N/Q⌉ − 1) × W, and then takes its
 * latency L (S4: the item's four steps). Without a binding quota (S4), N·L/C
 * (at least L), C the way's concurrency.
 */
function limitOf(scenario: Scenario, concurrency: number): number {
	const itemLatency = scenario.latencyMs * (scenario.guided ? GUIDED_STEPS : 1);
	if (scenario.q !== undefined) return (Math.ceil(scenario.n / scenario.q) - 1) * scenario.windowMs + itemLatency;
	return Math.max(itemLatency, (scenario.n * itemLatency) / concurrency);
}

/** A way's result: S6's default way is the mean of S6_RUNS runs (three processes vary from run to run: bench-runs.ts), every other way one run. */
async function measureWay(scenario: Scenario, way: Way): Promise<BatchResult> {
	if (scenario.processes === undefined || !way.auto) return await measureOnce(scenario, way);
	const runs: BatchResult[] = [];
	for (let run = 0; run < S6_RUNS; run++) runs.push(await measureOnce(scenario, way));
	const mean = meanOfRuns(runs, scenario.n);
	log(`${scenarioKey(scenario)} ${way.id}: ${mean.ratio.toFixed(3)} × (${runsNote(mean)}), ${mean.failed} failed, ${mean.rejected429} × 429 of ${mean.requests} requests (${pct(mean.share429)})`);
	return mean;
}

async function measureOnce(scenario: Scenario, way: Way): Promise<BatchResult> {
	const answers: string[] = [];
	const sb = await startSandbox({
		keySeed: 'chaos-bench',
		credits: 10 * scenario.n,
		quota: {
			generate: { limit: scenario.q ?? 1_000_000, windowMs: scenario.windowMs },
			default: { limit: 1_000_000, windowMs: 60_000 },
		},
		...(scenario.guided ? { creationLatencyMs: scenario.latencyMs } : { faults: { latencyMs: scenario.latencyMs } }),
		rateLimitReset: true,
		...scenario.sandbox,
		...way.sandbox,
		log: (line) => answers.push(line),
	});
	try {
		sb.resetStats();
		const started = performance.now();
		const outcome = await way.run(sb, scenario);
		const wallMs = outcome.wallMs ?? performance.now() - started;
		const { failed, busySurfaced } = outcome;
		const limitMs = limitOf(scenario, way.concurrency);
		const route = scenario.guided ? /^POST \/api\/v1\/creation\// : /^POST \/api\/v1\/generate/;
		const sent = answers.filter((l) => route.test(l));
		const rejected429 = sent.filter((l) => l.endsWith('-> 429')).length;
		const succeeded = scenario.n - failed;
		const doubleCharges = scenario.guided
			? Math.max(0, sent.filter((l) => l.endsWith('-> 200')).length - GUIDED_STEPS * succeeded)
			: Math.max(0, sb.stats.creditsSpent - succeeded);
		const result: BatchResult = {
			scenario: scenario.id,
			part: scenario.part,
			way: way.id,
			label: way.label,
			concurrency: way.concurrency,
			concurrencyNote: way.concurrencyNote,
			auto: way.auto,
			wallMs,
			limitMs,
			ratio: wallMs / limitMs,
			failed,
			credits: sb.stats.creditsSpent,
			requests: sent.length,
			rejected429,
			share429: sent.length === 0 ? 0 : rejected429 / sent.length,
			busyAnswered: sent.filter((l) => l.endsWith('-> 409')).length,
			busySurfaced: busySurfaced ?? 0,
			doubleCharges,
			...(isExecutionScenario(scenario) ? { executions: executionCount(scenario), failedExecutions: outcome.failedExecutions ?? 0 } : {}),
		};
		const notes = [
			...(result.executions !== undefined ? [`${result.failedExecutions} / ${result.executions} executions with a failure`] : []),
			...(outcome.note ? [outcome.note] : []),
			...(outcome.messages && outcome.messages.length > 0 ? [`first failures: ${outcome.messages.map((m) => JSON.stringify(clip(m, 200))).join(' | ')}`] : []),
		];
		log(
			`${scenarioKey(scenario)} ${way.id}: ${sec(wallMs)} (limit ${sec(limitMs)}, ${result.ratio.toFixed(3)} ×), ${failed} failed, ${result.credits} credits, ${result.requests} requests (${rejected429} × 429, ${pct(result.share429)})${notes.length ? `; ${notes.join('; ')}` : ''}`,
		);
		return result;
	} finally {
		await sb.close();
	}
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first `max` distinct messages. */
function firstMessages(messages: string[], max = 2): string[] {
	return [...new Set(messages)].slice(0, max);
}

const prompts = (n: number) => Array.from({ length: n }, (_, i) => `Benchmark prompt ${i + 1}: what we learned from shipping weekly`);

/** The n8n node's execute(), N input items in one execution, continueOnFail on, at `concurrency` (undefined: Options › Concurrency left out). */
function nodeWay(concurrency: number | undefined) {
	return async (sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const options = concurrency === undefined ? {} : { concurrency };
		const { output } = await runNode({
			credentials: { apiKey: sb.keys.full, baseUrl: sb.baseUrl },
			params: scenario.guided
				? { resource: 'creation', operation: 'createGuided', topic: '={{ $json.prompt }}', options }
				: { resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}', options },
			items: prompts(scenario.n).map((prompt) => ({ json: { prompt } })),
			continueOnFail: true,
		});
		if (output.length !== scenario.n) throw new Error(`n8n: ${output.length} output items for ${scenario.n} input items`);
		const errors = output.map((o) => o.json.error).filter((e): e is string => typeof e === 'string');
		return { failed: errors.length, busySurfaced: errors.filter((e) => /WORKFLOW_BUSY/.test(e)).length, messages: firstMessages(errors) };
	};
}

async function batchNaive(sb: Sandbox, scenario: Scenario): Promise<RunOutcome> {
	let failed = 0;
	const http = axios.create({ validateStatus: () => true, timeout: 30_000 });
	for (const prompt of prompts(scenario.n)) {
		let ok = false;
		for (let attempt = 1; attempt <= 3 && !ok; attempt++) {
			const res = await http.post(`${sb.baseUrl}/generate`, { prompt }, { headers: { Authorization: `Bearer ${sb.keys.full}` } });
			ok = res.status >= 200 && res.status < 300;
			if (!ok && attempt < 3) await sleep(1000);
		}
		if (!ok) failed++;
	}
	return { failed };
}

function outcomeOf(outcomes: ExecutionOutcome[]): RunOutcome {
	return {
		failed: outcomes.reduce((sum, o) => sum + o.failed, 0),
		failedExecutions: outcomes.filter((o) => o.failed > 0).length,
		messages: firstMessages(outcomes.flatMap((o) => o.messages)),
	};
}

/** S5 and S7: the scenario's executions started together in this process, each its own execute() and context, on the new node or the baseline. */
function executionsWay(kind: NodeKind, concurrency: number | undefined) {
	return async (sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const Node = loadNode(kind, ROOT);
		const outcomes = await runExecutions(Node, {
			baseUrl: sb.baseUrl,
			apiKey: sb.keys.full,
			executions: scenario.executions ?? 1,
			items: itemsPerExecution(scenario),
			concurrency,
			label: scenarioKey(scenario),
		});
		return outcomeOf(outcomes);
	};
}

// S6: node processes of their own (scripts/bench-process.ts), forked before any measured run.

/** The worker processes of each S6 way, keyed "<part>|<kind>". */
const workers = new Map<string, ChildProcess[]>();
/** Forks the processes of every S6 way of the run (all at once; their ts-node start-up falls on no measurement). */
async function prepareWorkers(scenarios: Scenario[]): Promise<void> {
	const jobs: Array<Promise<void>> = [];
	for (const sc of scenarios.filter((x) => x.processes !== undefined)) {
		for (const kind of ['new', 'baseline'] as const) {
			jobs.push(
				Promise.all(Array.from({ length: sc.processes ?? 1 }, () => forkWorker(kind))).then((list) => {
					workers.set(`${sc.part}|${kind}`, list);
				}),
			);
		}
	}
	const count = scenarios.reduce((sum, sc) => sum + 2 * (sc.processes ?? 0), 0);
	if (count === 0) return;
	log(`1. S6: forking ${count} node processes (scripts/bench-process.ts), before any measured run`);
	const started = performance.now();
	await Promise.all(jobs);
	log(`1. S6: ${count} node processes ready in ${sec(performance.now() - started)}`);
}

/** Tells every worker to exit and waits until they have (at most 3 s, then SIGKILL): the next scenario runs on a quiet machine. */
async function stopWorkers(): Promise<void> {
	const exits: Array<Promise<void>> = [];
	for (const list of workers.values()) {
		for (const child of list) {
			if (child.exitCode !== null || child.signalCode !== null) continue;
			exits.push(
				new Promise<void>((resolve) => {
					const timer = setTimeout(() => {
						if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
						resolve();
					}, 3000);
					child.once('exit', () => {
						clearTimeout(timer);
						resolve();
					});
				}),
			);
			if (child.connected) child.send({ type: 'exit' } satisfies ToChild);
		}
	}
	workers.clear();
	await Promise.all(exits);
}

/** S6: every process of the way starts its executions on one 'go'; the wall time runs from the go to the last process's end. */
function processesWay(kind: NodeKind, concurrency: number | undefined) {
	return async (sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const list = workers.get(`${scenario.part}|${kind}`);
		if (!list) throw new Error(`no worker processes for ${scenarioKey(scenario)} (${kind})`);
		const outcomes = await Promise.all(
			list.map((child, p) =>
				runOnWorker(child, {
					baseUrl: sb.baseUrl,
					apiKey: sb.keys.full,
					executions: scenario.executions ?? 1,
					items: itemsPerExecution(scenario),
					concurrency,
					label: `${scenarioKey(scenario)} process ${p + 1}`,
				}),
			),
		);
		return outcomeOf(outcomes.flat());
	};
}

/** One small run of each way first, so that no measured way pays for loading and compiling the code. */
async function warmUp(): Promise<void> {
	const sb = await startSandbox({ keySeed: 'chaos-bench', credits: 1000 });
	try {
		const tiny: Scenario = { id: 'S3', n: 3, latencyMs: 0, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT };
		await nodeWay(2)(sb, tiny);
		await nodeWay(2)(sb, { ...tiny, guided: true });
		await batchNaive(sb, tiny);
		const executions: Scenario = { ...tiny, n: 4, executions: 2 };
		await executionsWay('new', 2)(sb, executions);
		await executionsWay('baseline', 2)(sb, executions);
	} finally {
		await sb.close();
	}
}

/** Options › Concurrency left out: Auto (issue 18), or the fixed default of the node before it. */
const DEFAULT_LABEL = DEFAULT_CONCURRENCY === undefined ? 'Auto' : String(DEFAULT_CONCURRENCY);
const BASELINE_LABEL = `baseline: main at ${BASELINE_COMMIT} (pacing per execution), Concurrency ${BASELINE_CONCURRENCY}`;

function defaultWay(run: Way['run'], n: number): Way {
	return {
		id: '(a)',
		label: `n8n node, default settings (Concurrency ${DEFAULT_CONCURRENCY === undefined ? 'left out: Auto' : `default ${DEFAULT_CONCURRENCY}`})`,
		concurrency: DEFAULT_CONCURRENCY ?? Math.min(n, MAX_CONCURRENCY),
		concurrencyNote: DEFAULT_LABEL,
		auto: true,
		run,
	};
}

function waysOf(scenario: Scenario): Way[] {
	if (isExecutionScenario(scenario)) {
		const perExecution = scenario.executions !== 1 ? ' per execution' : '';
		const multi = scenario.processes !== undefined;
		const run = (kind: NodeKind, c: number | undefined) => (multi ? processesWay(kind, c) : executionsWay(kind, c));
		const ways: Way[] = [{ ...defaultWay(run('new', undefined), itemsPerExecution(scenario)), concurrencyNote: `${DEFAULT_LABEL}${perExecution}` }];
		if (scenario.id === 'S5' && scenario.part === '4×50') {
			ways.push({ id: '(b)', label: 'n8n node, Concurrency 20', concurrency: 20, concurrencyNote: `20${perExecution}`, run: run('new', 20) });
		}
		ways.push({ id: '(base)', label: BASELINE_LABEL, concurrency: BASELINE_CONCURRENCY, concurrencyNote: `${BASELINE_CONCURRENCY}${perExecution}`, run: run('baseline', BASELINE_CONCURRENCY) });
		return ways;
	}
	const ways: Way[] = [
		defaultWay(nodeWay(undefined), scenario.n),
		{ id: '(b)', label: `n8n node, maximum concurrency (${MAX_CONCURRENCY})`, concurrency: MAX_CONCURRENCY, run: nodeWay(MAX_CONCURRENCY) },
		{ id: '(c)', label: 'n8n node, concurrency 1 (the behaviour before)', concurrency: 1, run: nodeWay(1) },
	];
	if (!scenario.guided) ways.push({ id: '(d)', label: 'naive loop (fixed 1 s wait, 3 tries)', concurrency: 1, run: batchNaive });
	if (scenario.id === 'S3') {
		ways.push({
			...defaultWay(nodeWay(undefined), scenario.n),
			id: "(a')",
			label: `n8n node, default settings, without X-RateLimit-Reset (limit and remaining only, Retry-After on 429)`,
			sandbox: { rateLimitReset: false },
		});
	}
	return ways;
}

async function runScenario(scenario: Scenario): Promise<BatchResult[]> {
	const ways = waysOf(scenario);
	log(`1. ${scenarioLabel(scenario)}: ${ways.length} ways${scenario.sideBySide ? ', side by side' : ', one after the other'}`);
	if (scenario.sideBySide) return await Promise.all(ways.map((w) => measureWay(scenario, w)));
	const out: BatchResult[] = [];
	for (const w of ways) out.push(await measureWay(scenario, w));
	return out;
}

function scenarioLabel(s: Scenario): string {
	if (s.guided) {
		return `${s.id}: N = ${s.n} through Create Guided Post, ${s.latencyMs} ms per creation step (${GUIDED_STEPS} steps: L = ${sec(s.latencyMs * GUIDED_STEPS)} per item), no binding quota`;
	}
	const quota = `L = ${sec(s.latencyMs)}, Q = ${s.q} per ${sec(s.windowMs)}`;
	const items = itemsPerExecution(s);
	switch (s.id) {
		case 'S5':
			return `S5 ${s.part}: ${s.executions} executions × ${items} items started together in one process (each its own execute() and context), one key, through Generate, ${quota}, ${s.headers}`;
		case 'S6':
			return `S6 ${s.part}: ${s.processes} node processes × ${s.executions} executions × ${items} items (N = ${s.n}), one key, through Generate, ${quota}, ${s.headers}`;
		case 'S7':
			return `S7 ${s.part}: one execution of ${s.n} items through Generate, ${quota}, ${s.headers}`;
		default:
			return `${s.id}: N = ${s.n} through Generate, ${quota}`;
	}
}

// ---------------------------------------------------------------------------
// 1e. n8n's own HTTP Request node with Batching, in a real n8n

/**
 * What a user would build instead of the node: Manual Trigger → Code (the N
 * prompts as items) → HTTP Request (v4.4), POST <baseUrl>/generate with the
 * JSON body {prompt}, Authorization: Bearer <key> from a Header Auth
 * credential, and:
 *   - Options › Batching: Items per Batch = Q, Batch Interval (ms) = W, the
 *     quota as the user reads it in the API's documentation;
 *   - Settings › On Error: Continue (regular output), so that a refused item
 *     is an output item with `error` and the batch goes on (counted as failed);
 *   - Settings › Retry On Fail on, with n8n's defaults (Max. Tries 3, Wait
 *     Between Tries 1000 ms). In n8n 2.8.4 a node under Continue retries only
 *     when its first output item is an error, and then re-runs all N items.
 * No Never Error, no Include Response Headers and Status: the defaults.
 */
const HTTP_NODE = 'HTTP Request';
const HTTP_NODE_VERSION = 4.4;
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };
/** `n8n execute` of one scenario, start-up included, is killed after this. */
const N8N_EXECUTE_TIMEOUT_MS = 180_000;
const N8N_IMPORT_TIMEOUT_MS = 120_000;
const N8N_CREDENTIAL = { id: 'pwBenchHeaderKey', name: 'Post Writer sandbox key (Header Auth)' };
const n8nWorkflowId = (id: Scenario['id']) => `pwBenchBatch${id}00`;

interface N8nBatching {
	bin: string;
	version: string;
	/** Temporary folder: n8n's user folder (its database) and the logs of each n8n command. */
	work: string;
	env: NodeJS.ProcessEnv;
	/** The sandbox port of each scenario, chosen before the import: the workflow holds the URL. */
	ports: Map<Scenario['id'], number>;
}

/** `n8n execute --rawOutput`: the parts read here. */
interface N8nRunData {
	startedAt?: string;
	stoppedAt?: string;
	data?: {
		resultData?: {
			error?: { message?: string };
			runData?: Record<string, Array<{ startTime: number; executionTime: number; error?: { message?: string }; data?: { main?: Array<Array<{ json?: Obj }>> } }>>;
		};
	};
}

function batchingWorkflow(scenario: Scenario, baseUrl: string): Obj {
	return {
		id: n8nWorkflowId(scenario.id),
		name: `Bench ${scenario.id}: HTTP Request with Batching`,
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {
			'Manual Trigger': { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
			Prompts: { main: [[{ node: HTTP_NODE, type: 'main', index: 0 }]] },
		},
		nodes: [
			{ id: 'b0000000-0000-4000-8000-000000000001', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Prompts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${scenario.n} }, (_, i) => ({ json: { prompt: \`Benchmark prompt \${i + 1}: what we learned from shipping weekly\` } }));`,
				},
			},
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: HTTP_NODE,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: HTTP_NODE_VERSION,
				position: [440, 0],
				...RETRY,
				onError: 'continueRegularOutput',
				credentials: { httpHeaderAuth: N8N_CREDENTIAL },
				parameters: {
					method: 'POST',
					url: `${baseUrl}/generate`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendBody: true,
					contentType: 'json',
					specifyBody: 'keypair',
					bodyParameters: { parameters: [{ name: 'prompt', value: '={{ $json.prompt }}' }] },
					options: { batching: { batch: { batchSize: scenario.q, batchInterval: scenario.windowMs } } },
				},
			},
		],
	};
}

/**
 * Imports the credential and one workflow per scenario into a fresh n8n user
 * folder, once, before any measured run (each n8n command starts n8n: seconds
 * of CPU). Returns the setup, or why (e) does not run.
 */
async function prepareN8nBatching(scenarios: Scenario[]): Promise<N8nBatching | string> {
	if (args.includes('--no-n8n')) return 'skipped (--no-n8n)';
	if (scenarios.length === 0) return 'no scenario of the run calls Generate';
	const install = n8nRuntime.findN8n();
	if (!install) return `n8n ${n8nRuntime.N8N_VERSION} is not installed in ${n8nRuntime.runtimeDir()} (\`npm start\` or \`npm run test:e2e\` installs it once)`;
	const work = mkdtempSync(join(tmpdir(), 'post-writer-bench-n8n-'));
	const logs = join(work, 'logs');
	// Its own task-broker port (the Code node's runner): another n8n on 5679 would collide.
	const env = n8nRuntime.n8nEnv(join(work, 'user'), { N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: String(await n8nRuntime.freePort()) });
	// This process sets NODE_ENV=test for zapier-platform-core; under it n8n's commands exit 0 and do nothing.
	delete env.NODE_ENV;
	const probe = await startSandbox({ keySeed: 'chaos-bench' });
	const key = probe.keys.full;
	await probe.close();
	const ports = new Map<Scenario['id'], number>();
	for (const sc of scenarios) {
		let port = await n8nRuntime.freePort();
		while ([...ports.values()].includes(port)) port = await n8nRuntime.freePort();
		ports.set(sc.id, port);
	}
	const credentialsFile = join(work, 'credentials.json');
	writeFileSync(credentialsFile, JSON.stringify([{ ...N8N_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${key}` } }]));
	const workflowsDir = join(work, 'workflows');
	mkdirSync(workflowsDir, { recursive: true });
	for (const sc of scenarios) writeFileSync(join(workflowsDir, `${sc.id}.json`), JSON.stringify(batchingWorkflow(sc, `http://127.0.0.1:${ports.get(sc.id)}/api/v1`)));
	log(`1e. n8n ${install.version} (${install.dir}): importing the Header Auth credential and ${scenarios.length} workflows (logs in ${logs})`);
	const creds = await n8nRuntime.runN8n(install.bin, ['import:credentials', `--input=${credentialsFile}`], { env, outDir: logs, label: 'import-credentials', timeoutMs: N8N_IMPORT_TIMEOUT_MS });
	if (creds.code !== 0 || !/imported 1 credential/i.test(creds.stdout + creds.stderr)) {
		return `n8n import:credentials failed (${creds.timedOut ? 'timed out' : `exit ${creds.code}`}); see ${creds.outFile} and ${creds.errFile}`;
	}
	const wfs = await n8nRuntime.runN8n(install.bin, ['import:workflow', '--separate', `--input=${workflowsDir}`], { env, outDir: logs, label: 'import-workflows', timeoutMs: N8N_IMPORT_TIMEOUT_MS });
	if (wfs.code !== 0 || !new RegExp(`imported ${scenarios.length} workflow`, 'i').test(wfs.stdout + wfs.stderr)) {
		return `n8n import:workflow failed (${wfs.timedOut ? 'timed out' : `exit ${wfs.code}`}); see ${wfs.outFile} and ${wfs.errFile}`;
	}
	return { bin: install.bin, version: install.version, work, env, ports };
}

/**
 * (e) in one scenario: `n8n execute --id … --rawOutput`, killed after
 * N8N_EXECUTE_TIMEOUT_MS. The wall time is the HTTP Request node's own run in
 * n8n's execution data (executionTime: from before its first try to after its
 * last), so n8n's start-up, the trigger and the Code node are left out, as
 * (a)–(c) time the node's execute() only.
 */
function n8nBatchingRun(setup: N8nBatching) {
	return async (_sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const started = performance.now();
		const exec = await n8nRuntime.runN8n(setup.bin, ['execute', '--id', n8nWorkflowId(scenario.id), '--rawOutput'], {
			env: setup.env,
			outDir: join(setup.work, 'logs'),
			label: `execute-${scenario.id}`,
			timeoutMs: N8N_EXECUTE_TIMEOUT_MS,
		});
		if (exec.timedOut) throw new Error(`n8n execute killed after ${sec(N8N_EXECUTE_TIMEOUT_MS)}; see ${exec.outFile}`);
		const run = n8nRuntime.parseRunOutput(exec.stdout) as N8nRunData | undefined;
		const task = run?.data?.resultData?.runData?.[HTTP_NODE]?.[0];
		if (!run || !task) {
			throw new Error(`no run data of the ${HTTP_NODE} node from n8n execute (exit ${exec.code}${run?.data?.resultData?.error?.message ? `: ${run.data.resultData.error.message}` : ''}); see ${exec.outFile} and ${exec.errFile}`);
		}
		if (task.error) throw new Error(`the ${HTTP_NODE} node failed: ${task.error.message}; see ${exec.outFile}`);
		const output = task.data?.main?.[0] ?? [];
		if (output.length !== scenario.n) throw new Error(`n8n: ${output.length} output items for ${scenario.n} input items`);
		const failed = output.filter((o) => o.json?.error !== undefined).length;
		const whole = run.startedAt && run.stoppedAt ? Date.parse(run.stoppedAt) - Date.parse(run.startedAt) : NaN;
		return {
			failed,
			wallMs: task.executionTime,
			note: `the ${HTTP_NODE} node's own time in n8n's execution data; the whole execution ${Number.isNaN(whole) ? '?' : sec(whole)}, n8n execute with its start-up ${sec(performance.now() - started)}`,
		};
	};
}

function n8nBatchingWay(setup: N8nBatching, scenario: Scenario): Way {
	return {
		id: '(e)',
		label: `n8n's HTTP Request node in n8n ${setup.version}, Batching ${scenario.q} items per ${scenario.windowMs} ms, Retry On Fail (3 tries, 1 s), On Error: Continue`,
		concurrency: scenario.n,
		concurrencyNote: `${scenario.n} (no cap)`,
		run: n8nBatchingRun(setup),
		sandbox: { port: setup.ports.get(scenario.id) },
	};
}

/** (e) scenario by scenario, one n8n process at a time; a failing scenario is left out with its reason. */
async function runN8nBatching(setup: N8nBatching, scenarios: Scenario[], skipped: string[]): Promise<BatchResult[]> {
	const out: BatchResult[] = [];
	for (const sc of scenarios) {
		log(`1e. ${sc.id}: n8n's HTTP Request node with Batching (n8n execute)`);
		try {
			out.push(await measureWay(sc, n8nBatchingWay(setup, sc)));
		} catch (e) {
			const reason = `${sc.id}: ${e instanceof Error ? e.message : String(e)}`;
			skipped.push(reason);
			log(`1e. (e) left out of ${reason}`);
		}
	}
	return out;
}

// ---------------------------------------------------------------------------
// 2. Poll cost and trigger state: scripts/lib/bench-triggers.ts; 3. Footprint: scripts/lib/bench-footprint.ts

// ---------------------------------------------------------------------------
// Report

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

function table(head: string[], rows: Array<Array<string | number>>): string {
	const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
	for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
	return lines.join('\n');
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The paragraph on (e): how it ran (unless `how` is false: docs/benchmarks.md says it once), and why it did not. */
function n8nBatchingNote(ran: boolean, skipped: string[], how = true): string {
	const text =
		`(e) is n8n's own HTTP Request node (v${HTTP_NODE_VERSION}) in a real n8n ${n8nRuntime.N8N_VERSION} (\`n8n execute --id … --rawOutput\`, one process at a time, after the other ways): Manual Trigger → Code (the N prompts as items) → HTTP Request, POST /generate with the JSON body {prompt} (Send Body, Using Fields Below) and Authorization: Bearer <key> from a Header Auth credential; ` +
		'Options › Batching with Items per Batch = Q and Batch Interval (ms) = W, the quota as a user reads it; Settings › Retry On Fail on with n8n\'s defaults (Max. Tries 3, Wait Between Tries 1000 ms) and On Error: Continue (regular output), so a refused item comes out with `error` and counts as failed; Never Error and the full response off (the defaults). ' +
		"Its wall time is the HTTP Request node's own time in n8n's execution data (`executionTime`, from before its first try to after its last), without n8n's start-up, the trigger and the Code node. " +
		'The node sends each batch without waiting for the answers, so nothing caps the calls in flight (C = N); its limit is the quota-bound limit, like every way of S1–S3.';
	const why = skipped.length === 0 ? '' : `**(e) ${ran ? 'left out of' : 'not run'}:** ${skipped.join('; ')}.`;
	return [...(how ? [text] : []), ...(why ? [why] : [])].join('\n\n');
}

const LIMIT_TEXT =
	'Quota-bound limit = (⌈N/Q⌉ − 1) × W + L: the first window is free, so the last of N calls at Q per window W can start only at (⌈N/Q⌉ − 1) × W, and it then takes its latency L. No client reaches below it, whatever its concurrency; a way held to C calls at once also needs N·L/C, which shows in its ratio. ' +
	'S4 has no binding quota: its limit is N·L/C (at least L), with L the item\'s four steps (2 s) and, for the default way, C the most the node may reach there. ' +
	'Requests are the calls of the operation (POST /generate; in S4 the POST /creation/… steps), refusals included; answered 429 is their share refused by the quota.';

const EXECUTIONS_TEXT =
	`S5–S7 run the new node's default way (a) (Options › Concurrency left out), in S5 4×50 also at Concurrency 20 (b), side by side with the baseline (base): the node of today's main before issue 18 (commit ${BASELINE_COMMIT}, \`git archive\` into .bench/baseline, its own module instance, pacing per execution) at its Concurrency of ${BASELINE_CONCURRENCY}. Each part of S5–S7 runs on its own; S7's ways side by side (they mostly wait), S5's and S6's one after the other (on 2 cores, a baseline's storm of refusals beside them takes the CPU their processes need). ` +
	"Every execution is its own `execute()` call on its own fake context (test/n8n/helpers/context.ts), with Continue On Fail on, and the executions of a way start together, as n8n runs them; each way has a sandbox of its own, one key. " +
	'In S6 each process is a separate node process (scripts/bench-process.ts, forked with IPC, each with its own modules, as queue-mode workers are); the processes load their modules first and all start on one go, so that their start-up is not timed. ' +
	`S6's default way (a) runs ${S6_RUNS} times and its figures are their mean (requests and 429s pooled, failures summed), with the runs' spread: three processes keep the shares their first window split, and one run moves by about ± 0.1 ×. ` +
	'N is the items of every execution of every process; "executions with a failure" counts the executions with at least one failed item.';

/** Section 1: a table per scenario, after the method's paragraphs (`method`: the console's report; docs/benchmarks.md states the method once, by hand). */
function batchSection(scenarios: Scenario[], resultsOf: (sc: Scenario) => BatchResult[], n8nNote: string, method = true): string {
	const parts = scenarios.map((sc) => {
		const rows = resultsOf(sc);
		const many = isExecutionScenario(sc) && executionCount(sc) > 1;
		const head = [
			'way',
			'C',
			'wall time',
			sc.q === undefined ? 'limit N·L/C' : 'quota-bound limit',
			'wall ÷ limit',
			'failed items',
			...(many ? ['executions with a failure'] : []),
			'credits spent',
			'requests sent',
			'answered 429',
			...(sc.guided ? ['WORKFLOW_BUSY answered / surfaced', 'double charges'] : []),
		];
		return (
			`#### ${scenarioLabel(sc)}\n\n` +
			table(
				head,
				rows.map((r) => [
					`${r.way} ${r.label}${runsNote(r) ? ` (${runsNote(r)})` : ''}`,
					r.concurrencyNote ?? r.concurrency,
					sec(r.wallMs),
					sec(r.limitMs),
					r.ratio.toFixed(3),
					r.failed,
					...(many ? [`${r.failedExecutions} / ${r.executions}`] : []),
					r.credits,
					r.requests,
					`${r.rejected429} (${pct(r.share429)})`,
					...(sc.guided ? [`${r.busyAnswered} / ${r.busySurfaced}`, r.doubleCharges] : []),
				]),
			)
		);
	});
	const hasExecutions = scenarios.some(isExecutionScenario);
	const text = method ? [LIMIT_TEXT, ...(hasExecutions ? [EXECUTIONS_TEXT] : [])] : [];
	return ['### 1. Batches under a quota, against the quota-bound limit', ...text, ...(n8nNote ? [n8nNote] : []), ...parts].join('\n\n');
}

/**
 * One line for scripts: `BENCH_SUMMARY {"S1":{"(a)":{…}},…,"S5":{"(a) 12×10":{…}},…,"targets":{"met":n,"missed":n,"missedNames":[…]}}`.
 * The ways of a scenario with parts (S5–S7) are keyed "<way> <part>".
 */
function summaryLine(results: BatchResult[], targets: string[][], n8nSkipped: string[]): string {
	const out: Record<string, unknown> = {};
	for (const r of results) {
		const scenario = (out[r.scenario] ??= {}) as Record<string, unknown>;
		scenario[r.part ? `${r.way} ${r.part}` : r.way] = {
			c: r.auto && DEFAULT_CONCURRENCY === undefined ? 'auto' : r.concurrency,
			wallS: Number((r.wallMs / 1000).toFixed(2)),
			limitS: Number((r.limitMs / 1000).toFixed(2)),
			ratio: Number(r.ratio.toFixed(3)),
			failed: r.failed,
			credits: r.credits,
			requests: r.requests,
			share429: Number(r.share429.toFixed(4)),
			...(r.scenario === 'S4' ? { busyAnswered: r.busyAnswered, busySurfaced: r.busySurfaced, doubleCharges: r.doubleCharges } : {}),
			...(r.executions !== undefined ? { executions: r.executions, failedExecutions: r.failedExecutions, doubleCharges: r.doubleCharges } : {}),
		};
	}
	if (n8nSkipped.length > 0) out.eSkipped = n8nSkipped;
	const missed = targets.filter((t) => t[2] === 'MISSED').map((t) => t[0]);
	out.targets = { met: targets.length - missed.length, missed: missed.length, missedNames: missed };
	return `BENCH_SUMMARY ${JSON.stringify(out)}`;
}

/** The block of docs/benchmarks.md that each full run rewrites. */
const FIGURES_BLOCK = 'bench-figures';

/** The batch chart's rows: every way of every scenario, in the report's order, with the ratios as the report gives them (so that scripts/bench-charts.ts draws the same chart from the report). */
function batchChartRows(results: BatchResult[]): BatchChartRow[] {
	return SCENARIOS.flatMap((sc) =>
		results
			.filter((r) => r.scenario === sc.id && r.part === sc.part)
			.map((r) => ({ scenario: scenarioKey(sc), way: wayLegend(r.way), ratio: Number(r.ratio.toFixed(3)), ...(r.failed > 0 ? { failed: r.failed } : {}) })),
	);
}

/** The targets of the batches (section 1), on the ways measured; the default way (a) of the new node, not the baseline. */
function batchTargets(results: BatchResult[]): string[][] {
	const find = (id: ScenarioId, way: string, part?: string) => results.find((r) => r.scenario === id && r.way === way && r.part === part);
	const ratioOf = (r: BatchResult) => `${r.ratio.toFixed(3)} × (${sec(r.wallMs)} / ${sec(r.limitMs)})`;
	const out: string[][] = [];
	for (const id of ['S1', 'S2'] as const) {
		const a = find(id, '(a)');
		if (!a) continue;
		const n = SCENARIOS.find((x) => x.id === id)?.n;
		out.push(
			[`${id} (a) default settings: wall ≤ 1.10 × quota-bound limit`, ratioOf(a), verdict(a.ratio <= 1.1)],
			[`${id} (a): 0 failed, credits = N`, `${a.failed} failed, ${a.credits} / ${n} credits`, verdict(a.failed === 0 && a.credits === n)],
			[`${id} (a): ≤ 5 % of requests answered 429`, pct(a.share429), verdict(a.share429 <= 0.05)],
		);
	}
	const s1b = find('S1', '(b)');
	if (s1b) out.push(['S1 (b) maximum concurrency: wall ≤ 1.15 × quota-bound limit', ratioOf(s1b), verdict(s1b.ratio <= 1.15)]);
	const s3a = find('S3', '(a)');
	const s3d = find('S3', '(d)');
	if (s3a && s3d) {
		out.push(
			['S3 (a): wall ≤ 1.05 × quota-bound limit', ratioOf(s3a), verdict(s3a.ratio <= 1.05)],
			['S3 (a): ahead of the naive loop (d) in the same run', `${sec(s3a.wallMs)} vs ${sec(s3d.wallMs)}`, verdict(s3a.wallMs < s3d.wallMs)],
		);
	}
	for (const r of results.filter((x) => x.scenario === 'S4')) {
		out.push([
			`S4 ${r.way}: 0 failed, 0 WORKFLOW_BUSY surfaced, 0 double charges`,
			`${r.failed} failed, ${r.busySurfaced} surfaced (${r.busyAnswered} answered), ${r.doubleCharges} double`,
			verdict(r.failed === 0 && r.busySurfaced === 0 && r.doubleCharges === 0),
		]);
	}
	for (const sc of SCENARIOS.filter(isExecutionScenario)) {
		const a = find(sc.id, '(a)', sc.part);
		if (!a) continue;
		const name = `${sc.id} (a) ${sc.part}`;
		const executions = a.executions !== undefined && a.executions > 1 ? ` in ${a.failedExecutions} / ${a.executions} executions` : '';
		if (sc.id === 'S5') {
			out.push(
				[`${name}: 0 failed items, credits = items`, `${a.failed} failed${executions}, ${a.credits} / ${sc.n} credits`, verdict(a.failed === 0 && a.credits === sc.n)],
				[`${name}: ≤ 5 % of requests answered 429`, `${pct(a.share429)} (${a.rejected429} / ${a.requests})`, verdict(a.share429 <= 0.05)],
				[`${name}: wall ≤ 1.15 × quota-bound limit`, ratioOf(a), verdict(a.ratio <= 1.15)],
			);
		} else if (sc.id === 'S6') {
			out.push([`${name}: 0 failed items`, `${a.failed} failed${executions}, ${a.credits} / ${sc.n} credits`, verdict(a.failed === 0)]);
			if (sc.part !== 'Retry-After') out.push([`${name}: ≤ 10 % of requests answered 429`, `${pct(a.share429)} (${a.rejected429} / ${a.requests})`, verdict(a.share429 <= 0.1)]);
			out.push([`${name}: wall ≤ 1.25 × quota-bound limit`, ratioOf(a), verdict(a.ratio <= 1.25)]);
		} else {
			out.push([`${name}: wall ≤ 1.15 × quota-bound limit`, `${ratioOf(a)}, ${a.failed} failed`, verdict(a.ratio <= 1.15)]);
		}
	}
	return out;
}

/** S5–S7: executions and processes sharing one key's quota. */
function isSharingScenario(sc: Scenario): boolean {
	return sc.id === 'S5' || sc.id === 'S6' || sc.id === 'S7';
}

/** Where S8 writes its chart, from the repository's root. */
const GRID_CHART_FILE = 'docs/images/bench-grid.svg';
const S8_BLOCK = 'bench-s8';

/** S8 (issue 26's grid), a part of its own: `--only S8` (with `--s8-filter <text>`, the cases whose "<form> <latency ms> <clients>" contain it). */
async function mainS8(): Promise<void> {
	const started = Date.now();
	const i = args.indexOf('--s8-filter');
	const filter = i >= 0 ? args[i + 1] : undefined;
	const write = !args.includes('--no-write') && filter === undefined;
	const reportFile = join(ROOT, 'docs/benchmarks.md');
	if (write) replaceBetween(readFileSync(reportFile, 'utf8'), blockStart(S8_BLOCK, 'npm run bench -- --only S8'), blockEnd(S8_BLOCK), '', 'docs/benchmarks.md');
	const m = machine();
	log(`machine: ${m.nproc} CPU (${m.cpu}), ${m.memory}, Node ${m.node}; build: ${ensureBuilt(ROOT, args.includes('--build'), log)}`);
	const results = await runS8(log, filter);
	const misses = s8Misses(results);
	const tables = s8Tables(results);
	const verdict = misses.length === 0 ? `Every target met in ${results.length} cases.` : `Targets missed:\n\n${misses.map((x) => `- ${x}`).join('\n')}`;
	process.stdout.write(`\n${tables}\n${verdict}\n\nS8 took ${sec(Date.now() - started)}\n`);
	if (write) {
		const figures = `Run of ${new Date().toISOString()}: \`npm run bench -- --only S8\`, ${m.nproc} CPUs (${m.cpu}), Node ${m.node}, load average ${m.load} at the start; it took ${sec(Date.now() - started)}.\n\n${tables}\n${verdict}`;
		writeFileSync(reportFile, replaceBetween(readFileSync(reportFile, 'utf8'), blockStart(S8_BLOCK, 'npm run bench -- --only S8'), blockEnd(S8_BLOCK), figures, 'docs/benchmarks.md'));
		writeFileSync(join(ROOT, GRID_CHART_FILE), gridChart(s8ChartRows(results), { subtitle: 'S8: a /generate quota of 10 per 1 s, the n8n node with default settings (npm run bench -- --only S8)' }));
		log(`wrote ${reportFile} (S8) and ${GRID_CHART_FILE}`);
	}
	process.stdout.write(`BENCH_S8_SUMMARY ${JSON.stringify({ cases: results.length, misses })}\n`);
}

async function main() {
	if (only?.has('S8')) {
		await mainS8();
		if (only.size === 1) return;
	}
	const started = Date.now();
	const m = machine();
	const build = ensureBuilt(ROOT, args.includes('--build'), log);
	const reportFile = join(ROOT, 'docs/benchmarks.md');
	// Fail now, not after the run, when the report has lost its generated block.
	if (WRITE) replaceBetween(readFileSync(reportFile, 'utf8'), blockStart(FIGURES_BLOCK, 'npm run bench'), blockEnd(FIGURES_BLOCK), '', 'docs/benchmarks.md');
	await loadZapierHelpers();
	log(`machine: ${m.nproc} CPU (${m.cpu}), ${m.memory}, Node ${m.node}`);

	const chosen = SCENARIOS.filter((sc) => !only || only.has(sc.id));
	if (chosen.some(isExecutionScenario)) log(`baseline: ${BASELINE_COMMIT} extracted in ${extractBaseline(ROOT)}`);
	await warmUp();
	// (e) and the processes of S6 are prepared before any measured run: each n8n command, and each ts-node start-up, is seconds of CPU.
	const n8nScenarios = chosen.filter((sc) => !sc.guided && !isExecutionScenario(sc));
	const n8nSkipped: string[] = [];
	const [n8nSetup] = await Promise.all([
		prepareN8nBatching(n8nScenarios).catch((e: unknown) => `preparing n8n failed: ${e instanceof Error ? e.message : String(e)}`),
		prepareWorkers(chosen),
	]);
	if (typeof n8nSetup === 'string') {
		n8nSkipped.push(n8nSetup);
		log(`1e. (e) not run: ${n8nSetup}`);
	}
	const results: BatchResult[] = [];
	try {
		// The latency-bound scenarios S1, S2 and S4 side by side (the process mostly waits). S5–S7 measure how
		// closely many executions and processes share one quota, which is timing-sensitive on 2 cores: each of
		// their parts runs on its own, one after the other (S7's ways side by side: they mostly wait; S5's and S6's
		// one after the other: a baseline's storm of refusals beside them takes the CPU their processes need).
		const together = chosen.filter((sc) => sc.sideBySide && !isSharingScenario(sc));
		for (const list of await Promise.all(together.map((sc) => runScenario(sc)))) results.push(...list);
		for (const sc of chosen.filter(isSharingScenario)) results.push(...(await runScenario(sc)));
	} finally {
		// 18 processes exiting take CPU: the scenario after them (S3, bound by the process) would pay for it in its first way.
		await stopWorkers();
	}
	for (const sc of chosen.filter((x) => !x.sideBySide && !isSharingScenario(x))) results.push(...(await runScenario(sc)));
	// (e) last, one n8n at a time, with nothing else running.
	if (typeof n8nSetup !== 'string') {
		const ran = await runN8nBatching(n8nSetup, n8nScenarios, n8nSkipped);
		results.push(...ran);
		// Keep n8n's logs when something went wrong; drop its database and logs otherwise.
		if (n8nSkipped.length === 0) rmSync(n8nSetup.work, { recursive: true, force: true });
	}
	const n8nNote = n8nBatchingNote(results.some((r) => r.way === '(e)'), n8nSkipped);
	const resultsOf = (sc: Scenario) => results.filter((r) => r.scenario === sc.id && r.part === sc.part);
	if (only) {
		const targets = batchTargets(results);
		process.stdout.write(
			`\n${batchSection(chosen, resultsOf, n8nNote)}\n\n### Targets\n\n${table(['target', 'measured', 'verdict'], targets)}\n\nbench took ${sec(Date.now() - started)}\n\n${summaryLine(results, targets, n8nSkipped)}\n`,
		);
		return;
	}

	log('2. poll cost');
	const costs: PollCost[] = [];
	for (const f of [
		(sb: Sandbox) => pollCostN8n(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostN8n(sb, 'upcomingScheduledDraft'),
		(sb: Sandbox) => pollCostZapier(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostZapier(sb, 'upcomingScheduledDraft'),
	]) {
		const sb = await startSandbox({ keySeed: 'chaos-bench', quota: { default: { limit: 1_000_000, windowMs: 60_000 } } });
		try {
			costs.push(await f(sb));
		} finally {
			await sb.close();
		}
	}
	log('2b. n8n trigger state after 10,000 posts');
	const state = await triggerState();

	log('3. footprint');
	const zapierLoad = loadTime([join(ROOT, 'zapier/index.js')], 'zapier-platform-core', join(ROOT, 'zapier'));
	const n8nDir = join(ROOT, 'n8n');
	const n8nPkg = JSON.parse(readFileSync(join(n8nDir, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
	const n8nFiles = [...n8nPkg.n8n.nodes, ...n8nPkg.n8n.credentials];
	const n8nLoad = loadTime(n8nFiles.map((f) => join(n8nDir, f)), 'n8n-workflow', n8nDir);
	const n8nPack = packSize(n8nDir);
	const zapierPack = packSize(join(ROOT, 'zapier'));

	// ---- targets
	const targets = [
		...batchTargets(results),
		...costs.map((c) => [`${c.trigger}: exactly 1 request per steady-state poll`, `${c.perPoll.min}–${c.perPoll.max} (mean ${c.perPoll.mean.toFixed(2)})`, verdict(c.perPoll.min === 1 && c.perPoll.max === 1)]),
		['n8n trigger state ≤ 4 KB after 10,000 posts', `${state.bytes} B`, verdict(state.bytes <= 4096)],
		["Zapier app's own load on top of zapier-platform-core ≤ 25 ms", `${zapierLoad.own.toFixed(1)} ms (total ${zapierLoad.median.toFixed(1)} ms)`, verdict(zapierLoad.own <= 25)],
		["n8n modules' own load on top of n8n-workflow ≤ 25 ms", `${n8nLoad.own.toFixed(1)} ms (total ${n8nLoad.median.toFixed(1)} ms)`, verdict(n8nLoad.own <= 25)],
		['n8n tarball < 150 KB', kb(n8nPack.size), verdict(n8nPack.size < 150 * 1024)],
	];

	const sections: string[] = [];
	sections.push(
		`### 2. Poll cost (${POLLS} steady-state polls after activation; 0–3 new items between polls)\n\n` +
			table(
				['trigger', 'requests per poll (min–max)', 'mean', 'fired', 'expected'],
				costs.map((c) => [c.trigger, `${c.perPoll.min}–${c.perPoll.max}`, c.perPoll.mean.toFixed(2), c.fired, c.expected]),
			) +
			`\n\nn8n New Published Post, static data after ${state.posts.toLocaleString('en-US')} posts (batches of 100 published at the same second, polled after each batch): **${state.bytes} bytes** of JSON (${state.shape}); ${state.fired.toLocaleString('en-US')} fired, ${state.unique.toLocaleString('en-US')} unique, in ${state.polls} polls and ${state.requests} requests.`,
	);
	sections.push(
		'### 3. Footprint\n\n' +
			table(
				['what', 'figure'],
				[
					[
						'Zapier app load (`require` of zapier/index.js, fresh process, median of 5)',
						`${zapierLoad.median.toFixed(1)} ms (runs: ${zapierLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which zapier-platform-core alone ${zapierLoad.dependency.toFixed(1)} ms, the app's own code ${zapierLoad.own.toFixed(1)} ms`,
					],
					[
						'n8n modules load (`require` of the 2 nodes + credential in dist/, fresh process, median of 5)',
						`${n8nLoad.median.toFixed(1)} ms (runs: ${n8nLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which n8n-workflow alone ${n8nLoad.dependency.toFixed(1)} ms, the package's own code ${n8nLoad.own.toFixed(1)} ms`,
					],
					[`n8n package \`${n8nPack.name}\` (npm pack, root)`, `${kb(n8nPack.size)} packed, ${kb(n8nPack.unpackedSize)} unpacked, ${n8nPack.files} files`],
					[`Zapier package \`${zapierPack.name}\` (npm pack, zapier/)`, `${kb(zapierPack.size)} packed, ${kb(zapierPack.unpackedSize)} unpacked, ${zapierPack.files} files`],
				],
			),
	);
	sections.push('### Targets\n\n' + table(['target', 'measured', 'verdict'], targets));

	const report = [batchSection(chosen, resultsOf, n8nNote), ...sections].join('\n\n');
	const ran = results.some((r) => r.way === '(e)');
	const fileReport = [batchSection(chosen, resultsOf, n8nBatchingNote(ran, n8nSkipped, false), false), ...sections].join('\n\n');
	process.stdout.write(`\n${report}\n\nbench took ${sec(Date.now() - started)}\n`);
	const summary = summaryLine(results, targets, n8nSkipped);

	if (WRITE) {
		// docs/benchmarks.md is a report kept by hand around one generated block, the figures of the latest run.
		const file = reportFile;
		const figures =
			`Run of ${new Date().toISOString()}: \`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\`, ${build}.\n\n` +
			table(['machine', ''], [
				['CPUs (`nproc`)', m.nproc],
				['CPU model', m.cpu],
				['memory', m.memory],
				['Node', m.node],
				['platform', m.platform],
				['load average (1/5/15 min) at the start', m.load],
			]) +
			`\n\n${fileReport}`;
		writeFileSync(file, replaceBetween(readFileSync(file, 'utf8'), blockStart(FIGURES_BLOCK, 'npm run bench'), blockEnd(FIGURES_BLOCK), figures, 'docs/benchmarks.md'));
		log(`wrote ${file}`);
		writeFileSync(join(ROOT, BENCH_CHART_FILE), batchChart(batchChartRows(results)));
		log(`wrote ${BENCH_CHART_FILE}`);
	}
	// Last line of the output, for scripts.
	process.stdout.write(`${summary}\n`);
}

main().catch((e: unknown) => {
	process.stderr.write(`[bench] failed: ${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
