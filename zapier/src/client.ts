/**
 * The core client on Zapier's `z.request`: the transport adapter (`send`),
 * the step's retry budget, and one client per perform.
 */
import type { Bundle, HttpResponse, ZObject } from 'zapier-platform-core';
import { createHash } from 'node:crypto';
import { BRAND } from '../../shared/base';
import { getOperation, normaliseBaseUrl } from '../../shared/catalogue';
import { PostWriterClient } from '../../shared/client';
import { Pacer, PacerRegistry } from '../../shared/pacing';
import type { RetryPolicy } from '../../shared/client';
import type { HeaderValue, HttpRequest, HttpResponse as CoreResponse, Send } from '../../shared/base';

/** Marks the requests the core reads itself (see middleware.ts). */
export const CORE_REQUEST = 'postWriterCore';

/**
 * A Zapier step has 30 s. Every client gets a deadline STEP_DEADLINE_MS after
 * it is made (one client per perform), enforced by the core: an attempt's
 * timeout is cut to the time left, a retry wait that would leave less than
 * MIN_ATTEMPT_MS (1 s) is not taken, and no request starts with less than
 * that. A 429 whose wait does not fit becomes a ThrottledError with the
 * server's delay, and Zapier retries the step later. Within the deadline,
 * one request may take up to PER_ATTEMPT_TIMEOUT_MS and the waits between
 * retries (429, WORKFLOW_BUSY, a 5xx on a GET) stay within
 * RETRY_BUDGET.maxTotalWaitMs.
 */
export const STEP_DEADLINE_MS = 25_000;
export const RETRY_BUDGET: Partial<RetryPolicy> = { maxAttempts: 4, maxTotalWaitMs: 20_000, maxDelayMs: 10_000, maxQuotaWaitMs: 10_000 };
export const PER_ATTEMPT_TIMEOUT_MS = 20_000;

/** The response headers as a plain record, names in lower case. */
export function headersOf(response: HttpResponse): Record<string, HeaderValue> {
	const out: Record<string, HeaderValue> = {};
	const headers = response.headers as unknown as { forEach?: (fn: (value: string, name: string) => void) => void };
	if (headers && typeof headers.forEach === 'function') {
		headers.forEach((value, name) => {
			out[name.toLowerCase()] = value;
		});
	}
	return out;
}

/**
 * The core's transport over z.request: resolves for every status (a redirect
 * included: it follows none), rejects only when no response came. The timeout is the core's, already cut to the deadline.
 */
export function zapierSend(z: ZObject): Send {
	return async (request: HttpRequest): Promise<CoreResponse> => {
		const response = await z.request({
			url: request.url,
			method: request.method,
			headers: { 'User-Agent': BRAND.userAgent, ...request.headers },
			body: request.body === undefined ? undefined : JSON.stringify(request.body),
			timeout: request.timeoutMs,
			skipThrowForStatus: true,
			// A redirect is handed to the core, which follows it only within the Base URL's origin (shared/client/redirects.ts).
			redirect: 'manual',
			middlewareData: { [CORE_REQUEST]: true },
		});
		return { status: response.status, headers: headersOf(response), body: response.content };
	};
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One pacing per API key and base URL in this process (a Zapier container
 * runs many steps over its life, some at once): the calls of one step
 * (Create Guided Post's four, a list's pages) and of the steps beside it
 * share it. Keyed by a SHA-256 digest; dropped after 10 idle minutes.
 */
export const PACERS = new PacerRegistry({
	digest: (text) => createHash('sha256').update(text).digest('hex'),
	create: () => new Pacer({ sleep: realSleep, now: () => Date.now() }),
});

let performs = 0;

export interface ClientTuning {
	retry?: Partial<RetryPolicy>;
	timeoutMs?: number;
	/** Absolute time (ms, Date.now's clock) that no request may outlive; default: now + STEP_DEADLINE_MS. */
	deadline?: number;
}

/** The core client for one perform, with the connection's key and base URL. */
export function clientFor(z: ZObject, bundle: Pick<Bundle, 'authData'>, tuning: ClientTuning = {}): PostWriterClient {
	const authData = bundle.authData ?? {};
	const baseUrl = typeof authData.baseUrl === 'string' && authData.baseUrl.trim() !== '' ? authData.baseUrl : BRAND.defaultBaseUrl;
	const apiKey = typeof authData.apiKey === 'string' ? authData.apiKey : '';
	let pacer: Pacer | undefined;
	try {
		pacer = PACERS.get(apiKey, normaliseBaseUrl(baseUrl));
	} catch {
		// A base URL the client will refuse with its own message: no shared pacing needed.
	}
	performs = (performs + 1) % Number.MAX_SAFE_INTEGER;
	return new PostWriterClient({
		baseUrl,
		pacer,
		party: `perform-${performs}`,
		send: zapierSend(z),
		deadline: tuning.deadline ?? Date.now() + STEP_DEADLINE_MS,
		sleep: realSleep,
		apiKey: authData.apiKey,
		retry: { ...RETRY_BUDGET, ...tuning.retry },
		timeoutMs: tuning.timeoutMs ?? PER_ATTEMPT_TIMEOUT_MS,
		onRetry: (event) => z.console.log(`${BRAND.displayName}: retrying ${getOperation(event.operation).name} in ${event.delayMs} ms (${event.reason}).`),
	});
}
