/** shared/pacing/learned-length.ts, through QuotaWindow: a window's length from the gaps between the exact ends told. */
import { LearnedLength, QuotaWindow } from '../../../shared/pacing';

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
