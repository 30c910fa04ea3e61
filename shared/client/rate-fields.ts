/**
 * What an answer says of the quota and of when to come back: one reader, one table of the spellings it knows.
 * A field it does not know, or a value it cannot read, counts as not said (the pacing then works from refusals
 * alone), never as a wrong number. Dates and epochs are the server's, read on its clock (server-clock.ts in
 * pacing/); delays and durations are relative, and need no clock. Pure: no I/O, no timers.
 */
import type { HeaderValue } from '../base';
import { headerValue } from '../base';
import { DELAY_PRECISION_MS, SAME_WINDOW_MS, type RateWindow } from '../pacing';

/** The server's clock as the answers' `Date` headers show it (pacing's ServerClock); without one, ours. */
export interface ServerTime {
	/** Our time (ms) of an instant the server names on its clock. */
	toLocal(serverMs: number): number;
	/** How far `toLocal` may be off (ms): 0 when the server's dates agree with our clock. */
	readonly precisionMs: number;
	/** How early an instant may fall on our clock at most (ms; `toLocal` reads it late, never early): 0 with ours. */
	readonly spreadMs: number;
}

/** Our own clock: what is read when no answer carried a `Date` header. */
export const OWN_CLOCK: ServerTime = { toLocal: (ms) => ms, precisionMs: 0, spreadMs: 0 };

/**
 * The families of count fields, each with its names for the limit, the calls left and the reset. The reset's
 * value may be seconds to wait, epoch seconds, epoch milliseconds, an HTTP date or a duration (`850ms`, `1m30s`).
 */
export const RATE_FIELD_FAMILIES = [
	{ family: 'X-RateLimit-*', limit: 'x-ratelimit-limit', remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset' },
	{ family: 'X-Rate-Limit-*', limit: 'x-rate-limit-limit', remaining: 'x-rate-limit-remaining', reset: 'x-rate-limit-reset' },
	{ family: 'RateLimit-* (older IETF draft)', limit: 'ratelimit-limit', remaining: 'ratelimit-remaining', reset: 'ratelimit-reset' },
	{ family: 'x-ratelimit-*-requests', limit: 'x-ratelimit-limit-requests', remaining: 'x-ratelimit-remaining-requests', reset: 'x-ratelimit-reset-requests' },
] as const;

/** The fields that give a refused call's delay, first found wins: milliseconds before seconds (the finer wins). */
export const DELAY_FIELDS = [
	{ field: 'retry-after-ms', unit: 'ms' },
	{ field: 'x-ms-retry-after-ms', unit: 'ms' },
	{ field: 'retry-after', unit: 'seconds or HTTP date' },
] as const;

/** The IETF fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "p";q=100;w=60` and `RateLimit: "p";r=42;t=17`. */
export const IETF_FIELDS = { policy: 'ratelimit-policy', limit: 'ratelimit' } as const;

/** Numbers above these are epochs, not delays: 1e12 ms is 2001 in epoch ms, 1e9 s is 2001 in epoch seconds. */
const EPOCH_MS_ABOVE = 1e12;
const EPOCH_S_ABOVE = 1e9;

const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/**
 * A date as servers write them: an HTTP date (`Tue, 14 Nov 2023 22:13:22 GMT`) or ISO 8601 with its zone. Not any
 * text `Date.parse` accepts: it takes `-5` for a year.
 */
function parseDate(text: string): number | undefined {
	if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text) && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
	const at = Date.parse(text);
	return Number.isNaN(at) ? undefined : at;
}

/** A duration as OpenAI-style APIs give it (`850ms`, `1s`, `1m30s`, `6m0s`, `1.5s`), in ms; undefined if it is not one. */
export function parseDuration(raw: string): number | undefined {
	const text = raw.trim().toLowerCase();
	if (!DURATION.test(text)) return undefined;
	let ms = 0;
	for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) ms += Number(m[1]) * DURATION_UNIT_MS[m[2]];
	return Math.round(ms);
}

/**
 * How uncertain a relative value is from the answer's time: it was written between our send (`sentAt`) and the
 * answer's arrival (`now`). Within SAME_WINDOW_MS, the same instant: 0.
 */
function answerTime(now: number, sentAt: number): number {
	return now - sentAt <= SAME_WINDOW_MS ? 0 : now - sentAt;
}

/** When a window ends, on our clock; `exact` when told to the millisecond (and, for a date on the server's clock, when that clock is known as well). */
export interface ResetTime {
	at: number;
	exact: boolean;
	/** How far before `at` the window may end (ms): the value's rounding, and the server's clock's spread for its dates. */
	precisionMs: number;
	/**
	 * The window's end lies within `precisionMs` before `at` for good: not an exact instant on a server clock not yet
	 * known to the millisecond (its answers soon tell it exactly), nor a zero (a window that ended some time before).
	 */
	settled: boolean;
}

