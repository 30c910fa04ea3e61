/**
 * Scenario S8 of `npm run bench` (issue 26), on the real sandbox and real time: every case of the grid
 * (scripts/lib/pacing-grid.ts: six ways the quota is told × three latencies × three client setups, a
 * `/generate` quota of 10 per 1 s) through the n8n node's Post › Generate, default settings. One execution and
 * twelve run in this process (each execution its own `execute()`, started together); three processes are forked
 * workers (scripts/bench-process.ts), each running 4 executions of 20 items, and each of their cases runs
 * S8_PROCESS_RUNS times. It runs alone (`--only S8`; its block in docs/benchmarks.md says how long it took), so that
 * the full bench stays short. Its results are read, judged and written by scripts/lib/s8-results.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../sandbox/server';
import { loadNode, runExecutions } from './bench-executions';
import type { ExecutionOutcome } from './bench-executions';
import { forkWorker, runOnWorker } from './bench-workers';
import { gridCases, gridLimitMs, GRID_QUOTA, s8WindowCases, type GridCase, type GridResult } from './pacing-grid';
import { meanRun, s8Schedule } from './s8-results';

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

