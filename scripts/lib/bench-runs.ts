/**
 * A bench way measured several times and reported as one: S6's default way, three node processes on one key.
 * Three processes keep the shares their first window split (10 calls a window, 4/3/3), so one run's wall moves by
 * about ± 0.1 × the quota-bound limit from run to run (docs/benchmarks.md, "Three processes: a 5 % comparison"):
 * S6 IETF on the same pacing gave 1.175 × in one full run and 1.271 × in the next. S8 keeps the mean of its
 * three-process runs for the same reason.
 */

/**
 * S6's default way runs this many times, and the mean is its result: the mean of 3 has about 0.58 of one run's
 * spread, and 3 runs of the three header forms add about 3 minutes to the full bench (S8, a part of its own, runs 5).
 */
export const S6_RUNS = 3;

/** What a run of a way measured (the bench's BatchResult adds which scenario and way it is). */
export interface RunFigures {
	wallMs: number;
	limitMs: number;
	ratio: number;
	failed: number;
	credits: number;
	requests: number;
	rejected429: number;
	share429: number;
	/** S4: WORKFLOW_BUSY answers of the sandbox, and those surfaced in the output. */
	busyAnswered: number;
	busySurfaced: number;
	/** Paid (S1–S3, S5–S7) or creation-step (S4) calls carried out more than once per item. */
	doubleCharges: number;
	/** S5–S7: executions in all, and those with a failed item. */
	executions?: number;
	failedExecutions?: number;
	/** Each run's wall ÷ limit, when the figures are the mean of several runs. */
	runRatios?: number[];
}

/**
 * Several runs of one way as one: the mean wall; requests and 429s pooled over the runs; failed items, failed
 * executions (over executions × runs), double charges and WORKFLOW_BUSY counts summed, so that one run's failure
 * shows; the credits of a run whose credits do not match its items carried out (else the first run's); each run's ratio.
 */
export function meanOfRuns<T extends RunFigures>(runs: T[], items: number): T {
	if (runs.length === 0) throw new Error('meanOfRuns: a way without a run');
	if (runs.length === 1) return runs[0];
	const sum = (pick: (r: T) => number) => sumOf(runs, pick);
	const requests = sum((r) => r.requests);
	const rejected429 = sum((r) => r.rejected429);
	const mismatch = runs.find((r) => r.credits !== items - r.failed);
	return {
		...runs[0],
		...meanWall(runs),
		failed: sum((r) => r.failed),
		credits: (mismatch ?? runs[0]).credits,
		requests,
		rejected429,
		share429: requests === 0 ? 0 : rejected429 / requests,
		busyAnswered: sum((r) => r.busyAnswered),
		busySurfaced: sum((r) => r.busySurfaced),
		doubleCharges: sum((r) => r.doubleCharges),
		...(runs[0].executions !== undefined ? { executions: sum((r) => r.executions ?? 0), failedExecutions: sum((r) => r.failedExecutions ?? 0) } : {}),
	};
}

/** A figure summed over runs. */
export function sumOf<T>(runs: T[], pick: (r: T) => number): number {
	return runs.reduce((total, r) => total + pick(r), 0);
}

/** The mean wall of runs of one case (same limit), its ratio to the limit, and each run's ratio: S6's ways and S8's cases alike. */
export function meanWall(runs: Array<{ wallMs: number; limitMs: number; ratio: number }>): { wallMs: number; ratio: number; runRatios: number[] } {
	const wallMs = sumOf(runs, (r) => r.wallMs) / runs.length;
	return { wallMs, ratio: wallMs / runs[0].limitMs, runRatios: runs.map((r) => r.ratio) };
}

/** "mean of 3 runs: 1.12–1.27 ×", for a table cell or a log line; empty for a single run. */
export function runsNote(figures: RunFigures): string {
	const r = figures.runRatios;
	if (!r || r.length < 2) return '';
	return `mean of ${r.length} runs: ${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)} ×`;
}
