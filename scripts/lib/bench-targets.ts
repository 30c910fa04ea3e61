/**
 * The bench's targets and run counts, in one light module (no import): the bench judges its runs by them
 * (bench-report.ts, bench-triggers.ts, bench-footprint.ts, bench-s8.ts), and `npm run docs` writes them into
 * docs/benchmarks.md (scripts/lib/docs-pages.ts, block `bench-targets`), so that the report's targets are the ones
 * the verdicts use. S8's own targets are GRID_TARGETS (scripts/lib/pacing-grid.ts).
 */

/** Targets of section 1 for the node with default settings, way (a): wall ÷ quota-bound limit, and share answered 429. */
export const BATCH_TARGETS = {
	/** S1, S2: one execution against a quota that binds. */
	s1s2Ratio: 1.1,
	s1s2Share429: 0.05,
	/** S1 at the maximum Concurrency, way (b). */
	s1MaxConcurrencyRatio: 1.15,
	/** S3: instant answers (bound by the process), and ahead of the naive loop (d). */
	s3Ratio: 1.05,
	/** S5: executions sharing one key in one process. */
	s5Ratio: 1.15,
	s5Share429: 0.05,
	/** S6: three processes on one key (the share answered 429 where the answers tell the quota). */
	s6Ratio: 1.25,
	s6Share429: 0.1,
	/** S7: answers as slow as a real AI model. */
	s7Ratio: 1.15,
} as const;

/** Targets of section 2: requests per steady-state poll, and the n8n trigger's state after this many posts. */
export const POLL_TARGETS = { requestsPerPoll: 1, stateBytes: 4_096, statePosts: 10_000 } as const;

/** Targets of section 3: each package's own load time over its platform's library, and the n8n tarball's size. */
export const FOOTPRINT_TARGETS = { ownLoadMs: 25, tarballKb: 150 } as const;

/**
 * Runs of each three-process case of S8; the case's wall is their mean. Three real processes move by about
 * ± 0.1 × from run to run: which one wins the first crowding (10 calls a window split 4/3/3) keeps that share, and
 * the others finish seconds after it. On virtual time over 30 seeds (test/grid/pacing-grid-runs.test.ts, npm run
 * test:grid), a whole S8 misses the 5 % comparison with `Retry-After` alone somewhere in 59 % of its runs with one
 * run a case, where the forms' expected walls differ by 1 % at most; the median of 3 still misses in 34 %, the mean
 * of 3 in 11 %, the mean of 5 in 2 %.
 */
export const S8_PROCESS_RUNS = 5;

/** "1.10 ×" */
export const times = (ratio: number): string => `${ratio.toFixed(2)} ×`;
/** "5 %" */
export const percent = (share: number): string => `${Math.round(share * 100)} %`;
