/**
 * S6's repeated default way (scripts/lib/bench-runs.ts): the mean of the runs is the way's result, its failures,
 * credits, double charges and 429s are counted over every run, and the note shows the runs' spread.
 */
import { meanOfRuns, runsNote, S6_RUNS, type RunFigures } from '../../scripts/lib/bench-runs';

const run = (wallMs: number, extra: Partial<RunFigures> = {}): RunFigures => ({
	wallMs,
	limitMs: 24_000,
	ratio: wallMs / 24_000,
	failed: 0,
	credits: 240,
	requests: 260,
	rejected429: 20,
	share429: 20 / 260,
	busyAnswered: 0,
	busySurfaced: 0,
	doubleCharges: 0,
	executions: 12,
	failedExecutions: 0,
	...extra,
});

test('S6 runs its default way more than once: a single run of three processes moves by about ± 0.1 ×', () => {
	expect(S6_RUNS).toBeGreaterThanOrEqual(3);
});

test('the mean wall, the 429s pooled over every request, and each run kept', () => {
	const mean = meanOfRuns([run(27_000), run(30_000, { requests: 270, rejected429: 30 }), run(28_500)], 240);
	expect(mean.wallMs).toBe(28_500);
	expect(mean.ratio).toBeCloseTo(28_500 / 24_000);
	expect(mean.requests).toBe(790);
	expect(mean.rejected429).toBe(70);
	expect(mean.share429).toBeCloseTo(70 / 790);
	expect(mean.runRatios).toEqual([27_000 / 24_000, 30_000 / 24_000, 28_500 / 24_000]);
	expect(runsNote(mean)).toBe('mean of 3 runs: 1.125–1.250 ×');
});

test("one run's failure, double charge or credit mismatch shows in the result", () => {
	const mean = meanOfRuns([run(27_000), run(27_000, { failed: 2, credits: 238, failedExecutions: 1, doubleCharges: 1 }), run(27_000, { credits: 241 })], 240);
	expect(mean.failed).toBe(2);
	expect(mean.failedExecutions).toBe(1);
	expect(mean.executions).toBe(36);
	expect(mean.doubleCharges).toBe(1);
	// 238 credits for 2 failed of 240 is right; 241 credits with none failed is not.
	expect(mean.credits).toBe(241);
});

test('a single run is itself, with no note; no run is an error', () => {
	const one = run(27_000);
	expect(meanOfRuns([one], 240)).toBe(one);
	expect(runsNote(one)).toBe('');
	expect(() => meanOfRuns([], 240)).toThrow(/without a run/);
});
