/**
 * The bench's section 1, how a scenario is run: its ways (the n8n node at default settings, at the maximum
 * concurrency and at 1, a naive loop, many executions, the baseline), each on a sandbox of its own, and what
 * each measured. S6's way over processes is in bench-processes.ts, (e), n8n's own HTTP Request node, in
 * bench-http-batching.ts.
 */
import axios from 'axios';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { runNode } from '../../test/n8n/helpers/context';
import { BASELINE_COMMIT, BASELINE_CONCURRENCY, loadNode, runExecutions, type NodeKind } from './bench-executions';
import { S6_RUNS, meanOfRuns, runsNote } from './bench-runs';
import { clip, firstMessages, log, pct, sec } from './bench-format';
import { processesWay } from './bench-processes';
import {
	DEFAULT_CONCURRENCY,
	GUIDED_STEPS,
	MAX_CONCURRENCY,
	X_RATELIMIT,
	executionCount,
	isExecutionScenario,
	itemsPerExecution,
	limitOf,
	outcomeOf,
	scenarioKey,
	scenarioLabel,
	type BatchResult,
	type RunOutcome,
	type Scenario,
	type Way,
} from './bench-scenarios';

const ROOT = join(__dirname, '..', '..');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A way's result: S6's default way is the mean of S6_RUNS runs (three processes vary from run to run: bench-runs.ts), every other way one run. */
export async function measureWay(scenario: Scenario, way: Way): Promise<BatchResult> {
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

/** One small run of each way first, so that no measured way pays for loading and compiling the code. */
export async function warmUp(): Promise<void> {
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

export async function runScenario(scenario: Scenario): Promise<BatchResult[]> {
	const ways = waysOf(scenario);
	log(`1. ${scenarioLabel(scenario)}: ${ways.length} ways${scenario.sideBySide ? ', side by side' : ', one after the other'}`);
	if (scenario.sideBySide) return await Promise.all(ways.map((w) => measureWay(scenario, w)));
	const out: BatchResult[] = [];
	for (const w of ways) out.push(await measureWay(scenario, w));
	return out;
}