/**
 * A reset's value: epoch ms, epoch s (decimals allowed), seconds to wait, a duration, or an HTTP date. A time
 * already past is kept as it is. Exact when told to the millisecond: epoch ms, decimals, or a duration; whole
 * seconds and dates are rounded by the server.
 */
export function parseReset(raw: string | undefined, now: number, clock: ServerTime = OWN_CLOCK, sentAt = now): ResetTime | undefined {
	const text = raw?.trim();
	if (!text) return undefined;
	// A delay counts from when the server wrote it: between our send and the answer's arrival. Read from the arrival,
	// it ends late by up to that time (never early); exact only when that time is within the same window's margin
	// (a duration written when a 1 s answer began, read as it ended: a whole window late, 2 × the quota-bound limit).
	// A relative value is as precise as the answer was quick (written between send and arrival), and its rounding.
	const slow = answerTime(now, sentAt);
	const relativeExact = slow === 0;
	const relative = (at: number, exact: boolean): ResetTime => ({ at, exact: exact && relativeExact, precisionMs: (exact ? 0 : DELAY_PRECISION_MS) + slow, settled: at > now });
	const onServerClock = (serverMs: number, exact: boolean): ResetTime => ({
		at: clock.toLocal(serverMs),
		exact: exact && clock.precisionMs <= SAME_WINDOW_MS,
		precisionMs: (exact ? 0 : DELAY_PRECISION_MS) + clock.spreadMs,
		settled: !exact || clock.precisionMs <= SAME_WINDOW_MS,
	});
	if (/^\d+(\.\d+)?$/.test(text)) {
		const n = Number(text);
		const decimals = text.includes('.');
		if (n > EPOCH_MS_ABOVE) return onServerClock(n, true);
		if (n > EPOCH_S_ABOVE) return onServerClock(Math.round(n * 1000), decimals);
		return relative(now + Math.round(n * 1000), decimals && n > 0);
	}
	const duration = parseDuration(text);
	// A duration is printed with every digit the server has (Go's form: `8s` is 8.000 s, `7.5s`, `850ms`): exact; but
	// `0ms` says only that the window ended, some time before (a server does not count below zero).
	if (duration !== undefined) return relative(now + duration, duration > 0);
	const date = parseDate(text);
	return date === undefined ? undefined : onServerClock(date, false);
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

/** The quota an answer reports, from whichever fields it sends (RATE_FIELD_FAMILIES, the IETF fields): what the pacing learns from (pacing's RateWindow). */
export type RateLimitInfo = RateWindow;

/** The IETF fields: the policy that matches the `RateLimit` item (by name), or the one with the least remaining. */
function readIetf(headers: Record<string, HeaderValue> | undefined): { limit?: number; remaining?: number; windowMs?: number; resetInMs?: number } {
	const limits = parseSfList(headerValue(headers, IETF_FIELDS.limit));
	const policies = parseSfList(headerValue(headers, IETF_FIELDS.policy));
	if (limits.length === 0 && policies.length === 0) return {};
	// The tightest: the item with the least remaining (each policy is a quota of its own).
	let item: SfItem | undefined;
	for (const l of limits) {
		if (sfNumber(l.params.r) === undefined) continue;
		if (!item || (sfNumber(l.params.r) as number) < (sfNumber(item.params.r) as number)) item = l;
	}
	const policy = (item && policies.find((p) => p.name === item.name)) ?? (policies.length === 1 || !item ? policies[0] : undefined);
	const w = sfNumber(policy?.params.w);
	const t = sfNumber(item?.params.t);
	return {
		limit: sfNumber(policy?.params.q),
		remaining: sfNumber(item?.params.r),
		windowMs: w === undefined || w <= 0 ? undefined : Math.round(w * 1000),
		resetInMs: t === undefined ? undefined : Math.round(t * 1000),
	};
}

/** A count field's number: "100" or, in the older draft's structured form, "100;w=60" (the number first). */
function count(headers: Record<string, HeaderValue> | undefined, name: string): number | undefined {
	const m = /^(\d+)\b/.exec(headerValue(headers, name)?.trim() ?? '');
	return m ? Number(m[1]) : undefined;
}

/**
 * What an answer says of the quota, from the first family that tells anything, then the IETF fields for what is
 * missing. `sentAt`: when the call it answers was sent (a relative reset is exact only for a quick answer).
 */
export function readRateLimit(headers: Record<string, HeaderValue> | undefined, now: number, clock: ServerTime = OWN_CLOCK, sentAt = now): RateLimitInfo {
	const out: RateLimitInfo = {};
	for (const f of RATE_FIELD_FAMILIES) {
		const limit = count(headers, f.limit);
		const remaining = count(headers, f.remaining);
		const reset = parseReset(headerValue(headers, f.reset), now, clock, sentAt);
		if (limit === undefined && remaining === undefined && reset === undefined) continue;
		Object.assign(out, { limit, remaining, resetAt: reset?.at, resetExact: reset?.exact, resetPrecisionMs: reset?.precisionMs, resetSettled: reset?.settled });
		const w = /;\s*w=(\d+(?:\.\d+)?)/.exec(headerValue(headers, f.limit) ?? '');
		if (w) out.windowMs = Math.round(Number(w[1]) * 1000);
		break;
	}
	const ietf = readIetf(headers);
	out.limit ??= ietf.limit;
	out.remaining ??= ietf.remaining;
	if (ietf.windowMs !== undefined) out.windowMs = ietf.windowMs;
	// Seconds to wait, rounded up, written between our send and the answer's arrival (as parseReset's relative values).
	const slow = answerTime(now, sentAt);
	if (out.resetAt === undefined && ietf.resetInMs !== undefined) Object.assign(out, { resetAt: now + ietf.resetInMs, resetExact: false, resetPrecisionMs: DELAY_PRECISION_MS + slow, resetSettled: ietf.resetInMs > 0 });
	for (const k of Object.keys(out) as Array<keyof RateLimitInfo>) if (out[k] === undefined) delete out[k];
	return out;
}

/** A refused call's delay, and how far the window's end may lie before it (ms): 0 when told to the millisecond. */
export interface RetryDelay {
	ms: number;
	/**
	 * The window ends within this time before `ms` runs out: a delay in whole seconds (or an HTTP date) is rounded up
	 * to its second; a relative delay counts from when the server wrote it, up to the answer's time before it came.
	 */
	precisionMs: number;
	/** The window's end lies within `precisionMs` before the delay's end for good (ResetTime's `settled`). */
	settled: boolean;
}

/**
 * The server's retry delay in ms, with its precision: a delay field (DELAY_FIELDS: milliseconds, seconds, or an
 * HTTP date on the server's clock), else a reset of the count families or the IETF `t`, else a `retryAfter` number
 * (seconds) in the body. Never negative. Undefined when nothing says it: the caller backs off on its own.
 * `sentAt`: when the refused call was sent (a relative delay is written between then and `now`).
 */
export function readRetryDelay(headers: Record<string, HeaderValue> | undefined, now: number, body?: unknown, clock: ServerTime = OWN_CLOCK, sentAt = now): RetryDelay | undefined {
	// A relative delay is as precise as the answer was quick (SAME_WINDOW_MS: the same instant), and its rounding.
	const relative = answerTime(now, sentAt);
	const reset = readRateLimit(headers, now, clock, sentAt);
	const resetDelay = reset.resetAt === undefined ? undefined : { ms: Math.max(0, reset.resetAt - now), precisionMs: reset.resetPrecisionMs ?? DELAY_PRECISION_MS, settled: reset.resetSettled === true };
	for (const { field, unit } of DELAY_FIELDS) {
		const raw = headerValue(headers, field)?.trim();
		if (!raw) continue;
		if (/^\d+(\.\d+)?$/.test(raw)) {
			const ms = Math.round(Number(raw) * (unit === 'ms' ? 1 : 1000));
			const whole = unit !== 'ms' && /^\d+$/.test(raw);
			// Whole seconds, rounded up by the server: an exact reset within the last second before it is the same instant, told precisely.
			if (whole && resetDelay !== undefined && resetDelay.ms > ms - 1000 && resetDelay.ms <= ms) return resetDelay;
			return { ms, precisionMs: (whole ? DELAY_PRECISION_MS : 0) + relative, settled: ms > 0 };
		}
		if (unit === 'ms') continue;
		const at = parseDate(raw);
		// Its second, and how early the server's clock may put it on ours (a first answer's `Date` leaves up to a second).
		if (at !== undefined) return { ms: Math.max(0, clock.toLocal(at) - now), precisionMs: DELAY_PRECISION_MS + clock.spreadMs, settled: true };
	}
	if (resetDelay !== undefined) return resetDelay;
	if (body && typeof body === 'object') {
		const b = body as Record<string, unknown>;
		const inner = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : {};
		for (const v of [b.retryAfter, b.retry_after, inner.retryAfter, inner.retry_after]) {
			if (typeof v === 'number' && v >= 0) return { ms: Math.round(v * 1000), precisionMs: (Number.isInteger(v) ? DELAY_PRECISION_MS : 0) + relative, settled: v > 0 };
		}
	}
	return undefined;
}

/** The server's retry delay in ms (readRetryDelay without its precision). */
export function parseRetryDelay(headers: Record<string, HeaderValue> | undefined, now: number, body?: unknown, clock: ServerTime = OWN_CLOCK): number | undefined {
	return readRetryDelay(headers, now, body, clock)?.ms;
}
