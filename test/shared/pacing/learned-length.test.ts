/** shared/pacing/learned-length.ts, alone and through QuotaWindow: a window's length from the gaps between the ends told, exact or to the second. */
import { LearnedLength, QuotaWindow, RoundedLength } from '../../../shared/pacing';

test('the window length is learned from the least gap between exact ends', () => {
	const q = new QuotaWindow();
	q.onSend(1, 100);
	q.onSend(2, 1_200);
	q.onSend(3, 2_100);
	q.learn({ limit: 10, remaining: 5, resetAt: 1_000 }, 1);
	q.learn({ limit: 10, remaining: 5, resetAt: 2_050 }, 2);
	q.learn({ limit: 10, remaining: 5, resetAt: 3_050 }, 3);
	expect(q.windowMs).toBe(1_000);
});

test('a gap that may span several windows is not taken for one (a refusal early, then answers 5 s later)', () => {
	const q = new QuotaWindow();
	q.onSend(1, 0);
	q.onSend(2, 4_600);
	// A refusal at 0.66 s tells the end at 1 s; the next answer to reach us, 5 s later, tells the end at 5 s.
	q.learn({ limit: 10, remaining: 0, resetAt: 1_000 }, 1);
	q.learn({ limit: 10, remaining: 9, resetAt: 5_000 }, 2);
	expect(q.windowMs).toBeUndefined();
	expect(q.toldRate()).toBeUndefined();
	// A call sent at 5.05 s counted in the window ending at 6 s: that gap is one window (a window lasts 0.95 s at least).
	q.onSend(3, 5_050);
	q.learn({ limit: 10, remaining: 9, resetAt: 6_000 }, 3);
	expect(q.windowMs).toBe(1_000);
});

test("one end read twice, 56 ms apart as the server's clock is read more closely, is one window, not a window of 56 ms", () => {
	const q = new QuotaWindow();
	q.onSend(1, 1_000);
	q.onSend(2, 1_040);
	q.onSend(3, 11_000);
	// Counted in the window ending near 10.5 s, on a server clock known to 400 ms; a later reading of that end, 56 ms earlier.
	q.learn({ limit: 25, remaining: 20, resetAt: 10_518, resetPrecisionMs: 400 }, 1);
	q.learn({ limit: 25, remaining: 19, resetAt: 10_462, resetPrecisionMs: 300 }, 2);
	expect(q.windowMs).toBeUndefined();
	expect(q.toldRate()).toBeUndefined();
	// The next window's end, 10 s on: that gap is the window.
	q.learn({ limit: 25, remaining: 24, resetAt: 20_518 }, 3);
	expect(q.windowMs).toBe(10_000);
});

test('a call that takes longer than a window to reach the server still shows the length: one-way 1.1 s, windows of 1 s', () => {
	const learned = new LearnedLength();
	// Each call is counted 1.1 s after it is sent, in a window that ends up to a second later.
	expect(learned.learn(2_000, 0)).toBeUndefined();
	expect(learned.learn(3_000, 1_000)).toBe(1_000);
	expect(learned.learn(4_000, 2_500)).toBe(1_000);
});

