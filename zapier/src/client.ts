/**
 * The core client on Zapier's `z.request`: the transport adapter (`send`),
 * the step's retry budget, and one client per perform.
 */
import type { Bundle, HttpResponse, ZObject } from 'zapier-platform-core';
import { BRAND, PostWriterClient } from '../../shared';
import type { HeaderValue, HttpRequest, HttpResponse as CoreResponse, RetryPolicy, Send } from '../../shared';

/** Marks the requests the core reads itself (see middleware.ts). */
export const CORE_REQUEST = 'postWriterCore';

/**
 * A Zapier step has 30 s. One request may take up to PER_ATTEMPT_TIMEOUT_MS;
 * waits between retries (429 with a short Retry-After, WORKFLOW_BUSY, a 5xx on
 * a GET) stay within RETRY_BUDGET.maxTotalWaitMs. A longer wait asked by the
 * server becomes a ThrottledError, and Zapier retries the step later.
 */
export const RETRY_BUDGET: Partial<RetryPolicy> = { maxAttempts: 4, maxTotalWaitMs: 20_000, maxDelayMs: 10_000 };
export const PER_ATTEMPT_TIMEOUT_MS = 20_000;

function headersOf(response: HttpResponse): Record<string, HeaderValue> {
	const out: Record<string, HeaderValue> = {};
	const headers = response.headers as unknown as { forEach?: (fn: (value: string, name: string) => void) => void };
	if (headers && typeof headers.forEach === 'function') {
		headers.forEach((value, name) => {
			out[name.toLowerCase()] = value;
		});
	}
	return out;
}

/** Shortest per-attempt timeout, even when the deadline is close. */
const MIN_TIMEOUT_MS = 1_000;

/**
 * The core's transport over z.request: resolves for every status, rejects only
 * when no response came. With a deadline, no attempt outlives it.
 */
export function zapierSend(z: ZObject, deadline?: number): Send {
	return async (request: HttpRequest): Promise<CoreResponse> => {
		const timeout =
			deadline === undefined ? request.timeoutMs : Math.max(MIN_TIMEOUT_MS, Math.min(request.timeoutMs ?? Infinity, deadline - Date.now()));
		const response = await z.request({
			url: request.url,
			method: request.method,
			headers: { 'User-Agent': BRAND.userAgent, ...request.headers },
			body: request.body === undefined ? undefined : JSON.stringify(request.body),
			timeout,
			skipThrowForStatus: true,
			middlewareData: { [CORE_REQUEST]: true },
		});
		return { status: response.status, headers: headersOf(response), body: response.content };
	};
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface ClientTuning {
	retry?: Partial<RetryPolicy>;
	timeoutMs?: number;
	/** Absolute time (ms) that no request may outlive. */
	deadline?: number;
}

/** The core client for one perform, with the connection's key and base URL. */
export function clientFor(z: ZObject, bundle: Pick<Bundle, 'authData'>, tuning: ClientTuning = {}): PostWriterClient {
	const authData = bundle.authData ?? {};
	const baseUrl = typeof authData.baseUrl === 'string' && authData.baseUrl.trim() !== '' ? authData.baseUrl : BRAND.defaultBaseUrl;
	return new PostWriterClient({
		baseUrl,
		send: zapierSend(z, tuning.deadline),
		sleep: realSleep,
		apiKey: authData.apiKey,
		retry: { ...RETRY_BUDGET, ...tuning.retry },
		timeoutMs: tuning.timeoutMs ?? PER_ATTEMPT_TIMEOUT_MS,
		onRetry: (event) => z.console.log(`${BRAND.displayName}: retrying ${event.operation} in ${event.delayMs} ms (${event.reason}).`),
	});
}
