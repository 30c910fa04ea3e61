/**
 * The response reader: turns what the transport returned into data, or into
 * the typed error it stands for (the mapping itself is errors.ts). Reads the
 * retry hint in every form the spec allows. Pure: no I/O, no timers.
 */
import type { OperationRef } from './errors';
import { MalformedResponseError, errorFromResponse, looksLikeErrorEnvelope, snippetOf } from './errors';
import type { HeaderValue, HttpResponse } from './transport';

export function headerValue(headers: Record<string, HeaderValue> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [k, v] of Object.entries(headers)) {
		if (k.toLowerCase() !== wanted || v === undefined || v === null) continue;
		return Array.isArray(v) ? v[0] : String(v);
	}
	return undefined;
}

/** `X-RateLimit-Reset` / `RateLimit-Reset` / `X-Rate-Limit-Reset` as a time (ms on `now`'s clock): epoch ms, epoch s (decimals allowed), seconds from now, or a date. A time already past is kept as it is. */
function resetTime(headers: Record<string, HeaderValue> | undefined, now: number): number | undefined {
	for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
		const raw = headerValue(headers, name)?.trim();
		if (!raw) continue;
		if (/^\d+(\.\d+)?$/.test(raw)) {
			const n = Number(raw);
			if (n > 1e12) return n; // epoch ms
			if (n > 1e9) return Math.round(n * 1000); // epoch s
			return now + Math.round(n * 1000); // seconds from now
		}
		const at = Date.parse(raw);
		if (!Number.isNaN(at)) return at;
	}
	return undefined;
}

/** The reset as a delay from now (0 when already past). */
function resetDelay(headers: Record<string, HeaderValue> | undefined, now: number): number | undefined {
	const at = resetTime(headers, now);
	return at === undefined ? undefined : Math.max(0, at - now);
}

function headerCount(headers: Record<string, HeaderValue> | undefined, names: readonly string[]): number | undefined {
	for (const name of names) {
		const raw = headerValue(headers, name)?.trim();
		// "100" or, in the IETF draft's structured form, "100;w=60": the number first.
		const m = raw === undefined ? null : /^(\d+)\b/.exec(raw);
		if (m) return Number(m[1]);
	}
	return undefined;
}

/** The quota an answer reports: `X-RateLimit-Limit`, `-Remaining` and `-Reset` (or the `RateLimit-*` and `X-Rate-Limit-*` spellings), as far as they are sent. */
export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** When the window ends, on the caller's clock (ms). */
	resetAt?: number;
}

export function readRateLimit(headers: Record<string, HeaderValue> | undefined, now: number): RateLimitInfo {
	const limit = headerCount(headers, ['x-ratelimit-limit', 'ratelimit-limit', 'x-rate-limit-limit']);
	const remaining = headerCount(headers, ['x-ratelimit-remaining', 'ratelimit-remaining', 'x-rate-limit-remaining']);
	return { limit, remaining, resetAt: resetTime(headers, now) };
}

/**
 * The server's retry delay in ms, from `Retry-After` (seconds or HTTP date),
 * `X-RateLimit-Reset` / `RateLimit-Reset` (epoch seconds, epoch ms, or seconds
 * from now), or a `retryAfter` number in the body.
 */
export function parseRetryDelay(headers: Record<string, HeaderValue> | undefined, now: number, body?: unknown): number | undefined {
	const retryAfter = headerValue(headers, 'retry-after')?.trim();
	if (retryAfter) {
		if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
		const at = Date.parse(retryAfter);
		if (!Number.isNaN(at)) return Math.max(0, at - now);
	}
	const reset = resetDelay(headers, now);
	if (reset !== undefined) return reset;
	if (body && typeof body === 'object') {
		const b = body as Record<string, unknown>;
		const inner = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : {};
		for (const v of [b.retryAfter, b.retry_after, inner.retryAfter, inner.retry_after]) {
			if (typeof v === 'number' && v >= 0) return Math.round(v * 1000);
		}
	}
	return undefined;
}

export interface ParsedBody {
	ok: boolean;
	value: unknown;
	/** The body looked like HTML. */
	html: boolean;
}

/** Reads a raw body: JSON text is parsed; an object is taken as is. */
export function parseBody(body: unknown): ParsedBody {
	if (body === undefined || body === null) return { ok: true, value: undefined, html: false };
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '') return { ok: true, value: undefined, html: false };
		try {
			return { ok: true, value: JSON.parse(text), html: false };
		} catch {
			return { ok: false, value: body, html: /^<(!doctype|html|head|body)|<\/html>/i.test(text) };
		}
	}
	if (typeof Buffer !== 'undefined' && Buffer.isBuffer(body)) return parseBody(body.toString('utf8'));
	return { ok: true, value: body, html: false };
}

/**
 * Turns a response into data, or throws the typed error it stands for.
 * WORKFLOW_BUSY is recognised by its code at any status, 2xx included.
 */
export function readResponse(response: HttpResponse, op: OperationRef, now: number): unknown {
	const { status, headers } = response;
	const parsed = parseBody(response.body);
	if (status >= 200 && status < 300) {
		if (!parsed.ok) {
			throw new MalformedResponseError(
				`${op.method} ${op.path} answered ${status} with a body that is not valid JSON: "${snippetOf(parsed.value)}". This is a fault on the service side${op.method === 'POST' ? '; the call may have been carried out, so check before running it again' : ''}.`,
				{ status, operation: op.key, snippet: snippetOf(parsed.value) },
			);
		}
		if (!looksLikeErrorEnvelope(parsed.value)) return parsed.value;
	}
	throw errorFromResponse(op, {
		status,
		value: parsed.value,
		jsonOk: parsed.ok,
		html: parsed.html,
		retryAfterMs: parseRetryDelay(headers, now, parsed.value),
	});
}
