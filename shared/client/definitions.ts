/**
 * shared/client's definitions: what a platform shows of the client when it loads (n8n's default for Maximum
 * Wait for the Quota, the credential test's rules for redirects), without the client itself. The folder's
 * second entry, beside index.ts (which exports this too): it imports nothing, so the code that only describes
 * loads none of the client, pacing or paid calls (test/shared/structure.test.ts).
 */

/** The retry policy's caps (retry.ts decides with them; a Zapier step has 30 s, so Zapier sets its own). */
export interface RetryPolicy {
	/** Attempts in all, the first included, for the retries of a GET after a 5xx or a network error (refusals are bounded by time, not count). */
	maxAttempts: number;
	/** Total time spent waiting between those attempts, at most. */
	maxTotalWaitMs: number;
	/**
	 * A refusal (429, WORKFLOW_BUSY) was not carried out and cost nothing: it is
	 * retried until the wait for the quota would pass this budget (ms, from the
	 * call's first refusal), however many attempts that takes.
	 */
	maxQuotaWaitMs: number;
	/** First backoff step when the server gives no delay. */
	baseDelayMs: number;
	/** Longest single wait. */
	maxDelayMs: number;
}

/** The caps when a platform sets none. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 6,
	maxTotalWaitMs: 60_000,
	maxQuotaWaitMs: 300_000,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** The statuses that point elsewhere with a Location (RFC 9110 §15.4). 300, 304 and 305 do not redirect a request of ours. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
