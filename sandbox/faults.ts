/**
 * Fault injection and rate limits of the sandbox: injected 429s (in the
 * configured Retry-After / X-RateLimit-Reset form, or none with the IETF
 * fields), redirects (to another host or to the request's own address), 5xx answers, dropped
 * connections, held requests (timeouts), truncated JSON and HTML pages; the
 * refusals that simulate trouble on the service side (WORKFLOW_BUSY, a revoked
 * or expired key, exhausted credits); and the fixed quota windows.
 */
import type { OperationKey } from '../shared/catalogue';
import { ApiError, errorBody } from './api-errors';
import type { Outcome } from './api-errors';
import type { SandboxOptions, QuotaRule, Quotas } from './types';
import type { KeyRecord } from './records';
import { mulberry32 } from './random';

export type { FaultOptions, QuotaRule, Quotas } from './types';

export const DEFAULT_QUOTAS: Quotas = {
	default: { limit: 600, windowMs: 60_000 },
	generate: { limit: 60, windowMs: 60_000 },
};

// ---------------------------------------------------------------------------
// Refusals simulating trouble on the service side
// ---------------------------------------------------------------------------

/** WORKFLOW_BUSY, with the configured status (`workflowBusyStatus`). */
export function busyError(status: number): ApiError {
	return new ApiError(status, 'WORKFLOW_BUSY', 'WORKFLOW_BUSY', { 'Retry-After': '1' });
}

/** The 401 of a known key that is revoked or expired at `now` (sandbox clock); undefined for a usable key. */
export function keyRefusal(key: KeyRecord, now: number): ApiError | undefined {
	if (key.revoked) return new ApiError(401, 'API_KEY_REVOKED', 'API key has been revoked');
	if (key.expiresAt !== null && now >= key.expiresAt) return new ApiError(401, 'API_KEY_EXPIRED', 'API key has expired');
	return undefined;
}

/** The 402 of a paid call the balance cannot cover. */
export function insufficientCredits(cost: number, balance: number): ApiError {
	return new ApiError(402, 'INSUFFICIENT_CREDITS', `Not enough credits: this call costs ${cost} credit${cost === 1 ? '' : 's'} and the balance is ${balance}`);
}

// ---------------------------------------------------------------------------
// Fault injection and rate-limit windows
// ---------------------------------------------------------------------------

type FaultKind = 'timeout' | 'reset' | 'burst429' | 'redirect' | 'html' | 'malformed' | 'error';
export interface FaultDecision {
	kind: FaultKind;
	status?: number;
}

/** The quota a request counts against: POST /generate has its own. */
export type QuotaBucket = 'default' | 'generate';
export function quotaBucket(key: OperationKey | undefined): QuotaBucket {
	return key === 'generatePost' ? 'generate' : 'default';
}

/**
 * The rate-limit fields of an answer: X-RateLimit-Limit / -Remaining (and,
 * with `rateLimitReset`, -Reset), or the IETF RateLimit-Policy / RateLimit
 * (option `rateLimitHeaders`).
 */
export interface RateInfo {
	limit: number;
	remaining: number;
	/** End of the window (epoch ms, real time). */
	resetAt: number;
	/** The quota bucket: the policy name of the IETF fields. */
	policy: QuotaBucket;
	windowMs: number;
}

export type Faults = ReturnType<typeof createFaults>;

