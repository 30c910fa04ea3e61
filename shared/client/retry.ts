/**
 * The retry policy, as a pure decision: given the error of an attempt, wait
 * how long, or give up. The caller sets the caps (a Zapier step has 30 s);
 * their shape and defaults, RetryPolicy and DEFAULT_RETRY_POLICY, are in definitions.ts.
 */
import type { QuotaBudget } from '../errors';
import { NetworkError, PostWriterError, RateLimitedError, ServerError, WorkflowBusyError } from '../errors';
import type { HttpRequest } from '../base';
import type { RetryPolicy } from './definitions';

/** Least time a request is started with before a deadline (see ClientOptions.deadline). */
export const MIN_ATTEMPT_MS = 1_000;

export interface RetryState {
	/** 1-based number of the attempt that just failed. */
	attempt: number;
	/** Time already spent waiting (backoff of the other retries). */
	waitedMs: number;
	/** Time since the call's first refusal (0 at the first one). */
	quotaWaitedMs?: number;
	/** Refusals of this call so far, this one included. */
	refusals?: number;
	/** For a 429 that gives no delay: the delay the pacing learned its window's end stands for (silent-window.ts). */
	learnedDelayMs?: number;
}

export type RetryDecision =
	| { retry: true; delayMs: number; reason: string }
	| { retry: false; reason: string; /** The quota's time budget ran out. */ budget?: true };

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
	const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Decides whether to retry.
 * - 429 and WORKFLOW_BUSY: always safe (the server refused), any method, as
 *   long as the wait for the quota stays within `maxQuotaWaitMs`; the count
 *   of attempts does not matter.
 * - 5xx, timeouts, resets: only for GET, within `maxAttempts` and
 *   `maxTotalWaitMs`. A POST may have been carried out and charged, so it is
 *   never sent twice.
 * - A connection that was refused never reached the server: safe.
 */
export function decideRetry(error: unknown, method: HttpRequest['method'], state: RetryState, policy: RetryPolicy, random: () => number): RetryDecision {
	if (error instanceof RateLimitedError || error instanceof WorkflowBusyError) {
		const reason = error instanceof RateLimitedError ? 'rate limited (429)' : 'WORKFLOW_BUSY';
		const refusals = state.refusals ?? 1;
		// The server's delay as given (the pacing adds the jitter that spreads the clients); without one, until the
		// window's end the pacing learned from the refusals, else backoff.
		const delay = error.retryAfterMs ?? (error instanceof RateLimitedError ? state.learnedDelayMs : undefined) ?? backoffDelay(refusals, policy, random);
		const waited = state.quotaWaitedMs ?? 0;
		if (waited + delay > policy.maxQuotaWaitMs) {
			return { retry: false, budget: true, reason: `waiting ${delay} ms more would pass the ${policy.maxQuotaWaitMs} ms budget for the quota (${Math.round(waited)} ms waited)` };
		}
		return { retry: true, delayMs: delay, reason };
	}
	if (state.attempt >= policy.maxAttempts) return { retry: false, reason: `gave up after ${state.attempt} attempts` };
	let reason: string;
	if (error instanceof ServerError) {
		if (method !== 'GET') return { retry: false, reason: 'a POST is never retried after a 5xx' };
		reason = `server error ${error.status ?? ''}`.trim();
	} else if (error instanceof NetworkError) {
		if (error.ambiguous && method !== 'GET') return { retry: false, reason: 'a POST is never retried after a timeout or reset' };
		reason = error.kind === 'timeout' ? 'timeout' : 'network error';
	} else {
		return { retry: false, reason: error instanceof PostWriterError ? error.kind : 'unexpected error' };
	}
	const delay = Math.min(backoffDelay(state.attempt, policy, random), policy.maxDelayMs);
	if (state.waitedMs + delay > policy.maxTotalWaitMs) {
		return { retry: false, reason: `waiting ${delay} ms more would pass the ${policy.maxTotalWaitMs} ms budget` };
	}
	return { retry: true, delayMs: delay, reason };
}

/**
 * The error of a call that gave up because the wait for the quota would pass
 * its budget (a decision with `budget`): a WORKFLOW_BUSY stays one, any other
 * refusal is the 429; both now name the budget and the quota seen.
 */
export function refusalOverBudget(error: unknown, operation: string, operationName: string, budget: QuotaBudget, windowEndsInMs?: number): PostWriterError {
	if (error instanceof WorkflowBusyError) return new WorkflowBusyError(error.retryAfterMs, { operation, status: error.status, budget });
	const retryAfterMs = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
	return new RateLimitedError(retryAfterMs, { operation, operationName, status: 429, budget, windowEndsInMs: retryAfterMs === undefined ? windowEndsInMs : undefined });
}

/**
 * A 429 that gave no delay, given up at the step's deadline: the same refusal, with when the window its refusals
 * showed ends (`windowEndsInMs`), for a platform that retries later (Zapier's ThrottledError). Any other error as it is.
 */
export function refusalAtDeadline(error: unknown, operationName: string, windowEndsInMs: number | undefined): unknown {
	if (!(error instanceof RateLimitedError) || error.retryAfterMs !== undefined || windowEndsInMs === undefined || error.budget) return error;
	const { operation, status, code, serverMessage, snippet } = error;
	return new RateLimitedError(undefined, { operation, operationName, status, code, serverMessage, snippet, windowEndsInMs, cause: error });
}
