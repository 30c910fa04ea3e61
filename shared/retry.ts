/**
 * The retry policy, as a pure decision: given the error of an attempt, wait
 * how long, or give up. The caller sets the caps (a Zapier step has 30 s).
 */
import { NetworkError, PostWriterError, RateLimitedError, ServerError, WorkflowBusyError } from './errors';
import type { HttpMethod } from './catalogue';

/** Least time a request is started with before a deadline (see ClientOptions.deadline). */
export const MIN_ATTEMPT_MS = 1_000;

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	/** Total time spent waiting between attempts, at most. */
	maxTotalWaitMs: number;
	/** First backoff step when the server gives no delay. */
	baseDelayMs: number;
	/** Longest single wait. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 6,
	maxTotalWaitMs: 60_000,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

export interface RetryState {
	/** 1-based number of the attempt that just failed. */
	attempt: number;
	/** Time already spent waiting. */
	waitedMs: number;
}

export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false; reason: string };

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
	const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Decides whether to retry.
 * - 429 and WORKFLOW_BUSY: always safe (the server refused), any method.
 * - 5xx, timeouts, resets: only for GET. A POST may have been carried out and
 *   charged, so it is never sent twice.
 * - A connection that was refused never reached the server: safe.
 */
export function decideRetry(error: unknown, method: HttpMethod, state: RetryState, policy: RetryPolicy, random: () => number): RetryDecision {
	if (state.attempt >= policy.maxAttempts) return { retry: false, reason: `gave up after ${state.attempt} attempts` };
	let serverDelay: number | undefined;
	let reason: string;
	if (error instanceof RateLimitedError || error instanceof WorkflowBusyError) {
		serverDelay = error.retryAfterMs;
		reason = error instanceof RateLimitedError ? 'rate limited (429)' : 'WORKFLOW_BUSY';
	} else if (error instanceof ServerError) {
		if (method !== 'GET') return { retry: false, reason: 'a POST is never retried after a 5xx' };
		reason = `server error ${error.status ?? ''}`.trim();
	} else if (error instanceof NetworkError) {
		if (error.ambiguous && method !== 'GET') return { retry: false, reason: 'a POST is never retried after a timeout or reset' };
		reason = error.kind === 'timeout' ? 'timeout' : 'network error';
	} else {
		return { retry: false, reason: error instanceof PostWriterError ? error.kind : 'unexpected error' };
	}
	let delay: number;
	if (serverDelay !== undefined) {
		// Honour the server; add a little jitter so that parallel clients spread out.
		delay = serverDelay + Math.round(random() * Math.min(250, serverDelay * 0.05 + 20));
	} else {
		delay = backoffDelay(state.attempt, policy, random);
	}
	delay = Math.min(delay, Math.max(policy.maxDelayMs, serverDelay ?? 0));
	if (state.waitedMs + delay > policy.maxTotalWaitMs) {
		return { retry: false, reason: `waiting ${delay} ms more would pass the ${policy.maxTotalWaitMs} ms budget` };
	}
	return { retry: true, delayMs: delay, reason };
}
