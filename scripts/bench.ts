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
 *      modules in fresh node processes (median of LOAD_RUNS, 11), and `npm pack` sizes.
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
 * `BENCH_SUMMARY {json}` (one line; see `summaryLine` in
 * scripts/lib/bench-report.ts).
 *
 * This file runs the parts in order and writes the report; each part is a
 * module of scripts/lib/: the scenarios and their limit (bench-scenarios.ts),
 * their ways (bench-ways.ts; S6's processes: bench-processes.ts; (e):
 * bench-http-batching.ts), the report of section 1 (bench-report.ts), poll
 * cost (bench-triggers.ts), footprint (bench-footprint.ts) and S8
 * (bench-s8.ts).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_BLOCKS, BENCH_CHART_FILE, CHART_FIGURES, GRID_CHART_FILE, GRID_SUBTITLE, batchChart, gridChart, withChartFigure } from './lib/bench-charts';
import { runS8 } from './lib/bench-s8';
import { s8ChartRows, s8Misses, s8Tables } from './lib/s8-results';
import { blockEnd, blockStart, replaceBetween } from './lib/generated-blocks';
import { BASELINE_COMMIT, extractBaseline } from './lib/bench-executions';
import { prepareWorkers, stopWorkers } from './lib/bench-processes';
import { loadZapierHelpers, measurePolls } from './lib/bench-triggers';
import { ensureBuilt, measureFootprint } from './lib/bench-footprint';
import { log, machine, sec, table } from './lib/bench-format';
import { SCENARIOS, isExecutionScenario, isSharingScenario, type BatchResult, type Scenario } from './lib/bench-scenarios';
import { runScenario, warmUp } from './lib/bench-ways';
import { n8nBatchingNote, prepareN8nBatching, runN8nBatching } from './lib/bench-http-batching';
import { FIGURES_BLOCK, batchChartRows, batchSection, batchTargets, summaryLine } from './lib/bench-report';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const only = (() => {
	const i = args.indexOf('--only');
	return i >= 0 ? new Set(String(args[i + 1] ?? '').split(',')) : undefined;
})();
const WRITE = !args.includes('--no-write') && only === undefined;

const S8_BLOCK = BENCH_BLOCKS.s8.name;

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
		const run = `Run of ${new Date().toISOString()}: \`npm run bench -- --only S8\`, ${m.nproc} CPUs (${m.cpu}), Node ${m.node}, load average ${m.load} at the start; it took ${sec(Date.now() - started)}.`;
		const figures = withChartFigure(`${run}\n\n${tables}\n${verdict}`, CHART_FIGURES.grid);
		writeFileSync(reportFile, replaceBetween(readFileSync(reportFile, 'utf8'), blockStart(S8_BLOCK, 'npm run bench -- --only S8'), blockEnd(S8_BLOCK), figures, 'docs/benchmarks.md'));
		writeFileSync(join(ROOT, GRID_CHART_FILE), gridChart(s8ChartRows(results), { subtitle: GRID_SUBTITLE }));
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
	// First, with nothing else running: measured after the n8n runs, the load times came 20-30 % slower (n8n's own
	// load 29.7 ms for a target of 25 ms; 19-20 ms measured alone right after).
	const footprint = only ? undefined : measureFootprint(ROOT, log);

	const chosen = SCENARIOS.filter((sc) => !only || only.has(sc.id));
	// The warm-up runs the baseline's executions too, whatever the scenarios chosen: it is extracted first.
	log(`baseline: ${BASELINE_COMMIT} extracted in ${extractBaseline(ROOT)}`);
	await warmUp();
	// (e) and the processes of S6 are prepared before any measured run: each n8n command, and each ts-node start-up, is seconds of CPU.
	const n8nScenarios = chosen.filter((sc) => !sc.guided && !isExecutionScenario(sc));
	const n8nSkipped: string[] = [];
	const [n8nSetup] = await Promise.all([
		prepareN8nBatching(n8nScenarios, args.includes('--no-n8n')).catch((e: unknown) => `preparing n8n failed: ${e instanceof Error ? e.message : String(e)}`),
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

	const polls = await measurePolls(log);
	if (!footprint) throw new Error('the footprint is measured on every full run');
	const targets = [...batchTargets(results), ...polls.targets, ...footprint.targets];
	const sections = [polls.section, footprint.section];
	sections.push('### Targets\n\n' + table(['target', 'measured', 'verdict'], targets));

	const report = [batchSection(chosen, resultsOf, n8nNote), ...sections].join('\n\n');
	const ran = results.some((r) => r.way === '(e)');
	const fileReport = [batchSection(chosen, resultsOf, n8nBatchingNote(ran, n8nSkipped, false), false), ...sections].join('\n\n');
	process.stdout.write(`\n${report}\n\nbench took ${sec(Date.now() - started)}\n`);
	const summary = summaryLine(results, targets, n8nSkipped);

	if (WRITE) {
		// docs/benchmarks.md is a report kept by hand around the generated blocks: this one holds the figures and the chart of the latest full run.
		const file = reportFile;
		const run = `Run of ${new Date().toISOString()}: \`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\`, ${build}; it took ${sec(Date.now() - started)}.`;
		const figures =
			`${withChartFigure(run, CHART_FIGURES.batches)}\n\n` +
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
