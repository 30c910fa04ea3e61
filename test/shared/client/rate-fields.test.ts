/**
 * rate-fields.ts: one reader with one table of spellings. Each spelling the table names is read here; a field or
 * value it does not know counts as not said, never as a wrong number; the server's dates are read on its clock.
 */
import { DELAY_FIELDS, parseDuration, parseReset, parseRetryDelay, RATE_FIELD_FAMILIES, readRateLimit, readRetryDelay } from '../../../shared/client';
import { ServerClock } from '../../../shared/pacing';

const now = 1_700_000_000_000;

describe('readRateLimit: each family of count fields', () => {
	test.each(RATE_FIELD_FAMILIES.map((f) => [f.family, f] as const))('%s: limit, remaining and reset', (_name, f) => {
		expect(readRateLimit({ [f.limit]: '30', [f.remaining]: '7', [f.reset]: '1700000004.500' }, now)).toEqual({ limit: 30, remaining: 7, resetAt: now + 4_500, resetExact: true, resetPrecisionMs: 0, resetSettled: true });
	});

	test('header names are read whatever their case', () => {
		expect(readRateLimit({ 'X-RATELIMIT-LIMIT': '10', 'x-RateLimit-Remaining': '2' }, now)).toEqual({ limit: 10, remaining: 2 });
	});
});

describe('parseReset: every form of a reset', () => {
	test.each([
		['seconds to wait', '30', { at: now + 30_000, exact: false, precisionMs: 1_000, settled: true }],
		['seconds to wait, with decimals', '0.250', { at: now + 250, exact: true, precisionMs: 0, settled: true }],
		['epoch seconds', '1700000002', { at: now + 2_000, exact: false, precisionMs: 1_000, settled: true }],
		['epoch seconds to the millisecond', '1700000001.250', { at: now + 1_250, exact: true, precisionMs: 0, settled: true }],
		['epoch milliseconds', '1700000002000', { at: now + 2_000, exact: true, precisionMs: 0, settled: true }],
		['an HTTP date', 'Tue, 14 Nov 2023 22:13:22 GMT', { at: Date.parse('Tue, 14 Nov 2023 22:13:22 GMT'), exact: false, precisionMs: 1_000, settled: true }],
		['a duration in ms', '850ms', { at: now + 850, exact: true, precisionMs: 0, settled: true }],
		// A duration is printed with every digit the server has (Go's form): exact, also in whole seconds.
		['a duration in s', '1s', { at: now + 1_000, exact: true, precisionMs: 0, settled: true }],
		['a duration in m and s', '1m30s', { at: now + 90_000, exact: true, precisionMs: 0, settled: true }],
		['a duration with decimals', '1.5s', { at: now + 1_500, exact: true, precisionMs: 0, settled: true }],
		['a duration in h, m, s', '1h0m6s', { at: now + 3_606_000, exact: true, precisionMs: 0, settled: true }],
		// Zero says only that the window ended, some time before: no exact end (answers that come after a window's end all say 0).
		['a duration of zero', '0ms', { at: now, exact: false, precisionMs: 1_000, settled: false }],
		['zero seconds to wait, with decimals', '0.000', { at: now, exact: false, precisionMs: 1_000, settled: false }],
		['zero seconds to wait', '0', { at: now, exact: false, precisionMs: 1_000, settled: false }],
	])('%s (%s)', (_name, raw, expected) => {
		expect(parseReset(raw, now)).toEqual(expected);
	});

	test.each(['soon', '', '-5', '1m30', '5 s', 'NaN'])('%j is not a reset: not said', (raw) => {
		expect(parseReset(raw, now)).toBeUndefined();
	});

	test('a delay or a duration counts from when the server wrote it: exact only for a quick answer', () => {
		expect(parseReset('850ms', now, undefined, now - 30)).toEqual({ at: now + 850, exact: true, precisionMs: 0, settled: true });
		expect(parseReset('850ms', now, undefined, now - 1_000)).toEqual({ at: now + 850, exact: false, precisionMs: 1_000, settled: true });
		expect(parseReset('0.850', now, undefined, now - 400)).toEqual({ at: now + 850, exact: false, precisionMs: 400, settled: true });
		// An epoch names an instant: how long the answer took does not matter.
		expect(parseReset('1700000001.250', now, undefined, now - 1_000)).toEqual({ at: now + 1_250, exact: true, precisionMs: 0, settled: true });
		// Whole seconds to wait, in a 1.2 s answer: the rounding and the answer's time.
		expect(parseReset('30', now, undefined, now - 1_200)).toEqual({ at: now + 30_000, exact: false, precisionMs: 2_200, settled: true });
		expect(readRateLimit({ RateLimit: '"default";r=0;t=12' }, now, undefined, now - 1_200)).toMatchObject({ resetAt: now + 12_000, resetExact: false, resetPrecisionMs: 2_200, resetSettled: true });
	});

	test('parseDuration reads each unit and their sums, and nothing else', () => {
		expect([parseDuration('17ms'), parseDuration('6m0s'), parseDuration('2h'), parseDuration('0.5s'), parseDuration('1m'), parseDuration('ms'), parseDuration('3 m')]).toEqual([17, 360_000, 7_200_000, 500, 60_000, undefined, undefined]);
	});

	test('an epoch or a date is read on the server clock; a delay or a duration needs none', () => {
		const clock = { toLocal: (ms: number) => ms - 3_000, precisionMs: 10, spreadMs: 30 };
		expect(parseReset('1700000005.000', now, clock)).toEqual({ at: now + 2_000, exact: true, precisionMs: 30, settled: true });
		expect(parseReset('5', now, clock)).toEqual({ at: now + 5_000, exact: false, precisionMs: 1_000, settled: true });
		expect(parseReset('5s', now, clock)).toEqual({ at: now + 5_000, exact: true, precisionMs: 0, settled: true });
	});

	test('an exact epoch on a server clock known only to the second is not exact: it may be early by as much as the clock may be off', () => {
		expect(parseReset('1700000005.000', now, { toLocal: (ms) => ms, precisionMs: 500, spreadMs: 1_000 })).toEqual({ at: now + 5_000, exact: false, precisionMs: 1_000, settled: false });
		// A date: its second, and the clock's spread, for good (a window's length may be learned from it, not from the epoch).
		expect(parseReset('Tue, 14 Nov 2023 22:13:25 GMT', now, { toLocal: (ms) => ms, precisionMs: 500, spreadMs: 1_000 })).toMatchObject({ precisionMs: 2_000, settled: true });
	});
});

