/**
 * told-burst.ts: without exact window ends, a told window's calls go together only for a client the counts show
 * alone, and then in windows of our own; a refusal fills ours (it is out of step with the server's).
 */
import { OwnSends, QuotaWindow, SHARED_PACE, SHARED_SPREAD_MAX_MS, ToldBurst } from '../../../shared/pacing';

/** Counts told of a limit of 10 in windows of 10 s, our first call of the span at 100 ms: [remaining, sent at, ours within, ours up to]. */
function told(counts: Array<[remaining: number, sentAt: number, oursWithin: number, oursUpTo: number]>): ToldBurst {
	const b = new ToldBurst();
	for (const [remaining, sentAt, within, upTo] of counts) b.noteCount(remaining, 10, sentAt, within, upTo, 100, 10_000);
	return b;
}

describe('ToldBurst: alone or shared, from the counts told', () => {
	test('a count that shows only our calls, over a stretch of them: alone', () => {
		// Three calls at one instant, all counted first: not evidence (no one else could have come yet); nor 0.3 s of calls.
		const early: Array<[number, number, number, number]> = [
			[7, 100, 3, 3],
			[6, 400, 4, 4],
		];
		expect(told(early).alone).toBe(false);
		// A call a second after our first still shows only ours.
		expect(told([...early, [5, 1_100, 5, 5]]).alone).toBe(true);
	});

	test('a count below the limit less our calls: shared, for good', () => {
		expect(told([[5, 1_100, 5, 5], [2, 1_200, 6, 6]]).alone).toBe(false);
		expect(told([[5, 1_100, 5, 5], [2, 1_200, 6, 6], [4, 1_300, 6, 6]]).alone).toBe(false);
	});

	test('calls sent just after the one told may have been counted before it: not taken for others', () => {
		// Told 5 left of 10 for a call with 4 of ours up to it and 5 within 50 ms after: consistent with ours alone.
		expect(told([[5, 1_100, 5, 4], [4, 1_150, 6, 6]]).alone).toBe(true);
	});
});

describe('ToldBurst: our own windows', () => {
	test('a window of ours begins with our first call after the last ended, and holds the next call once full', () => {
		const b = new ToldBurst();
		for (let i = 0; i < 10; i++) b.onSend(1_000 + i, 10_210);
		expect(b.left(1_100, 10)).toBe(0);
		expect(b.holdUntil(1_100, 10)).toBe(11_210);
		// Ended: the whole limit, at once.
		expect(b.left(11_210, 10)).toBe(10);
		expect(b.holdUntil(11_210, 10)).toBeUndefined();
		b.onSend(11_300, 10_210);
		expect(b.left(11_300, 10)).toBe(9);
	});

	test('anchored to an exact end told, our windows are chained from it as the server opens them, not from where ours had drifted', () => {
		const sends = new OwnSends();
		const b = new ToldBurst(sends);
		for (const [ticket, at] of [[1, 400], [2, 1_000], [3, 1_500], [4, 2_040], [5, 2_100]] as const) {
			sends.add(ticket, at, 0);
			b.onSend(at, 1_030);
		}
		// Drifted: ours began at 400 and at 1,500, and holds 3 calls since 1,500.
		expect(b.left(2_100, 10)).toBe(7);
		// The server's window ended at 1,000: its windows since began at 1,000 and at 2,040 (the first call after 2,030).
		b.anchor(1_000, 1_030);
		expect(b.left(2_100, 10)).toBe(8);
		expect(b.left(3_070, 10)).toBe(10);
		// No call of ours since the end: the next call opens the next window.
		b.anchor(2_500, 1_030);
		expect(b.left(2_600, 10)).toBe(10);
	});

	test('with the length learned late (startsAt), a count covers only our calls since the current window began', () => {
		const sends = new OwnSends();
		const calls = [2_000, 2_100, 2_200, 2_300, 2_400, 2_500, 2_600, 2_700, 10_100, 10_600, 11_200];
		calls.forEach((at, i) => sends.add(i + 1, at, 0));
		// 20 left of 25 for our call at 11.2 s. Counted with our 8 calls of the window before: no one else, over 9 s of ours.
		const before = new ToldBurst(sends);
		before.noteCountFor(20, 25, 11_200, 10_000, 10_110);
		expect(before.alone).toBe(true);
		// Since 10.1 s, where the current window's first answer came from: 3 of ours, and 2 of the others'.
		const after = new ToldBurst(sends);
		after.startsAt(10_100, 10_110, 25);
		after.noteCountFor(20, 25, 11_200, 10_000, 10_110);
		expect(after.alone).toBe(false);
		// Our window began there: 3 calls in it.
		expect(after.left(11_300, 25)).toBe(22);
		// A count for a call before it is of an earlier window, whose calls are not known: it shows nothing.
		const alone = new ToldBurst(sends);
		alone.startsAt(10_100, 10_110, 25);
		alone.noteCountFor(3, 25, 2_700, 10_000, 10_110);
		alone.noteCountFor(22, 25, 11_200, 10_000, 10_110);
		expect(alone.alone).toBe(true);
	});

	test('a refusal fills our window: the server counted its window spent, and ours was out of step', () => {
		const b = new ToldBurst();
		for (let i = 0; i < 7; i++) b.onSend(1_000, 10_210);
		b.onRefused(1_000, 10);
		expect(b.left(2_000, 10)).toBe(0);
		expect(b.holdUntil(2_000, 10)).toBe(11_210);
	});
});

describe('QuotaWindow with a told window and no exact ends (IETF fields)', () => {
	const told = (remaining: number) => ({ limit: 4, remaining, windowMs: 10_000, resetAt: 0, resetExact: false });

	test("alone: a window's calls go together (burstSpan), and the next window's go when ours ends", () => {
		const q = new QuotaWindow();
		q.onSend(1, 0);
		q.onSend(2, 1_000);
		q.learn(told(3), 1);
		q.learn(told(2), 2);
		// The window and its margin: 10 ms and 2 %, the 2 % at most 100 ms.
		expect(q.burstSpan()).toBe(10_110);
		q.onSend(3, 1_100);
		q.onSend(4, 1_100);
		expect(q.holdUntil(1_200)).toBe(10_110);
		expect(q.leftInSpan(10_110)).toBe(4);
	});

	test('shared: spread, one call a token (no burst span), at up to twice the told pace (the counts hold a spent window)', () => {
		const q = new QuotaWindow();
		q.onSend(1, 0);
		q.onSend(2, 300);
		expect(q.toldRate()).toBeUndefined();
		q.onSend(3, 400);
		q.learn(told(3), 3);
		// Alone so far (3 left of 4 for our first call): the told pace, 4 calls per 10.11 s.
		expect(q.toldRate()).toBeCloseTo(4_000 / 10_110, 6);
		q.learn(told(1), 2);
		expect(q.burstSpan()).toBeUndefined();
		expect(q.toldRate()).toBeCloseTo((SHARED_PACE * 4_000) / 10_110, 6);
		// A long window's limit spreads over SHARED_SPREAD_MAX_MS at the most: 50 per 120 s goes at 2.5 calls a second, not 0.83.
		const long = new QuotaWindow();
		long.onSend(1, 0);
		long.onSend(2, 300);
		long.learn({ limit: 50, remaining: 40, windowMs: 120_000, resetAt: 0, resetExact: false }, 2);
		expect(long.toldRate()).toBeCloseTo(50_000 / SHARED_SPREAD_MAX_MS, 6);
	});
});
