/**
 * Scenario S8 of `npm run bench` (issue 26), on the real sandbox and real time: every case of the grid
 * (scripts/lib/pacing-grid.ts: six ways the quota is told × three latencies × three client setups, a
 * `/generate` quota of 10 per 1 s) through the n8n node's Post › Generate, default settings. One execution and
 * twelve run in this process (each execution its own `execute()`, started together); three processes are forked
 * workers (scripts/bench-process.ts), each running 4 executions of 20 items, and each of their cases runs
 * S8_PROCESS_RUNS times. It runs alone (`--only S8`; its block in docs/benchmarks.md says how long it took), so that
 * the full bench stays short.
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../sandbox/server';
import { meanWall, sumOf } from './bench-runs';
import { S8_PROCESS_RUNS } from './bench-targets';
import { pct, table } from './bench-format';
import { loadNode, runExecutions } from './bench-executions';
import type { ExecutionOutcome } from './bench-executions';
import { forkWorker, runOnWorker } from './bench-workers';
import type { GridChartRow } from './bench-charts';
import { EXTRA_FORMS, gridCases, gridLimitMs, GRID_CLIENTS, GRID_FORMS, GRID_QUOTA, GRID_TARGETS, s8WindowCases, WINDOW_TARGETS, type GridCase, type GridResult } from './pacing-grid';

const ROOT = `${__dirname}/../..`;

/** One case: a fresh sandbox in the case's form and latency, the clients started together, the sandbox's counts. */
async function runCase(c: GridCase, workers: ChildProcess[]): Promise<GridResult> {
	const lines: string[] = [];
	const items = c.clients.processes * c.clients.executions * c.clients.items;
	const sb = await startSandbox({
		keySeed: 'bench-s8',
		credits: 10 * items,
		quota: { generate: { limit: (c.window ?? GRID_QUOTA).limit, windowMs: (c.window ?? GRID_QUOTA).windowMs }, default: { limit: 1_000_000, windowMs: 60_000 } },
		faults: { latencyMs: c.latencyMs },
		...c.form.sandbox,
		log: (line) => lines.push(line),
	});
	try {
		sb.resetStats();
		const spec = (p: number) => ({ baseUrl: sb.baseUrl, apiKey: sb.keys.full, executions: c.clients.executions, items: c.clients.items, label: `S8 ${c.form.id} ${c.latencyMs} p${p}` });
		const started = performance.now();
		let outcomes: ExecutionOutcome[];
		if (c.clients.processes === 1) outcomes = await runExecutions(loadNode('new', ROOT), spec(0));
		else outcomes = (await Promise.all(workers.slice(0, c.clients.processes).map((w, p) => runOnWorker(w, spec(p))))).flat();
		const wallMs = performance.now() - started;
		const sent = lines.filter((l) => /^POST \/api\/v1\/generate/.test(l));
		const limitMs = gridLimitMs(c.clients, c.latencyMs, c.window ?? GRID_QUOTA);
		return {
			...(c.window ? { window: c.window.id } : {}),
			form: c.form.id,
			latencyMs: c.latencyMs,
			clients: c.clients.id,
			wallMs,
			limitMs,
			ratio: wallMs / limitMs,
			failed: outcomes.reduce((sum, o) => sum + o.failed, 0),
			credits: sb.stats.creditsSpent,
			items,
			requests: sent.length,
			refused429: sent.filter((l) => l.endsWith('-> 429')).length,
		};
	} finally {
		await sb.close();
	}
}

/** Runs of each three-process case (the case's wall is their mean): scripts/lib/bench-targets.ts says why. */
export { S8_PROCESS_RUNS };