describe('readRateLimit: the IETF fields and the older draft', () => {
	test.each([
		[{ 'RateLimit-Policy': '"generate";q=10;w=1', RateLimit: '"generate";r=3;t=1' }, { limit: 10, remaining: 3, windowMs: 1_000, resetAt: now + 1_000, resetExact: false, resetPrecisionMs: 1_000, resetSettled: true }],
		// Each policy is a quota of its own: the tightest (the least remaining) is read.
		[{ 'RateLimit-Policy': '"burst";q=100;w=60, "daily";q=1000;w=86400', RateLimit: '"burst";r=50;t=30, "daily";r=7;t=3600' }, { limit: 1000, remaining: 7, windowMs: 86_400_000, resetAt: now + 3_600_000, resetExact: false, resetPrecisionMs: 1_000, resetSettled: true }],
		[{ 'RateLimit-Limit': '100;w=60', 'RateLimit-Remaining': '99', 'RateLimit-Reset': '30' }, { limit: 100, remaining: 99, resetAt: now + 30_000, resetExact: false, resetPrecisionMs: 1_000, resetSettled: true, windowMs: 60_000 }],
		[{ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '5' }, { limit: 10, remaining: 5 }],
		[{}, {}],
		// A reset already past stays in the past: it names a window that is over, not the current one.
		[{ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1699999999.000' }, { limit: 10, remaining: 0, resetAt: now - 1_000, resetExact: true, resetPrecisionMs: 0, resetSettled: true }],
		// A spelling the table does not know is not said.
		[{ 'X-Quota-Left': '5', 'RateLimit-Limit': 'many' }, {}],
	])('%j', (headers, expected) => {
		expect(readRateLimit(headers, now)).toEqual(expected);
	});
});

describe('parseRetryDelay: each delay field, then the resets, then the body', () => {
	test('the table lists milliseconds before seconds', () => {
		expect(DELAY_FIELDS.map((d) => d.field)).toEqual(['retry-after-ms', 'x-ms-retry-after-ms', 'retry-after']);
	});

	test.each([
		['Retry-After in seconds', { 'Retry-After': '3' }, 3_000],
		['Retry-After in seconds with decimals', { 'Retry-After': '1.5' }, 1_500],
		['Retry-After as an HTTP date', { 'Retry-After': new Date(now + 4_000).toUTCString() }, 4_000],
		['retry-after-ms', { 'retry-after-ms': '850' }, 850],
		['x-ms-retry-after-ms', { 'x-ms-retry-after-ms': '120' }, 120],
		['retry-after-ms wins over Retry-After (finer)', { 'retry-after-ms': '850', 'Retry-After': '1' }, 850],
		['a reset as a duration', { 'x-ratelimit-reset-requests': '1m30s' }, 90_000],
		['a reset in seconds to wait', { 'RateLimit-Reset': '7' }, 7_000],
		['the IETF t', { RateLimit: '"default";r=0;t=12' }, 12_000],
		['whole seconds and an exact reset within them: the exact reset', { 'Retry-After': '2', 'X-RateLimit-Reset': '1700000001.400' }, 1_400],
	])('%s', (_name, headers, expected) => {
		expect(parseRetryDelay(headers, now)).toBe(expected);
	});

	// The precision: how far before the delay's end the window may end. The hold probes that time (refusal-hold.ts);
	// a delay told to the millisecond has none to probe.
	// Settled: the window's end lies within that precision for good, so that it may show the window's length
	// (learned-length.ts); not a zero, which says only that the window ended some time before.
	test.each([
		['retry-after-ms', { 'retry-after-ms': '850' }, 0, true],
		['Retry-After in seconds with decimals', { 'Retry-After': '1.5' }, 0, true],
		['a reset as a duration', { 'x-ratelimit-reset-requests': '1m30s' }, 0, true],
		['an exact reset within whole seconds', { 'Retry-After': '2', 'X-RateLimit-Reset': '1700000001.400' }, 0, true],
		['Retry-After in whole seconds', { 'Retry-After': '3' }, 1_000, true],
		['Retry-After as an HTTP date', { 'Retry-After': new Date(now + 4_000).toUTCString() }, 1_000, true],
		['a reset in whole seconds to wait', { 'RateLimit-Reset': '7' }, 1_000, true],
		['the IETF t', { RateLimit: '"default";r=0;t=12' }, 1_000, true],
		['Retry-After: 0', { 'Retry-After': '0' }, 1_000, false],
		['the IETF t=0', { RateLimit: '"default";r=0;t=0' }, 1_000, false],
	])('precision of %s', (_name, headers, precisionMs, settled) => {
		expect(readRetryDelay(headers, now)).toMatchObject({ precisionMs, settled });
	});

	test("an HTTP date read on a server's clock known only to its spread: the date's second and that spread", () => {
		const clock = new ServerClock();
		// One answer, 300 ms on its way, from a server 3 s ahead: the offset is known within 1.3 s.
		clock.learn(new Date(now + 3_000).toUTCString(), now - 300, now);
		expect(readRetryDelay({ 'Retry-After': new Date(now + 5_000).toUTCString() }, now, undefined, clock)?.precisionMs).toBe(1_000 + clock.spreadMs);
		expect(clock.spreadMs).toBe(1_300);
		// An exact reset on that clock is not settled: its answers soon tell the clock, and the end, exactly.
		expect(readRetryDelay({ 'X-RateLimit-Reset': ((now + 8_000) / 1_000).toFixed(3) }, now, undefined, clock)).toMatchObject({ settled: false });
	});

	test('a delay on a slow refusal is as precise as the answer was quick (it was written between the send and the answer), and its rounding', () => {
		expect(readRetryDelay({ 'retry-after-ms': '850' }, now, undefined, undefined, now - 30)).toEqual({ ms: 850, precisionMs: 0, settled: true });
		expect(readRetryDelay({ 'retry-after-ms': '850' }, now, undefined, undefined, now - 400)).toEqual({ ms: 850, precisionMs: 400, settled: true });
		expect(readRetryDelay({}, now, { retryAfter: 0.25 }, undefined, now - 400)).toEqual({ ms: 250, precisionMs: 400, settled: true });
		expect(readRetryDelay({}, now, { retryAfter: 2 })).toEqual({ ms: 2_000, precisionMs: 1_000, settled: true });
		// Whole seconds: their second, and the answer's time.
		expect(readRetryDelay({ 'Retry-After': '3' }, now, undefined, undefined, now - 400)).toEqual({ ms: 3_000, precisionMs: 1_400, settled: true });
		expect(readRetryDelay({}, now, { retryAfter: 2 }, undefined, now - 400)).toEqual({ ms: 2_000, precisionMs: 1_400, settled: true });
	});

	test('a retryAfter in the body, in seconds, when no field says it', () => {
		expect([parseRetryDelay({}, now, { error: { retryAfter: 2 } }), parseRetryDelay({}, now, { retry_after: 0.5 })]).toEqual([2_000, 500]);
	});

	test.each([
		['nothing at all', {}],
		['a retry-after-ms that is not a number', { 'retry-after-ms': 'soon' }],
		['a Retry-After that is neither seconds nor a date', { 'Retry-After': 'later please' }],
	])('%s: not said (the caller backs off on its own)', (_name, headers) => {
		expect(parseRetryDelay(headers, now)).toBeUndefined();
	});

	test('a date in the past is no wait, never a negative one', () => {
		expect(parseRetryDelay({ 'Retry-After': 'Sat, 21 Nov 2026 09:00:00 GMT' }, Date.parse('2026-11-21T10:00:00Z'))).toBe(0);
	});

	test("a Retry-After date from a server 3 s ahead is read on the server's clock", () => {
		const clock = new ServerClock();
		// Three answers stamped by a server 3 s ahead, each received 2 ms after it was written, at sub-second instants.
		for (const at of [now + 100, now + 1_350, now + 2_900]) clock.learn(new Date(at + 3_000 - 2).toUTCString(), at - 1_000, at);
		// Read at now + 3 s on our clock (now + 5.998 s on the server's), a date of now + 10 s on the server's clock is 4.002 s away.
		const retryAt = new Date(now + 10_000).toUTCString();
		const delay = parseRetryDelay({ 'Retry-After': retryAt }, now + 3_000, undefined, clock) as number;
		// Within what three whole-second Date headers leave (the offset is learned to a quarter of a second or better).
		expect(Math.abs(delay - 4_002)).toBeLessThan(250);
		// Read on our clock, it would have been 7 s: 3 s too long.
		expect(parseRetryDelay({ 'Retry-After': retryAt }, now + 3_000)).toBe(7_000);
	});
});
