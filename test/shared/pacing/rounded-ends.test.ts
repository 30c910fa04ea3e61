/** shared/pacing/rounded-ends.ts: windows whose ends are told to the second, and the hold a spent one gives. */
import { OwnSends, QuotaWindow, RoundedEnds } from '../../../shared/pacing';

const WINDOW_MS = 10_000;

/** Our calls sent at the times given (tickets 1, 2, …), none out. */
function withCalls(...times: number[]): { ends: RoundedEnds; sends: OwnSends } {
	const sends = new OwnSends();
	times.forEach((at, i) => sends.add(i + 1, at, -Infinity));
	return { ends: new RoundedEnds(sends, () => 0), sends };
}

test('a count spent by our calls holds them until the earliest the window can end, or until the end of the window our oldest call opened when that lies in between', () => {
	const { ends } = withCalls(0, 1_000, 2_000);
	// Told 2 left for the call at 0 (end between 9.2 s and 10.4 s), then 0 left for the one at 2 s (between 9.4 s and 10.6 s).
	ends.learn(10_400, 1_200, 2, 1, WINDOW_MS);
	ends.learn(10_600, 1_200, 0, 3, WINDOW_MS);
	// The bounds are the tightest of the readings: from 9.4 s, until 10.4 s.
	expect(ends.holdUntil(3_000, undefined)).toBe(9_400);
	expect(ends.holdUntil(3_000, 10_500)).toBe(9_400);
	expect(ends.holdUntil(3_000, 10_000)).toBe(10_000);
	// Past the earliest end, nothing holds: the calls go, and the server decides.
	expect(ends.holdUntil(9_400, 10_000)).toBeUndefined();
});

test('a count with room holds nothing; so does a count spent only as the others\u2019 pace foretells, while none of our calls is out', () => {
	const { ends } = withCalls(0, 1_000);
	ends.learn(10_400, 1_200, 5, 2, WINDOW_MS);
	expect(ends.holdUntil(2_000, undefined)).toBeUndefined();
	// The others spent 20 calls between our two counts (1 s apart): at that pace, the 3 left were gone 0.15 s later. With
	// room in the count itself and none of our calls out, one call still goes: its answer tells.
	const shared = withCalls(0, 1_000);
	shared.ends.learn(10_400, 1_200, 24, 1, WINDOW_MS);
	shared.ends.learn(10_400, 1_200, 3, 2, WINDOW_MS);
	expect(shared.ends.holdUntil(2_000, undefined)).toBeUndefined();
});

test('a reading as rough as half the window is not taken (it cannot tell one window from the next), and a new window starts new bounds', () => {
	const { ends } = withCalls(0, 100, 10_500);
	ends.learn(1_000, 1_000, 0, 1, 1_000);
	expect(ends.holdUntil(200, undefined)).toBeUndefined();
	ends.learn(10_400, 1_200, 0, 2, WINDOW_MS);
	expect(ends.holdUntil(200, undefined)).toBe(9_200);
	// The next window's reading, 10 s on: its own bounds, not the tightest of both windows'.
	ends.learn(20_600, 1_200, 0, 3, WINDOW_MS);
	expect(ends.holdUntil(11_000, undefined)).toBe(19_400);
});

test('in QuotaWindow: the IETF fields on a spent window hold the calls, with the window known; without its length, nothing holds', () => {
	const ietf = (remaining: number) => ({ limit: 25, remaining, windowMs: WINDOW_MS, resetAt: 10_400, resetExact: false, resetPrecisionMs: 1_200 });
	const q = new QuotaWindow();
	q.onSend(1, 0);
	q.onSend(2, 1_000);
	q.learn(ietf(1), 1);
	q.learn(ietf(0), 2);
	// Our oldest call opened a window ending at 10.11 s (the window and its margin): within the bounds.
	expect(q.holdUntil(2_000)).toBe(10_110);
	const unknown = new QuotaWindow();
	unknown.onSend(1, 0);
	unknown.learn({ limit: 25, remaining: 0, resetAt: 10_400, resetExact: false, resetPrecisionMs: 1_200 }, 1);
	expect(unknown.holdUntil(2_000)).toBeUndefined();
});

test('counts without an end (X-RateLimit-* without a reset): after a refusal told its end to the second, the next window ends a window after it began, between that end and our first call since', () => {
	// Refused at 9.5 s for 1 s: the refusing window ends after 9.5 s. Our calls after it: 10.1 s and 10.3 s, then 19.5 s.
	const { ends } = withCalls(100, 10_100, 10_300, 19_500);
	ends.refusedUntil(9_500);
	// A count for the call at 0.1 s is the refusing window's own: it tells nothing of the next.
	ends.learnCount(3, 1, 100, { limit: 25, windowMs: WINDOW_MS, span: 10_110 });
	expect(ends.holdUntil(10_400, undefined)).toBeUndefined();
	// 0 left for the call at 10.3 s: the window that began between 9.5 s and 10.1 s is spent until 19.5 s at the earliest.
	ends.learnCount(0, 3, 10_300, { limit: 25, windowMs: WINDOW_MS, span: 10_110 });
	expect(ends.holdUntil(10_400, undefined)).toBe(19_500);
	// …or until our oldest call's window ends (it opened it), when that lies between 19.5 s and 20.21 s.
	expect(ends.holdUntil(10_400, 20_110)).toBe(20_110);
});

test('counts without an end: past our share of a shared window (the calls it let through, where it refused one of ours), no call goes just to find out', () => {
	const q = { limit: 10, windowMs: WINDOW_MS, span: 10_110 };
	// A refusal told the window before ends after 9.5 s. Ours in the next: four counted, while the others spent it;
	// our fifth, at 14 s, refused, and its delay told the window ends after 19.5 s.
	const { ends, sends } = withCalls(10_100, 11_000, 12_000, 13_000);
	ends.refusedUntil(9_500);
	[8, 5, 2, 0].forEach((remaining, i) => ends.learnCount(remaining, i + 1, [10_100, 11_000, 12_000, 13_000][i], q));
	sends.add(5, 14_000, -Infinity);
	sends.remove(5, 14_000);
	ends.refusedUntil(19_500);
	// In the window after, our four, told 6, 4, 2 and 1 left: the others sent 2 in 0.3 s, and have spent the last since.
	[20_300, 20_400, 20_500, 20_600].forEach((at, i) => sends.add(6 + i, at, -Infinity));
	[6, 4, 2, 1].forEach((remaining, i) => ends.learnCount(remaining, 6 + i, 20_300 + i * 100, q));
	// Our share reached: held until the earliest the window can end (with answers of 1 s, within a window).
	expect(ends.holdUntil(21_700, undefined, 1_000)).toBe(29_500);
	// Answers slower than a window tell too late for a share: one call goes, and its answer tells.
	expect(ends.holdUntil(21_700, undefined, 20_000)).toBeUndefined();
});
