/** What the answers say of the quota (shared/quota-window.ts): each piece used only where it is known. */
import { QuotaWindow } from '../../shared/quota-window';

describe('QuotaWindow', () => {
	test('an exact window end and a spent count hold the calls until that end, counting our calls sent after the one told', () => {
		const q = new QuotaWindow();
		for (let t = 1; t <= 3; t++) q.onSend(t, t * 10);
		q.learn({ limit: 10, remaining: 2, resetAt: 1_000 }, 1, 100);
		// Our calls 2 and 3 were sent after call 1 was counted: the window is spent.
		expect(q.holdUntil(100)).toBe(1_000);
		expect(q.holdUntil(1_000)).toBeUndefined();
	});

	test('past a told end, with the new window length unknown, calls beyond the limit wait for the answers that tell its end, when they come within a window', () => {
		const q = new QuotaWindow();
		q.onSend(1, 0);
		// Counted in a window ending at 5 s: a window lasts about 5 s at least.
		q.learn({ limit: 3, remaining: 2, resetAt: 5_000 }, 1, 1_000);
		for (let t = 2; t <= 4; t++) q.onSend(t, 5_000 + t);
		expect(q.spentUntilTold(5_010, 1_000)).toBe(true);
		// Answers slower than a window: waiting for them costs more than the refusals would.
		expect(q.spentUntilTold(5_010, 6_000)).toBe(false);
		expect(q.spentUntilTold(5_010, undefined)).toBe(false);
		// Fewer than the limit sent since the end: nothing to wait for.
		const r = new QuotaWindow();
		r.onSend(1, 0);
		r.learn({ limit: 3, remaining: 2, resetAt: 5_000 }, 1, 1_000);
		r.onSend(2, 5_002);
		expect(r.spentUntilTold(5_010, 1_000)).toBe(false);
		// The window's length stated: holdUntil knows the end, nothing waits for an answer.
		const s = new QuotaWindow();
		s.onSend(1, 0);
		s.learn({ limit: 3, remaining: 2, resetAt: 5_000, windowMs: 5_000 }, 1, 1_000);
		for (let t = 2; t <= 4; t++) s.onSend(t, 5_000 + t);
		expect(s.spentUntilTold(5_010, 1_000)).toBe(false);
	});

	test('a refused call was not counted', () => {
		const q = new QuotaWindow();
		for (let t = 1; t <= 3; t++) q.onSend(t, t * 10);
		q.onRefused(3);
		q.learn({ limit: 10, remaining: 2, resetAt: 1_000 }, 1, 100);
		expect(q.holdUntil(100)).toBeUndefined();
	});

	test('a count without an exact end holds nothing: its end is unknown (no reset, a reset in whole seconds, a date)', () => {
		for (const w of [{ limit: 10, remaining: 0 }, { limit: 10, remaining: 0, resetAt: 2_000, resetExact: false }]) {
			const q = new QuotaWindow();
			q.onSend(1, 0);
			q.learn(w, 1, 100);
			expect(q.holdUntil(100)).toBeUndefined();
			expect(q.toldRate()).toBeUndefined();
		}
	});

	test('a stated window gives the told rate (with the margin of a window that starts with its first call), and our own calls stay within the limit', () => {
		const q = new QuotaWindow();
		q.learn({ limit: 10, windowMs: 1_000 }, 0, 0);
		expect(q.toldRate()).toBeCloseTo(10_000 / 1_030);
		for (let t = 1; t <= 10; t++) q.onSend(t, t * 10);
		// Ten calls within the last window's length: the next waits until the first of them is a window old.
		expect(q.holdUntil(200)).toBe(10 + 1_030);
	});

	test('an exact end is known as such whether the window length is stated or learned; a rounded one is not', () => {
		const stated = new QuotaWindow();
		stated.learn({ limit: 10, windowMs: 1_000, remaining: 5, resetAt: 1_000 }, 1, 100);
		expect(stated.exact).toBe(true);
		const rounded = new QuotaWindow();
		rounded.learn({ limit: 10, remaining: 5, resetAt: 1_000, resetExact: false }, 1, 100);
		expect(rounded.exact).toBe(false);
	});

	test('the window length is learned from the least gap between exact ends', () => {
		const q = new QuotaWindow();
		q.learn({ limit: 10, remaining: 5, resetAt: 1_000 }, 1, 100);
		q.learn({ limit: 10, remaining: 5, resetAt: 2_050 }, 2, 1_100);
		q.learn({ limit: 10, remaining: 5, resetAt: 3_050 }, 3, 2_100);
		expect(q.windowMs).toBe(1_000);
	});

	test('a window that ended with 40 % of its limit left shows room; one that ended spent does not', () => {
		const q = new QuotaWindow();
		expect(q.learn({ limit: 10, remaining: 0, resetAt: 1_000 }, 1, 100)).toBe(false);
		expect(q.learn({ limit: 10, remaining: 6, resetAt: 2_000 }, 2, 1_100)).toBe(false);
		expect(q.learn({ limit: 10, remaining: 4, resetAt: 2_000 }, 3, 1_500)).toBe(false);
		expect(q.learn({ limit: 10, remaining: 9, resetAt: 3_000 }, 4, 2_100)).toBe(true);
	});
});
