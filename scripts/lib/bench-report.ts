/**
 * The bench's report of section 1: the method's paragraphs, a table per scenario, the targets and their
 * verdicts, the chart's rows, and the one-line summary for scripts.
 */
import { BASELINE_COMMIT, BASELINE_CONCURRENCY } from './bench-executions';
import { S6_RUNS, runsNote } from './bench-runs';
import { BENCH_BLOCKS, wayLegend, type BatchChartRow } from './bench-charts';
import { pct, sec, table, verdict } from './bench-format';
import { BATCH_TARGETS as T, percent, times } from './bench-targets';
import {
	DEFAULT_CONCURRENCY,
	SCENARIOS,
	executionCount,
	isExecutionScenario,
	scenarioKey,
	scenarioLabel,
	type BatchResult,
	type Scenario,
	type ScenarioId,
} from './bench-scenarios';

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
export function batchSection(scenarios: Scenario[], resultsOf: (sc: Scenario) => BatchResult[], n8nNote: string, method = true): string {
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
export function summaryLine(results: BatchResult[], targets: string[][], n8nSkipped: string[]): string {
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
export const FIGURES_BLOCK = BENCH_BLOCKS.figures.name;

/** The batch chart's rows: every way of every scenario, in the report's order, with the ratios as the report gives them (so that scripts/lib/bench-charts.ts draws the same chart from the report). */
export function batchChartRows(results: BatchResult[]): BatchChartRow[] {
	return SCENARIOS.flatMap((sc) =>
		results
			.filter((r) => r.scenario === sc.id && r.part === sc.part)
			.map((r) => ({ scenario: scenarioKey(sc), way: wayLegend(r.way), ratio: Number(r.ratio.toFixed(3)), ...(r.failed > 0 ? { failed: r.failed } : {}) })),
	);
}

/** The targets of the batches (section 1), on the ways measured; the default way (a) of the new node, not the baseline. */
export function batchTargets(results: BatchResult[]): string[][] {
	const find = (id: ScenarioId, way: string, part?: string) => results.find((r) => r.scenario === id && r.way === way && r.part === part);
	const ratioOf = (r: BatchResult) => `${r.ratio.toFixed(3)} × (${sec(r.wallMs)} / ${sec(r.limitMs)})`;
	const out: string[][] = [];
	for (const id of ['S1', 'S2'] as const) {
		const a = find(id, '(a)');
		if (!a) continue;
		const n = SCENARIOS.find((x) => x.id === id)?.n;
		out.push(
			[`${id} (a) default settings: wall ≤ ${times(T.s1s2Ratio)} quota-bound limit`, ratioOf(a), verdict(a.ratio <= T.s1s2Ratio)],
			[`${id} (a): 0 failed, credits = N`, `${a.failed} failed, ${a.credits} / ${n} credits`, verdict(a.failed === 0 && a.credits === n)],
			[`${id} (a): ≤ ${percent(T.s1s2Share429)} of requests answered 429`, pct(a.share429), verdict(a.share429 <= T.s1s2Share429)],
		);
	}
	const s1b = find('S1', '(b)');
	if (s1b) out.push([`S1 (b) maximum concurrency: wall ≤ ${times(T.s1MaxConcurrencyRatio)} quota-bound limit`, ratioOf(s1b), verdict(s1b.ratio <= T.s1MaxConcurrencyRatio)]);
	const s3a = find('S3', '(a)');
	const s3d = find('S3', '(d)');
	if (s3a && s3d) {
		out.push(
			[`S3 (a): wall ≤ ${times(T.s3Ratio)} quota-bound limit`, ratioOf(s3a), verdict(s3a.ratio <= T.s3Ratio)],
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
				[`${name}: ≤ ${percent(T.s5Share429)} of requests answered 429`, `${pct(a.share429)} (${a.rejected429} / ${a.requests})`, verdict(a.share429 <= T.s5Share429)],
				[`${name}: wall ≤ ${times(T.s5Ratio)} quota-bound limit`, ratioOf(a), verdict(a.ratio <= T.s5Ratio)],
			);
		} else if (sc.id === 'S6') {
			out.push([`${name}: 0 failed items`, `${a.failed} failed${executions}, ${a.credits} / ${sc.n} credits`, verdict(a.failed === 0)]);
			if (sc.part !== 'Retry-After') out.push([`${name}: ≤ ${percent(T.s6Share429)} of requests answered 429`, `${pct(a.share429)} (${a.rejected429} / ${a.requests})`, verdict(a.share429 <= T.s6Share429)]);
			out.push([`${name}: wall ≤ ${times(T.s6Ratio)} quota-bound limit`, ratioOf(a), verdict(a.ratio <= T.s6Ratio)]);
		} else {
			out.push([`${name}: wall ≤ ${times(T.s7Ratio)} quota-bound limit`, `${ratioOf(a)}, ${a.failed} failed`, verdict(a.ratio <= T.s7Ratio)]);
		}
	}
	return out;
}
