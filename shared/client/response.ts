/**
 * The response reader: turns what the transport returned into data, or into
 * the typed error it stands for (the mapping itself is mapping.ts). Reads the
 * retry hint in every form the spec allows. Pure: no I/O, no timers.
 */
import type { OperationRef } from '../errors';
import { MalformedResponseError, errorFromResponse, looksLikeErrorEnvelope, snippetOf } from '../errors';
import type { HeaderValue, HttpResponse } from '../base';
import { headerValue } from '../base';

/**
 * `X-RateLimit-Reset` / `RateLimit-Reset` / `X-Rate-Limit-Reset` as a time (ms on `now`'s clock): epoch ms, epoch s
 * (decimals allowed), seconds from now, or a date. A time already past is kept as it is. `exact` when it is told to
 * the millisecond (epoch ms, or seconds with decimals); whole seconds and dates are rounded by the server.
 */
function resetTime(headers: Record<string, HeaderValue> | undefined, now: number): { at: number; exact: boolean } | undefined {
	for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
		const raw = headerValue(headers, name)?.trim();
		if (!raw) continue;
		if (/^\d+(\.\d+)?$/.test(raw)) {
			const n = Number(raw);
			const decimals = raw.includes('.');
			if (n > 1e12) return { at: n, exact: true }; // epoch ms
			if (n > 1e9) return { at: Math.round(n * 1000), exact: decimals }; // epoch s
			return { at: now + Math.round(n * 1000), exact: decimals }; // seconds from now
		}
		const at = Date.parse(raw);
		if (!Number.isNaN(at)) return { at, exact: false };
	}
	return undefined;
}

/** The reset as a delay from now (0 when already past). */
function resetDelay(headers: Record<string, HeaderValue> | undefined, now: number): number | undefined {
	const reset = resetTime(headers, now);
	return reset === undefined ? undefined : Math.max(0, reset.at - now);
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

/**
 * The quota an answer reports, from whichever fields it sends:
 * - `X-RateLimit-Limit`, `-Remaining` and `-Reset` (or the `RateLimit-*` and `X-Rate-Limit-*` spellings);
 * - the IETF fields (draft-ietf-httpapi-ratelimit-headers, structured fields):
 *   `RateLimit-Policy: "default";q=100;w=60` (quota and window in seconds) and
 *   `RateLimit: "default";r=42;t=17` (remaining and seconds to the reset).
 */
export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** When the window ends, on the caller's clock (ms). Left out when only the IETF `t` tells it (see resetInMs). */
	resetAt?: number;
	/** False when `resetAt` is rounded to the second (whole seconds, an epoch in seconds, a date): not a window end to hold calls for. */
	resetExact?: boolean;
	/** The window's length (ms), from the IETF policy's `w`. */
	windowMs?: number;
	/** Seconds to the reset as the IETF `t` says (whole seconds). */
	resetInMs?: number;
}

/** One structured-field item: `"name";q=10;w=1` → { name, params }. */
interface SfItem {
	name: string;
	params: Record<string, string>;
}

/** Parses a structured-field list of items with parameters (RFC 8941, the subset the rate-limit fields use). */
export function parseSfList(raw: string | undefined): SfItem[] {
	if (!raw) return [];
	const out: SfItem[] = [];
	for (const member of raw.split(',')) {
		const parts = member.split(';').map((p) => p.trim());
		const name = (parts.shift() ?? '').replace(/^"|"$/g, '');
		const params: Record<string, string> = {};
		for (const p of parts) {
			const eq = p.indexOf('=');
			if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
			else if (p) params[p.toLowerCase()] = '?1';
		}
		if (name || Object.keys(params).length > 0) out.push({ name, params });
	}
	return out;
}

const sfNumber = (v: string | undefined): number | undefined => (v !== undefined && /^\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);

