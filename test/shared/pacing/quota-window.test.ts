/** What the answers say of the quota (shared/pacing/quota-window.ts): each piece used only where it is known. */
import { InFlight, QuotaWindow } from '../../../shared/pacing';

describe('QuotaWindow', () => {
	test('with exact ends, our own windows count the calls only a window past the last end told, and only while the counts never showed another client', () => {
		const windows = (leftAtCall4: number) => {
			const q = new QuotaWindow();
			q.learn({ limit: 10, windowMs: 1_000 }, 0);
			for (let t = 1; t <= 5; t++) q.onSend(t, (t - 1) * 300);
			q.learn({ limit: 10, remaining: 9, resetAt: 1_000 }, 1);
			q.learn({ limit: 10, remaining: leftAtCall4, resetAt: 1_000 }, 4);
			return q;
		};
		// Four of ours counted by the call at 900 ms: 6 left shows no one else.
		const alone = windows(6);
		expect(alone.inOwnWindows(1_500)).toBe(false);
		expect(alone.inOwnWindows(2_000)).toBe(true);
		// 3 left: others counted too.
		expect(windows(3).inOwnWindows(2_000)).toBe(false);
		// Without exact ends, always.
		expect(new QuotaWindow().inOwnWindows(0)).toBe(true);
	});

	test("with others on the key, what a told count leaves is less the others' calls since, at the pace the last counts showed them", () => {
		// One call of ours out (ticket 3): while it is, nothing else goes into a window the others' pace has spent.
		let out = 1;
		const q = new QuotaWindow((ticket) => (ticket > 3 ? out : 0));
		q.onSend(1, 0);
		q.onSend(2, 500);
		q.onSend(3, 600);
		q.learn({ limit: 25, remaining: 20, resetAt: 10_000 }, 1);
		q.learn({ limit: 25, remaining: 14, resetAt: 10_000 }, 2);
		// Six counted between our two calls, one of them ours: the others sent 5 in 500 ms. At 1.7 s, 12 more of
		// theirs, and our call 3: 14 - 1 - 12 = 1 left; at 1.8 s, none.
		expect(q.holdUntil(1_700)).toBeUndefined();
		expect(q.holdUntil(1_800)).toBe(10_000);
		// None of ours out, and the counts themselves leave room: one call goes, and its answer tells.
		out = 0;
		expect(q.holdUntil(1_800)).toBeUndefined();
		// The pace is the latest: counts that fall by our calls alone show the others stopped.
		q.onSend(4, 900);
		q.learn({ limit: 25, remaining: 13, resetAt: 10_000 }, 3);
		q.learn({ limit: 25, remaining: 12, resetAt: 10_000 }, 4);
		out = 1;
		expect(q.holdUntil(5_000)).toBeUndefined();
		/** Our calls at 0 and at `secondAt`, told 20 and then `secondLeft` left of 25; `unanswered` of ours out. */
		const twoCounts = (secondAt: number, secondLeft: number, unanswered = 0) => {
			const w = new QuotaWindow(() => unanswered);
			w.onSend(1, 0);
			w.onSend(2, secondAt);
			w.learn({ limit: 25, remaining: 20, resetAt: 10_000 }, 1);
			w.learn({ limit: 25, remaining: secondLeft, resetAt: 10_000 }, 2);
			return w;
		};
		// Counts that fall by our calls alone: no others, nothing held.
		expect(twoCounts(500, 19).holdUntil(9_000)).toBeUndefined();
		// Counts for calls sent closer than 200 ms tell no pace: they reach the server in any order.
		expect(twoCounts(100, 14).holdUntil(9_000)).toBeUndefined();
		// 500 ms apart, with one of ours out: the others' pace has spent the window, and nothing goes until its end.
		expect(twoCounts(500, 14, 1).holdUntil(9_000)).toBe(10_000);
	});

	test('our calls are kept for two windows and the time answers take: a count told 5 s late still finds the calls it counted', () => {
		const q = new QuotaWindow();
		q.learn({ limit: 10, windowMs: 1_000 }, 0);
		q.onSend(1, 0, 5_000);
		q.onSend(2, 6_000, 5_000);
		expect(q.sentAt(1)).toBe(0);
		q.onSend(3, 7_500, 5_000);
		expect(q.sentAt(1)).toBeUndefined();
		// Answers within a window: two windows are kept.
		const r = new QuotaWindow();
		r.learn({ limit: 10, windowMs: 1_000 }, 0);
		r.onSend(1, 0, 200);
		r.onSend(2, 2_500, 200);
		expect(r.sentAt(1)).toBeUndefined();
	});

	test('an exact window end and a spent count hold the calls until that end, counting our calls sent after the one told', () => {
		const q = new QuotaWindow();
		for (let t = 1; t <= 3; t++) q.onSend(t, t * 10);
		q.learn({ limit: 10, remaining: 2, resetAt: 1_000 }, 1);
		// Our calls 2 and 3 were sent after call 1 was counted: the window is spent.
		expect(q.holdUntil(100)).toBe(1_000);
		expect(q.holdUntil(1_000)).toBeUndefined();
	});

	test('past a told end, calls beyond the limit wait for the answers that tell when the new window ends, if they come within a window', () => {
		const q = new QuotaWindow();
		q.onSend(1, 0);
		// Counted in a window ending at 5 s: a window lasts about 5 s at least.
		q.learn({ limit: 3, remaining: 2, resetAt: 5_000 }, 1);
		for (let t = 2; t <= 4; t++) q.onSend(t, 5_000 + t);
		expect(q.spentUntilTold(5_010, 1_000)).toBe(true);
		// Answers slower than a window: waiting for them costs more than the refusals would.
		expect(q.spentUntilTold(5_010, 6_000)).toBe(false);
		expect(q.spentUntilTold(5_010, undefined)).toBe(false);
		// Fewer than the limit sent since the end: nothing to wait for.
		const r = new QuotaWindow();
		r.onSend(1, 0);
		r.learn({ limit: 3, remaining: 2, resetAt: 5_000 }, 1);
		r.onSend(2, 5_002);
		expect(r.spentUntilTold(5_010, 1_000)).toBe(false);
		// The window's length stated: holdUntil only foretells the end (a window and its margin from the first call),
		// and the answers on their way tell it exactly: they are waited for too.
		const s = new QuotaWindow();
		s.onSend(1, 0);
		s.learn({ limit: 3, remaining: 2, resetAt: 5_000, windowMs: 5_000 }, 1);
		for (let t = 2; t <= 4; t++) s.onSend(t, 5_000 + t);
		expect(s.holdUntil(5_010)).toBeGreaterThan(5_002 + 5_000);
		expect(s.spentUntilTold(5_010, 1_000)).toBe(true);
		// The first answer tells the new window's exact end (it began when the first call reached the server): held until then.
		s.learn({ limit: 3, remaining: 2, resetAt: 10_004 }, 2);
		s.learn({ limit: 3, remaining: 0, resetAt: 10_004 }, 4);
		expect(s.holdUntil(5_020)).toBe(10_004);
	});

	test("after a shared window was spent and refused one of our calls, the next window's first calls keep to our share of it until a count tells what is left", () => {
		// Three processes at 10 per 10 s, answers of 1 s: ours were 4 of a window the others spent.
		const run = (refused: boolean) => {
			const flight = new InFlight();
			const q = new QuotaWindow((ticket, since) => flight.before(ticket, since));
			const send = (t: number, at: number) => (q.onSend(t, at), flight.start(t, at));
			const answer = (t: number, at: number, told: { remaining: number; resetAt: number }, outcome: 'answered' | 'refused' = 'answered') => {
				flight.end(t, at, outcome === 'answered');
				if (outcome === 'refused') q.onRefused(t);
				q.learn({ limit: 10, windowMs: 10_000, ...told }, t, at, outcome === 'refused');
			};
			[8, 5, 2, 0].forEach((remaining, i) => send(i + 1, i * 1_000));
			[8, 5, 2, 0].forEach((remaining, i) => answer(i + 1, (i + 1) * 1_000, { remaining, resetAt: 10_000 }));
			// Our fifth refused: the window was spent by the others too.
			if (refused) {
				send(5, 4_000);
				answer(5, 4_000, { remaining: 0, resetAt: 10_000 }, 'refused');
			}
			for (let t = 6; t <= 8; t++) send(t, 10_000 + (t - 6) * 100);
			return { q, send, answer };
		};
		const { q, send, answer } = run(true);
		// Three of our four sent since the end: the fourth may go; after it, the next waits for the answers.
		expect(q.spentUntilTold(10_300, 1_000)).toBe(false);
		send(9, 10_300);
		expect(q.spentUntilTold(10_310, 1_000)).toBe(true);
		// The first answer tells the new window: the calls still wait for the count of our fourth.
		answer(6, 11_000, { remaining: 6, resetAt: 20_000 });
		expect(q.holdUntil(11_000, 1_000)).toBe(20_000);
		// It tells one left; the others' pace (from the counts 0.2 s apart, 4 - 1 - 2 of ours: 1 of theirs in 0.2 s) has
		// spent it since: held, and no call goes to find out (each of three processes sent one there, two were refused).
		[4, 2, 1].forEach((remaining, i) => answer(7 + i, 11_100 + i * 100, { remaining, resetAt: 20_000 }));
		expect(q.holdUntil(11_300, 1_000)).toBe(20_000);

		// No refusal of ours in that window: the limit is the bound, as before, and one call goes to find out.
		const free = run(false);
		free.send(9, 10_300);
		expect(free.q.spentUntilTold(10_310, 1_000)).toBe(false);
		free.answer(6, 11_000, { remaining: 6, resetAt: 20_000 });
		expect(free.q.holdUntil(11_000, 1_000)).toBeUndefined();
		[4, 2, 1].forEach((remaining, i) => free.answer(7 + i, 11_100 + i * 100, { remaining, resetAt: 20_000 }));
		expect(free.q.holdUntil(11_300, 1_000)).toBeUndefined();
	});

	test("a refused call's exact end, where the answers tell their ends roughly (a duration read from a slow answer), is one reading more of its window: the rough ones are still read after it", () => {
		const rough = { limit: 10, windowMs: 10_000, resetExact: false, resetPrecisionMs: 1_000, resetSettled: true };
		const q = new QuotaWindow();
		// Written when our call reached the server, read as its 1 s answer came: the window ends in (10 s, 11 s].
		q.onSend(1, 0);
		q.learn({ ...rough, remaining: 9, resetAt: 11_000 }, 1, 1_000);
		// A refusal answered at once tells the end to the millisecond.
		q.onSend(2, 2_000);
		q.onRefused(2, 2_000);
		q.learn({ limit: 10, windowMs: 10_000, remaining: 0, resetAt: 10_000, resetExact: true }, 2, 2_000, true);
		expect(q.exact).toBe(false);
		expect(q.holdUntil(2_100)).toBe(10_000);
		// The next window's count, told roughly, still holds, until the end of the window our call opened: taken for exact
		// ends, it was dropped, and nothing held.
		q.onSend(3, 10_000);
		q.learn({ ...rough, remaining: 0, resetAt: 21_000 }, 3, 11_000);
		expect(q.holdUntil(11_100)).toBe(20_110);
		// An answer to a counted call that tells its end to the millisecond makes them exact.
		q.onSend(4, 20_000);
		q.learn({ limit: 10, windowMs: 10_000, remaining: 9, resetAt: 30_000, resetExact: true }, 4, 20_000);
		expect(q.exact).toBe(true);
	});

	test("with ends told roughly, past our share of a shared window no call goes just to find out", () => {
		// Three processes at 10 per 10 s, durations read from 1 s answers: ours were 4 of a window the others spent.
		const run = (refused: boolean) => {
			const flight = new InFlight();
			const q = new QuotaWindow((ticket, since) => flight.before(ticket, since));
			const send = (t: number, at: number) => (q.onSend(t, at), flight.start(t, at));
			const answer = (t: number, at: number, remaining: number, endsAt: number) => {
				flight.end(t, at, true);
				q.learn({ limit: 10, windowMs: 10_000, remaining, resetAt: endsAt + 1_000, resetExact: false, resetPrecisionMs: 1_000, resetSettled: true }, t, at);
			};
			[8, 5, 2, 0].forEach((remaining, i) => send(i + 1, i * 1_000));
			[8, 5, 2, 0].forEach((remaining, i) => answer(i + 1, (i + 1) * 1_000, remaining, 10_000));
			if (refused) {
				send(5, 4_000);
				flight.end(5, 4_000, false);
				q.onRefused(5, 4_000);
				q.learn({ limit: 10, windowMs: 10_000, remaining: 0, resetAt: 10_000, resetExact: true }, 5, 4_000, true);
			}
			for (let t = 6; t <= 9; t++) send(t, 11_000 + (t - 6) * 100);
			[6, 4, 2, 1].forEach((remaining, i) => answer(6 + i, 12_000 + i * 100, remaining, 20_000));
			return q;
		};
		// Our four sent, the count for the last of them tells one left, and the others' pace has spent it: held.
		expect(run(true).holdUntil(12_400, 1_000)).toBe(20_000);
		// No refusal of ours in the window before: one call goes, and its answer tells.
		expect(run(false).holdUntil(12_400, 1_000)).toBeUndefined();
	});

	test('one end read twice, a little apart (a server clock not yet known), is no window of its own to take a share from', () => {
		const flight = new InFlight();
		const q = new QuotaWindow((ticket, since) => flight.before(ticket, since));
		const call = (t: number, at: number) => (q.onSend(t, at), flight.start(t, at));
		call(1, 0);
		flight.end(1, 500, true);
		q.learn({ limit: 4, windowMs: 10_000, remaining: 3, resetAt: 10_000 }, 1, 500);
		// The same end read 60 ms later, once the clock is known better; a call in between is refused.
		call(2, 9_000);
		flight.end(2, 9_500, true);
		q.learn({ limit: 4, windowMs: 10_000, remaining: 2, resetAt: 10_060 }, 2, 9_500);
		call(3, 10_010);
		flight.end(3, 10_010, false);
		q.onRefused(3, 10_010);
		q.learn({ limit: 4, windowMs: 10_000, remaining: 0, resetAt: 10_060 }, 3, 10_010, true);
		// Not held to one call (the 60 ms "window" let none of ours through): the limit is the bound.
		call(4, 10_070);
		expect(q.spentUntilTold(10_080, 1_000)).toBe(false);
	});

	test('the calls of a burst are counted out of order: one sent earlier and still unanswered may be counted after the call told for', () => {
		// The calls in flight, as the pacer keeps them (InFlight).
		const sendAll = (count: number) => {
			const flight = new InFlight();
			const w = new QuotaWindow((ticket) => flight.before(ticket));
			for (let t = 1; t <= count; t++) {
				w.onSend(t, 0);
				flight.start(t, 0);
			}
			return { w, flight };
		};
		const { w: q, flight } = sendAll(10);
		// The fourth reached the server first: 9 left after it. The first three, unanswered, may come next in its count.
		flight.end(4, 5, true);
		q.learn({ limit: 10, remaining: 9, resetAt: 1_000 }, 4);
		expect(q.holdUntil(10)).toBe(1_000);
		// A burst of nine: the same count told leaves one call, and it may go.
		const nine = sendAll(9);
		const r = nine.w;
		nine.flight.end(4, 5, true);
		r.learn({ limit: 10, remaining: 9, resetAt: 1_000 }, 4);
		expect(r.holdUntil(10)).toBeUndefined();
		r.onSend(10, 10);
		nine.flight.start(10, 10);
		expect(r.holdUntil(11)).toBe(1_000);
	});

	test('a refused call was not counted', () => {
		const q = new QuotaWindow();
		for (let t = 1; t <= 3; t++) q.onSend(t, t * 10);
		q.onRefused(3);
		q.learn({ limit: 10, remaining: 2, resetAt: 1_000 }, 1);
		expect(q.holdUntil(100)).toBeUndefined();
		// Its send time is gone too: the room signal, asked with it, takes nothing from a refused call's counts.
		expect(q.sentAt(2)).toBe(20);
		expect(q.sentAt(3)).toBeUndefined();
	});

	test('a count without an exact end holds nothing: its end is unknown (no reset, a reset in whole seconds, a date)', () => {
		for (const w of [{ limit: 10, remaining: 0 }, { limit: 10, remaining: 0, resetAt: 2_000, resetExact: false }]) {
			const q = new QuotaWindow();
			q.onSend(1, 0);
			q.learn(w, 1);
			expect(q.holdUntil(100)).toBeUndefined();
			expect(q.toldRate()).toBeUndefined();
		}
	});

	test('a stated window gives the told rate (with the margin of a window that starts with its first call), and our own calls stay within the limit', () => {
		const q = new QuotaWindow();
		q.learn({ limit: 10, windowMs: 1_000 }, 0);
		expect(q.toldRate()).toBeCloseTo(10_000 / 1_030);
		for (let t = 1; t <= 10; t++) q.onSend(t, t * 10);
		// Ten calls within the last window's length: the next waits until the first of them is a window old.
		expect(q.holdUntil(200)).toBe(10 + 1_030);
	});

	test('an exact end is known as such whether the window length is stated or learned; a rounded one is not', () => {
		const stated = new QuotaWindow();
		stated.learn({ limit: 10, windowMs: 1_000, remaining: 5, resetAt: 1_000 }, 1);
		expect(stated.exact).toBe(true);
		const rounded = new QuotaWindow();
		rounded.learn({ limit: 10, remaining: 5, resetAt: 1_000, resetExact: false }, 1);
		expect(rounded.exact).toBe(false);
	});

	test("left alone within a window whose exact end was told: its count's calls are given at once, once, when the counts over a second of ours show no one else", () => {
		const q = new QuotaWindow();
		q.learn({ limit: 25, windowMs: 60_000 }, 0);
		q.onSend(1, 0);
		q.onSend(2, 2_400);
		// The count for our first call alone: at a window's start, the others' first calls may not have come yet.
		q.learn({ limit: 25, remaining: 24, resetAt: 60_000 }, 1);
		expect(q.leftInToldAlone(500)).toBeUndefined();
		// 2.4 s of our calls later, still no one else: the 23 left go at once, once.
		q.learn({ limit: 25, remaining: 23, resetAt: 60_000 }, 2);
		expect(q.leftInToldAlone(2_600)).toBe(23);
		expect(q.leftInToldAlone(2_700)).toBeUndefined();
		// Others counted: nothing given.
		const shared = new QuotaWindow();
		shared.learn({ limit: 25, windowMs: 60_000 }, 0);
		shared.onSend(1, 0);
		shared.onSend(2, 2_400);
		shared.learn({ limit: 25, remaining: 24, resetAt: 60_000 }, 1);
		shared.learn({ limit: 25, remaining: 20, resetAt: 60_000 }, 2);
		expect(shared.leftInToldAlone(2_600)).toBeUndefined();
	});

	test('alone on the key, the next window is given at its exact start (once); shared, it is not', () => {
		const alone = new QuotaWindow();
		// Our 10 calls are the 10 the window counted: remaining 0 after the last.
		for (let t = 1; t <= 10; t++) alone.onSend(t, 1_000 + t);
		alone.learn({ limit: 10, windowMs: 1_000, remaining: 0, resetAt: 2_000 }, 10);
		expect(alone.holdUntil(1_100)).toBe(2_000);
		expect(alone.shareOfNext(2_000)).toBe(10);
		expect(alone.shareOfNext(2_000)).toBeUndefined();
		// Others' calls in the counts: 4 of ours, the window spent.
		const shared = new QuotaWindow();
		for (let t = 1; t <= 4; t++) shared.onSend(t, 1_000 + t);
		shared.learn({ limit: 10, windowMs: 1_000, remaining: 0, resetAt: 2_000 }, 4);
		expect(shared.shareOfNext(2_000)).toBeUndefined();
		// Nothing exact told: nothing given.
		expect(new QuotaWindow().shareOfNext(2_000)).toBeUndefined();
	});

	test('the end of a refusing window opened by our oldest call since: of the stated length, else a second; a refused call opened nothing', () => {
		const q = new QuotaWindow();
		q.onSend(1, 1_000);
		q.onSend(2, 1_200);
		q.onSend(3, 1_300);
		q.onRefused(1);
		// Unknown length: a second (and its margin, 10 ms and 2 %) from the oldest call not refused, 1.2 s.
		expect(q.endIfOpenedByOurs(1_500)).toBe(1_200 + 1_000 + 30);
		// Calls more than a window before opened another window.
		expect(q.endIfOpenedByOurs(2_250)).toBe(1_300 + 1_000 + 30);
		expect(q.endIfOpenedByOurs(2_400)).toBeUndefined();
		q.learn({ limit: 10, windowMs: 2_000, remaining: 0 }, 3);
		expect(q.endIfOpenedByOurs(2_400)).toBe(1_200 + 2_000 + 50);
	});

	test('past an end no hold waited for, the next window is given only when our calls alone filled the ended one (a count told early may miss the others that came after)', () => {
		// Ours 4 of the window, the last told 6 left: others may have come after it. Not given, and still open for a hold's end.
		const unsure = new QuotaWindow();
		for (let t = 1; t <= 4; t++) unsure.onSend(t, 1_000 + t);
		unsure.learn({ limit: 10, windowMs: 1_000, remaining: 6, resetAt: 2_000 }, 4);
		expect(unsure.alone).toBe(true);
		expect(unsure.shareOfNext(2_010, true)).toBeUndefined();
		expect(unsure.shareOfNext(2_010)).toBe(10);
		// Our 10 filled it: given at once, whatever time the answer came.
		const filled = new QuotaWindow();
		for (let t = 1; t <= 10; t++) filled.onSend(t, 1_000 + t);
		filled.learn({ limit: 10, windowMs: 1_000, remaining: 0, resetAt: 2_000 }, 10);
		expect(filled.shareOfNext(2_012, true)).toBe(10);
		expect(filled.shareOfNext(2_020, true)).toBeUndefined();
	});

	test('within a told window with calls left, the server counts rule: our own calls of the last window length hold nothing', () => {
		const q = new QuotaWindow();
		q.learn({ limit: 10, windowMs: 1_000 }, 0);
		for (let t = 1; t <= 10; t++) q.onSend(t, t);
		// Before any exact window: our own ten calls hold the next.
		expect(q.holdUntil(1_000)).toBe(1 + 1_030);
		// A new window told with 9 left for our 11th call: it may go, and so may 8 more.
		q.onSend(11, 1_000);
		q.learn({ limit: 10, windowMs: 1_000, remaining: 9, resetAt: 2_000 }, 11);
		expect(q.holdUntil(1_002)).toBeUndefined();
		for (let t = 12; t <= 20; t++) q.onSend(t, 1_002);
		expect(q.holdUntil(1_003)).toBe(2_000);
	});

	test('alone: the current window counts no call but ours (exact ends); with others counted, not alone', () => {
		const q = new QuotaWindow();
		q.onSend(1, 100);
		q.learn({ limit: 10, remaining: 9, resetAt: 1_000 }, 1);
		q.onSend(2, 1_050);
		q.learn({ limit: 10, remaining: 9, resetAt: 2_000 }, 2);
		expect(q.windowMs).toBe(1_000);
		q.onSend(3, 1_100);
		q.learn({ limit: 10, remaining: 8, resetAt: 2_000 }, 3);
		expect(q.alone).toBe(true);
		q.onSend(4, 1_200);
		// 5 calls counted in the window by our third: two were others'.
		q.learn({ limit: 10, remaining: 5, resetAt: 2_000 }, 4);
		expect(q.alone).toBe(false);
		expect(new QuotaWindow().alone).toBe(false);
	});

	test('alone, a window that ended with room is still ours when its answers come after it (answers slower than a window)', () => {
		const q = new QuotaWindow();
		// Our 9 calls, 105 ms apart, counted in a window that ends at 1_000 with 1 left; its answers come 1 s later,
		// after ten more of our calls (the next window's).
		for (let t = 1; t <= 19; t++) q.onSend(t, (t - 1) * 105);
		q.learn({ limit: 10, remaining: 1, resetAt: 1_000, windowMs: 1_000 }, 9);
		expect(q.alone).toBe(true);
		// With exact ends and alone, the told rate is the limit per window: the holds keep the margin.
		expect(q.toldRate()).toBe(10);
		// The next window spent by our last nine and one call of another's: the margin again.
		q.learn({ limit: 10, remaining: 0, resetAt: 2_000, windowMs: 1_000 }, 19);
		expect(q.alone).toBe(false);
		expect(q.toldRate()).toBeCloseTo(10_000 / 1_030);
	});

	test('a burst sent at the previous end counts as ours in a window that starts when it reaches the server', () => {
		const q = new QuotaWindow();
		for (let t = 1; t <= 10; t++) q.onSend(t, 0);
		q.learn({ limit: 10, remaining: 0, resetAt: 5_000, windowMs: 5_000 }, 10);
		// Sent at the exact end; the window starts with the first of them to arrive, 120 ms later.
		for (let t = 11; t <= 20; t++) q.onSend(t, 5_000);
		q.learn({ limit: 10, remaining: 9, resetAt: 10_120, windowMs: 5_000 }, 11);
		expect(q.alone).toBe(true);
		q.learn({ limit: 10, remaining: 0, resetAt: 10_120, windowMs: 5_000 }, 20);
		expect(q.shareOfNext(10_120)).toBe(10);
	});
});