describe('RoundedLength: the length from ends told to the second', () => {
	// Answers in 200 ms: a reset of whole seconds to wait says the end lies in (sent + R - 1 s, answered + R].
	const reading = (r: number, sentAt: number, latency = 200) => [sentAt + latency + r * 1_000, 1_000 + latency, sentAt, sentAt + latency] as const;

	test('10 s windows: between the longest a call was counted before its end and the gap between two ends, only 10 s fits', () => {
		const length = new RoundedLength();
		// The first window ends at 10 s: told 10 s for a call counted at 0.1 s, 5 s for one at 5.1 s.
		expect(length.learn(...reading(10, 0))).toBeUndefined();
		expect(length.learn(...reading(5, 5_000))).toBeUndefined();
		// The next window opened with a call counted at 10.2 s, and ends at 20.2 s: at least 8.8 s, at most 11.3 s.
		expect(length.learn(...reading(10, 10_100))).toBe(10_000);
		expect(length.current).toEqual({ from: 19_100, until: 20_300, firstSent: 10_100, roundest: 1_200 });
	});

	test('1 s windows told in whole seconds are never learned: two windows\' readings overlap, and 1 s and 2 s both fit', () => {
		const length = new RoundedLength();
		for (let sentAt = 0; sentAt < 10_000; sentAt += 300) expect(length.learn(...reading(1, sentAt, 100))).toBeUndefined();
	});

	test('answers rounder than half the window (5 s answers, 10 s windows) are not taken, while they bound one of the two windows', () => {
		const length = new RoundedLength();
		for (let window = 0; window < 5; window++) expect(length.learn(...reading(10, window * 10_000, 5_000))).toBeUndefined();
		// Quick answers pin 10 s (at least 8.8 s, at most 11.3 s), but a 5 s answer read the second window too.
		const mixed = new RoundedLength();
		mixed.learn(...reading(10, 0));
		expect(mixed.learn(...reading(10, 10_100, 5_000))).toBeUndefined();
		expect(mixed.learn(...reading(10, 10_100))).toBeUndefined();
		expect(mixed.learn(...reading(10, 20_200))).toBeUndefined();
		// Two windows on, it no longer bounds anything: the length is taken.
		expect(mixed.learn(...reading(10, 30_300))).toBe(10_000);
	});

	test('a window of no common length (12 s) is not taken for the nearest one', () => {
		const length = new RoundedLength();
		for (let window = 0; window < 5; window++) {
			expect(length.learn(...reading(12, window * 12_000))).toBeUndefined();
			expect(length.learn(...reading(6, window * 12_000 + 6_000))).toBeUndefined();
		}
	});

	test("an older window's reading that comes late changes nothing of the current one", () => {
		const length = new RoundedLength();
		length.learn(...reading(10, 0));
		length.learn(...reading(10, 10_100));
		const current = length.current;
		length.learn(...reading(1, 9_000, 1_500));
		expect(length.current).toEqual(current);
	});
});

test('through QuotaWindow: the length learned, our own window starts with our first call of the current window', () => {
	const q = new QuotaWindow();
	const told = (remaining: number, sentAt: number, r: number) => ({ limit: 25, remaining, resetAt: sentAt + 200 + r * 1_000, resetExact: false, resetPrecisionMs: 1_200, resetSettled: true });
	q.onSend(1, 0);
	q.learn(told(24, 0, 10), 1, 200);
	q.onSend(2, 5_000);
	q.learn(told(23, 5_000, 5), 2, 5_200);
	q.onSend(3, 9_500);
	expect(q.windowMs).toBeUndefined();
	q.onSend(4, 10_100);
	q.onSend(5, 10_150);
	q.learn(told(24, 10_100, 10), 4, 10_300);
	expect(q.windowMs).toBe(10_000);
	// Calls 4 and 5 in it: not call 3, in the window before's last second (the earliest that window could end, 9 s,
	// would take it in), nor call 2 (from the last span, a window that began at 5 s, and ended 5 s early).
	expect(q.leftInSpan(10_300)).toBe(23);
	// An end only read on a server's clock not yet known is not told to the second: no length from it.
	const clock = new QuotaWindow();
	for (const [ticket, at] of [[1, 0], [2, 10_100]]) {
		clock.onSend(ticket, at);
		clock.learn({ limit: 25, remaining: 24, resetAt: at + 10_000, resetExact: false, resetPrecisionMs: 300, resetSettled: false }, ticket, at + 200);
	}
	expect(clock.windowMs).toBeUndefined();
});

test('through QuotaWindow: refusals in whole seconds show the length where the answers tell a limit and no end (X-RateLimit-* without a reset)', () => {
	const refusals = (q: QuotaWindow) => {
		// Refused at 9.5 s for 1 s (the window ends by 10.5 s), and at 10.8 s for 10 s (the next ends by 20.8 s, after 19.8 s).
		q.onRefusalEnd(10_500, 1_000, 9_500);
		return q.onRefusalEnd(20_800, 1_000, 10_800);
	};
	const told = new QuotaWindow();
	told.onSend(1, 0);
	told.learn({ limit: 25, remaining: 24 }, 1, 200);
	// Our call at 10.1 s went through; the one at 10.8 s was refused.
	told.onSend(2, 10_100);
	told.onSend(3, 10_800);
	told.onRefused(3);
	expect(refusals(told)).toBe(true);
	expect(told.windowMs).toBe(10_000);
	expect(told.toldRate()).toBeCloseTo(25_000 / 10_110, 6);
	// Our window began after the window before ended (9.5 s at the earliest), with the call at 10.1 s; the refusal filled it.
	expect(told.leftInSpan(11_000)).toBe(0);
	// No limit told: the pace comes from refusals alone (Retry-After alone), and no length is taken.
	const untold = new QuotaWindow();
	refusals(untold);
	expect(untold.windowMs).toBeUndefined();
});