/** The IETF fields: the policy that matches the `RateLimit` item (by name), or the one with the least remaining. */
function readIetf(headers: Record<string, HeaderValue> | undefined): RateLimitInfo {
	const limits = parseSfList(headerValue(headers, 'ratelimit'));
	const policies = parseSfList(headerValue(headers, 'ratelimit-policy'));
	if (limits.length === 0 && policies.length === 0) return {};
	// The tightest: the item with the least remaining (each policy is a quota of its own).
	let item: SfItem | undefined;
	for (const l of limits) {
		if (sfNumber(l.params.r) === undefined) continue;
		if (!item || (sfNumber(l.params.r) as number) < (sfNumber(item.params.r) as number)) item = l;
	}
	const policy = (item && policies.find((p) => p.name === item.name)) ?? (policies.length === 1 || !item ? policies[0] : undefined);
	const q = sfNumber(policy?.params.q);
	const w = sfNumber(policy?.params.w);
	const t = sfNumber(item?.params.t);
	return {
		limit: q,
		remaining: sfNumber(item?.params.r),
		windowMs: w === undefined || w <= 0 ? undefined : Math.round(w * 1000),
		resetInMs: t === undefined ? undefined : Math.round(t * 1000),
	};
}

export function readRateLimit(headers: Record<string, HeaderValue> | undefined, now: number): RateLimitInfo {
	const limit = headerCount(headers, ['x-ratelimit-limit', 'ratelimit-limit', 'x-rate-limit-limit']);
	const remaining = headerCount(headers, ['x-ratelimit-remaining', 'ratelimit-remaining', 'x-rate-limit-remaining']);
	const reset = resetTime(headers, now);
	const out: RateLimitInfo = { limit, remaining, resetAt: reset?.at, resetExact: reset?.exact };
	const ietf = readIetf(headers);
	if (ietf.limit !== undefined || ietf.remaining !== undefined || ietf.windowMs !== undefined) {
		out.limit ??= ietf.limit;
		out.remaining ??= ietf.remaining;
		if (ietf.windowMs !== undefined) out.windowMs = ietf.windowMs;
		if (ietf.resetInMs !== undefined) out.resetInMs = ietf.resetInMs;
	}
	// The older draft's RateLimit-Limit: "100;w=60" (or RateLimit-Policy without the new RateLimit field).
	if (out.windowMs === undefined) {
		const raw = headerValue(headers, 'ratelimit-limit') ?? headerValue(headers, 'x-ratelimit-limit');
		const w = raw ? /;\s*w=(\d+(?:\.\d+)?)/.exec(raw) : null;
		if (w) out.windowMs = Math.round(Number(w[1]) * 1000);
	}
	return out;
}

/**
 * The server's retry delay in ms, from `Retry-After` (seconds or HTTP date),
 * `X-RateLimit-Reset` / `RateLimit-Reset` (epoch seconds, epoch ms, or seconds
 * from now), or a `retryAfter` number in the body.
 */
export function parseRetryDelay(headers: Record<string, HeaderValue> | undefined, now: number, body?: unknown): number | undefined {
	const retryAfter = headerValue(headers, 'retry-after')?.trim();
	if (retryAfter) {
		if (/^\d+(\.\d+)?$/.test(retryAfter)) {
			const ms = Math.round(Number(retryAfter) * 1000);
			// Whole seconds, rounded up by the server: an exact reset time within the last second before it is the same instant, told precisely.
			const reset = /^\d+$/.test(retryAfter) ? resetDelay(headers, now) : undefined;
			return reset !== undefined && reset > ms - 1000 && reset <= ms ? reset : ms;
		}
		const at = Date.parse(retryAfter);
		if (!Number.isNaN(at)) return Math.max(0, at - now);
	}
	const reset = resetDelay(headers, now);
	if (reset !== undefined) return reset;
	const ietf = readIetf(headers);
	if (ietf.resetInMs !== undefined) return ietf.resetInMs;
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
