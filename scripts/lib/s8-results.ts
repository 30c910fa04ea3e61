/**
 * S8's results (scripts/lib/bench-s8.ts runs the cases): a case's runs as one result, the order the cases run in,
 * the verdicts against the targets, and the tables and chart rows the bench writes. Pure: no sandbox, no node, no
 * process, so the tests read it without loading the runtimes.
 */
import { meanWall, sumOf } from './bench-runs';
import { S8_PROCESS_RUNS } from './bench-targets';
import { pct, table } from './bench-format';
import type { GridChartRow } from './bench-charts';
import { EXTRA_FORMS, GRID_CLIENTS, GRID_FORMS, GRID_TARGETS, WINDOW_TARGETS, type GridCase, type GridResult } from './pacing-grid';

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