/** Fault injection and rate limits over the options in force (`rt.opts`, read at call time). */
export function createFaults(rt: { readonly opts: SandboxOptions }) {
	let random = mulberry32(rt.opts.seed);

	// Fault counters live in opts.faults and are decremented as they fire.
	const takeCounter = (name: 'burst429' | 'redirectNext' | 'resetNext' | 'malformedNext' | 'htmlNext' | 'timeoutNext' | 'errorNext'): boolean => {
		const opts = rt.opts;
		const n = opts.faults[name] ?? 0;
		if (n <= 0) return false;
		opts.faults = { ...opts.faults, [name]: n - 1 };
		return true;
	};

	function decideFault(routeName: string, actualName: string): FaultDecision | undefined {
		const f = rt.opts.faults;
		if (f.routes && f.routes.length > 0 && !f.routes.includes(routeName) && !f.routes.includes(actualName)) return undefined;
		if ((f.passNext ?? 0) > 0) {
			rt.opts.faults = { ...f, passNext: (f.passNext ?? 0) - 1 };
			return undefined;
		}
		if (takeCounter('timeoutNext')) return { kind: 'timeout' };
		if (takeCounter('resetNext')) return { kind: 'reset' };
		if (takeCounter('burst429')) return { kind: 'burst429' };
		if (takeCounter('redirectNext')) return { kind: 'redirect', status: f.redirectStatus ?? 307 };
		if (takeCounter('htmlNext')) return { kind: 'html' };
		if (takeCounter('malformedNext')) return { kind: 'malformed' };
		if (takeCounter('errorNext')) return { kind: 'error', status: f.errorStatuses?.[0] ?? 500 };
		if ((f.resetRate ?? 0) > 0 && random() < (f.resetRate ?? 0)) return { kind: 'reset' };
		if ((f.errorRate ?? 0) > 0 && random() < (f.errorRate ?? 0)) {
			const statuses = f.errorStatuses && f.errorStatuses.length > 0 ? f.errorStatuses : [500, 502, 503];
			return { kind: 'error', status: statuses[Math.floor(random() * statuses.length) % statuses.length] };
		}
		return undefined;
	}

	// Rate limits: fixed windows per (bucket, key identifier), on real time.
	const windows = new Map<string, { start: number; count: number }>();
	const quotaFor = (bucket: QuotaBucket): QuotaRule => rt.opts.quota[bucket] ?? DEFAULT_QUOTAS[bucket];
	function windowOf(bucket: QuotaBucket, id: string) {
		const rule = quotaFor(bucket);
		const mapKey = `${bucket}|${id}`;
		const now = Date.now();
		let w = windows.get(mapKey);
		if (!w || now >= w.start + rule.windowMs) {
			w = { start: now, count: 0 };
			windows.set(mapKey, w);
		}
		return { w, rule, resetAt: w.start + rule.windowMs };
	}

	/** The retry fields of a 429: the `retryHeader` form; only `Retry-After` (seconds or date) with rateLimitHeaders 'retry-after' / 'retry-after-date'; none with 'ietf' and 'ratelimit' (their own fields say it), nor with 'none'. */
	function retryHeaders(resetAtMs: number, secondsHint?: number): Record<string, string> {
		const now = Date.now();
		const seconds = secondsHint ?? Math.max(1, Math.ceil((resetAtMs - now) / 1000));
		const at = secondsHint !== undefined ? now + secondsHint * 1000 : resetAtMs;
		if (rt.opts.rateLimitHeaders === 'ietf' || rt.opts.rateLimitHeaders === 'ratelimit' || rt.opts.rateLimitHeaders === 'none') return {};
		if (rt.opts.rateLimitHeaders === 'retry-after') return { 'Retry-After': String(seconds) };
		// HTTP dates have a 1 s resolution: round up so the client never retries early.
		if (rt.opts.rateLimitHeaders === 'retry-after-date') return { 'Retry-After': new Date(Math.ceil(at / 1000) * 1000).toUTCString() };
		switch (rt.opts.retryHeader) {
			case 'http-date':
				// HTTP dates have a 1 s resolution: round up so the client never retries early.
				return { 'Retry-After': new Date(Math.ceil(at / 1000) * 1000).toUTCString() };
			case 'reset':
				return { 'X-RateLimit-Reset': String(Math.ceil(at / 1000)) };
			default:
				return { 'Retry-After': String(seconds) };
		}
	}

	/** The answer of a fault; `path` is the request's path and query (where a redirect points). */
	function faultOutcome(fault: FaultDecision, retryAt: number, path: string): Outcome | 'reset' | 'timeout' {
		const opts = rt.opts;
		switch (fault.kind) {
			case 'timeout':
				return 'timeout';
			case 'reset':
				return 'reset';
			case 'burst429': {
				const sec = opts.faults.burstRetryAfterSec ?? 1;
				return {
					status: 429,
					body: errorBody(opts.errorShape, 'RATE_LIMITED', 'Rate limit exceeded', undefined, 429),
					headers: { ...retryHeaders(retryAt, sec), ...(opts.rateLimitHeaders === 'x-ratelimit' ? { 'X-RateLimit-Remaining': '0' } : {}) },
				};
			}
			case 'redirect': {
				const to = opts.faults.redirectTo ?? 'self';
				const location = to === 'self' ? path : `${to.replace(/\/+$/, '')}${path}`;
				return { status: fault.status ?? 307, body: undefined, headers: { Location: location }, raw: { text: '', contentType: 'text/plain; charset=utf-8' } };
			}
			case 'html':
				return {
					status: 502,
					body: undefined,
					headers: {},
					raw: { text: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html; charset=utf-8' },
				};
			case 'malformed':
				return { status: 200, body: undefined, headers: {}, raw: { text: '{"proposals": [', contentType: 'application/json; charset=utf-8' } };
			case 'error': {
				const status = fault.status ?? 500;
				const code = status === 502 ? 'BAD_GATEWAY' : status === 503 ? 'SERVICE_UNAVAILABLE' : status === 504 ? 'GATEWAY_TIMEOUT' : 'INTERNAL_ERROR';
				return { status, body: errorBody(opts.errorShape, code, `Simulated server error (${status})`, undefined, status), headers: {} };
			}
		}
	}

	return {
		/** The fault (if any) a request gets; counters are spent as they fire. */
		decide: decideFault,
		/** True when 5xx / reset / timeout / HTML / malformed faults apply after the operation ran. */
		afterHandling: (): boolean => Boolean(rt.opts.faultAfterHandling || rt.opts.faults.faultAfterHandling),
		/** The answer of a fault, or 'reset' / 'timeout' for the socket-level ones. */
		outcome: faultOutcome,
		/** The rate-limit headers of the window, without counting a request. */
		peek(bucket: QuotaBucket, id: string): RateInfo {
			const { w, rule, resetAt } = windowOf(bucket, id);
			return { limit: rule.limit, remaining: Math.max(0, rule.limit - w.count), resetAt, policy: bucket, windowMs: rule.windowMs };
		},
		/** Counts a request in its window; a full window gives `refused` (429) and counts nothing. */
		admit(bucket: QuotaBucket, id: string): { rate: RateInfo; refused?: ApiError } {
			const { w, rule, resetAt } = windowOf(bucket, id);
			const base = { limit: rule.limit, resetAt, policy: bucket, windowMs: rule.windowMs };
			if (w.count >= rule.limit) {
				return { rate: { ...base, remaining: 0 }, refused: new ApiError(429, 'RATE_LIMITED', 'Rate limit exceeded', retryHeaders(resetAt)) };
			}
			w.count++;
			return { rate: { ...base, remaining: Math.max(0, rule.limit - w.count) } };
		},
		/** Restarts the PRNG behind `errorRate` and `resetRate`. */
		reseed(seed: number): void {
			random = mulberry32(seed);
		},
		/** Forgets every rate-limit window. */
		resetRateLimits(): void {
			windows.clear();
		},
	};
}