/** A case's runs as one result: the mean wall, 429s and requests over all runs, the failed items of every run summed, a credit mismatch of any run shown as the case's, and each run's ratio. */
export function meanRun(runs: GridResult[]): GridResult {
	if (runs.length === 0) throw new Error('meanRun: a case without a run');
	if (runs.length === 1) return runs[0];
	const sum = (pick: (r: GridResult) => number) => sumOf(runs, pick);
	const mismatch = runs.find((r) => r.credits !== r.items);
	return {
		...runs[0],
		...meanWall(runs),
		failed: sum((r) => r.failed),
		credits: mismatch?.credits ?? runs[0].credits,
		items: mismatch?.items ?? runs[0].items,
		requests: sum((r) => r.requests),
		refused429: sum((r) => r.refused429),
	};
}

/**
 * The order the cases run in: each one-process case once; each three-process case S8_PROCESS_RUNS times, taking
 * turns with the other forms of its latency (a load that comes and goes on the machine falls on every form alike).
 */
export function s8Schedule(cases: GridCase[]): GridCase[] {
	const order: GridCase[] = [];
	const turns = new Map<string, GridCase[]>();
	for (const c of cases) {
		const key = `${c.clients.id} ${c.latencyMs}`;
		if (c.clients.processes === 1) order.push(c);
		else turns.set(key, [...(turns.get(key) ?? []), c]);
	}
	for (const group of turns.values()) for (let i = 0; i < S8_PROCESS_RUNS; i++) order.push(...group);
	return order;
}

/** Runs every case of the grid (`filter` keeps the cases whose "<form> <latency> <clients>" contains it), in s8Schedule's order. */
export async function runS8(log: (line: string) => void, filter?: string): Promise<GridResult[]> {
	const cases = [...gridCases(), ...s8WindowCases()].filter((c) => !filter || `${c.form.id} ${c.latencyMs} ${c.clients.id}${c.window ? ` ${c.window.id}` : ''}`.includes(filter));
	const needed = Math.max(0, ...cases.map((c) => (c.clients.processes > 1 ? c.clients.processes : 0)));
	log(`S8: ${cases.length} cases${needed ? `, forking ${needed} node processes first` : ''}`);
	const workers = await Promise.all(Array.from({ length: needed }, () => forkWorker('new')));
	const runs = new Map<GridCase, GridResult[]>(cases.map((c) => [c, []]));
	try {
		for (const c of s8Schedule(cases)) {
			const r = await runCase(c, workers);
			runs.get(c)?.push(r);
			log(`S8 ${c.window ? `${c.window.id} ` : ''}${c.clients.id} L=${c.latencyMs} ${c.form.id}: ${(r.wallMs / 1000).toFixed(2)} s (limit ${(r.limitMs / 1000).toFixed(1)} s, ${r.ratio.toFixed(3)} ×), ${r.failed} failed, ${r.credits} credits for ${r.items} items, ${r.requests} requests (${r.refused429} × 429)`);
		}
	} finally {
		for (const w of workers) if (w.connected) w.send({ type: 'exit' });
	}
	return cases.map((c) => meanRun(runs.get(c) ?? []));
}

/**
 * The verdicts per case: [case, what failed] (empty when all are met). S8's 1 s cases against issue 26's targets,
 * the 10 s window's (s8WindowCases) against issue 40's; each compared with `Retry-After` alone in its own setup.
 */
