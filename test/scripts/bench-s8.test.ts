/**
 * S8's repeated three-process cases (scripts/lib/bench-s8.ts): the median run is the case's result, its failures and
 * credits are counted over every run, and the tables show the runs' spread.
 */
import { medianRun, s8Misses, s8Tables } from '../../scripts/lib/bench-s8';
import type { GridResult } from '../../scripts/lib/pacing-grid';

const run = (form: string, wallMs: number, extra: Partial<GridResult> = {}): GridResult => ({
	form,
	latencyMs: 1_000,
	clients: '3x4x20',
	wallMs,
	limitMs: 24_000,
	ratio: wallMs / 24_000,
	failed: 0,
	credits: 240,
	items: 240,
	requests: 260,
	refused429: 20,
	...extra,
});

test('the median run by wall time is kept, with every run ratio in order', () => {
	const r = medianRun([run('ietf', 30_000), run('ietf', 26_400), run('ietf', 28_800)]);
	expect(r.wallMs).toBe(28_800);
	expect(r.runRatios).toEqual([1.25, 1.1, 1.2]);
});

test('a failed item or a credit mismatch in any run is the case result, even when the median run had none', () => {
	const r = medianRun([run('ietf', 30_000, { failed: 2 }), run('ietf', 26_400, { credits: 241 }), run('ietf', 28_800)]);
	expect(r.failed).toBe(2);
	expect(r.credits).toBe(241);
	expect(s8Misses([r])).toContain('3x4x20 L=1000 ietf: 2 failed, 241 credits for 240 items');
});

test('one run is kept as it is', () => {
	const one = run('ietf', 26_400);
	expect(medianRun([one])).toBe(one);
});

test('the comparison with the Retry-After-only case is between medians, and the table shows each spread', () => {
	const alone = medianRun([run('retry-after-s', 26_000), run('retry-after-s', 30_000), run('retry-after-s', 28_000)]);
	const told = medianRun([run('ietf', 27_000), run('ietf', 29_000), run('ietf', 31_000)]);
	// 29 s against 28 s: within 5 %, though the told form's slowest run is 1.19 × the other's fastest.
	expect(s8Misses([alone, told])).toEqual([]);
	expect(s8Tables([alone, told])).toContain('1.21 × (29.0 s for 24.0 s), 7.7 % (runs 1.13-1.29 ×)');
	expect(s8Tables([alone, told])).toContain('the median of 3 runs by wall time');
});