export function s8Misses(results: GridResult[]): string[] {
	const misses: string[] = [];
	for (const r of results) {
		const form = [...GRID_FORMS, ...EXTRA_FORMS].find((f) => f.id === r.form);
		const t = r.window
			? { ...WINDOW_TARGETS, bound: r.form === 'xrl-reset' ? WINDOW_TARGETS.ratioFullest : WINDOW_TARGETS.ratioOneProcess }
			: { ...GRID_TARGETS, bound: r.clients === '3x4x20' ? GRID_TARGETS.ratioProcesses : GRID_TARGETS.ratioOneProcess };
		const name = `${r.window ? `${r.window} ` : ''}${r.clients} L=${r.latencyMs} ${r.form}`;
		if (r.failed > 0 || r.credits !== r.items) misses.push(`${name}: ${r.failed} failed, ${r.credits} credits for ${r.items} items`);
		if (r.ratio > t.bound) misses.push(`${name}: ${r.ratio.toFixed(3)} × > ${t.bound} ×`);
		const share = r.requests === 0 ? 0 : r.refused429 / r.requests;
		const cap = form?.told ? t.share429Told : t.share429Refusals;
		if (share > cap) misses.push(`${name}: ${pct(share)} answered 429 > ${pct(cap)}`);
		const alone = results.find((x) => x.window === r.window && x.form === 'retry-after-s' && x.latencyMs === r.latencyMs && x.clients === r.clients);
		if (form?.told && alone && r.wallMs > alone.wallMs * t.vsRetryAfter) misses.push(`${name}: ${(r.wallMs / alone.wallMs).toFixed(3)} × the Retry-After-only case`);
	}
	return misses;
}

/** The grid as Markdown: one table per client setup, a row per form, a column per latency (ratio, then share answered 429). */
export function s8Tables(all: GridResult[]): string {
	const out: string[] = [];
	const results = all.filter((r) => !r.window);
	const latencies = [...new Set(results.map((r) => r.latencyMs))];
	for (const clients of [...new Set(results.map((r) => r.clients))]) {
		const runs = results.find((r) => r.clients === clients)?.runRatios?.length;
		const mean = runs ? `; the mean of ${runs} runs, and the runs' spread` : '';
		out.push(`**${GRID_CLIENTS.find((c) => c.id === clients)?.label ?? clients}** (wall ÷ quota-bound limit, share answered 429; failed items and credits where not 0 and = items${mean})\n`);
		const rows = GRID_FORMS.map((form) => [
			form.label,
			...latencies.map((l) => {
				const r = results.find((x) => x.clients === clients && x.latencyMs === l && x.form === form.id);
				if (!r) return '–';
				const extra = r.failed > 0 || r.credits !== r.items ? `, **${r.failed} failed, ${r.credits} credits**` : '';
				const spread = r.runRatios ? ` (runs ${Math.min(...r.runRatios).toFixed(2)}-${Math.max(...r.runRatios).toFixed(2)} ×)` : '';
				return `${r.ratio.toFixed(2)} × (${(r.wallMs / 1000).toFixed(1)} s for ${(r.limitMs / 1000).toFixed(1)} s), ${pct(r.requests ? r.refused429 / r.requests : 0)}${extra}${spread}`;
			}),
		]);
		out.push(table(['form', ...latencies.map((l) => `L = ${l / 1000} s`)], rows), '');
	}
	const windowed = all.filter((r) => r.window);
	if (windowed.length > 0) {
		out.push(`**A window of 10 s** (issue 40: 25 per 10 s, 1 execution × 100 items, L = 1 s; wall ÷ quota-bound limit, share answered 429)\n`);
		const rows = windowed.map((r) => [[...GRID_FORMS, ...EXTRA_FORMS].find((f) => f.id === r.form)?.label ?? r.form, `${r.ratio.toFixed(3)} × (${(r.wallMs / 1000).toFixed(1)} s for ${(r.limitMs / 1000).toFixed(1)} s), ${pct(r.requests ? r.refused429 / r.requests : 0)}${r.failed > 0 || r.credits !== r.items ? `, **${r.failed} failed, ${r.credits} credits**` : ''}`]);
		out.push(table(['form', 'L = 1 s'], rows), '');
	}
	return out.join('\n');
}

/** The chart's rows: the forms and client setups by their labels. */
export function s8ChartRows(results: GridResult[]): GridChartRow[] {
	return results.filter((r) => !r.window).map((r) => ({
		form: GRID_FORMS.find((f) => f.id === r.form)?.label ?? r.form,
		latencyMs: r.latencyMs,
		clients: GRID_CLIENTS.find((c) => c.id === r.clients)?.label ?? r.clients,
		ratio: r.ratio,
	}));
}
