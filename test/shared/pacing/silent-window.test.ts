/** A 429 that says nothing (shared/pacing/silent-window.ts): its window's ends, guessed, then learned from the refusals. */
import { COMMON_WINDOW_LENGTHS_MS, LATE_END_MS, RESOLVED_SHARE, SilentWindow } from '../../../shared/pacing';

/** Calls sent at `at` and answered after `took` (a refusal comes back at once). */
function call(w: SilentWindow, at: number, let_: boolean, took = let_ ? 1_000 : 5): void {
	w.sent(at);
	w.ended(at, at + took, let_);
}

/** Windows seen to start at 0 and 10 s, with calls refused at 9.7 s and 19.8 s: 10 s long, known. */
function tenSecondsKnown(): SilentWindow {
	const w = new SilentWindow();
	[0, 9_700, 10_000, 19_800].forEach((at, i) => call(w, at, i % 2 === 0));
	return w;
}

test('before any call was let through nothing is known: the caller backs off', () => {
	const w = new SilentWindow();
	call(w, 0, false);
	expect(w.delay(5, 0)).toBeUndefined();
});

test('until a gap between two windows is seen, the window is the next common length the refusals leave possible', () => {
	const w = new SilentWindow();
	for (let i = 0; i < 25; i++) call(w, i * 40, true);
	// Refused 1.5 s after the window's first call: a window of 1 s is ruled out, 2 s is the next common length.
	call(w, 1_500, false);
	expect(w.delay(1_505, 1_500)).toEqual({ ms: 2_000 - 1_505, late: false, guessed: true });
	// The probe at 2 s is refused: 5 s next, then 10 s.
	call(w, 2_000, false);
	expect(w.delay(2_005, 2_000)?.ms).toBe(5_000 - 2_005);
	call(w, 5_000, false);
	expect(w.delay(5_005, 5_000)?.ms).toBe(10_000 - 5_005);
	expect(COMMON_WINDOW_LENGTHS_MS.slice(0, 4)).toEqual([1_000, 2_000, 5_000, 10_000]);
});

test('a call still out longer than any refusal took was let through: the window is known before its answers', () => {
	const w = new SilentWindow();
	w.sent(0);
	w.sent(100);
	call(w, 900, false);
	// The calls at 0 and 100 ms have no answer yet (a model answering in 5 s), but were out longer than the refusal took.
	expect(w.delay(910, 900)).toEqual({ ms: 1_000 - 910, late: false, guessed: true });
	// A call with no answer at all (a reset) tells nothing.
	w.ended(0, 5_000, undefined);
	w.ended(100, 5_000, undefined);
	expect(w.delay(5_000, 900)).toBeUndefined();
});

test('a gap to a window whose first call is still out is used, never kept: that call may yet be refused', () => {
	const w = new SilentWindow();
	call(w, 0, true);
	call(w, 9_700, false);
	w.sent(10_000);
	call(w, 10_100, false);
	// The call at 10 s is out longer than the refusals took: a window of 10 s, seen now.
	expect(w.delay(10_105, 10_100)).toEqual({ ms: 20_000 - 10_105, late: false, guessed: false });
	// Refused after all, slower than any refusal before: one window since 0, refused 10.4 s in, so 15 s is next.
	w.ended(10_000, 10_300, false);
	call(w, 10_400, false);
	expect(w.delay(10_405, 10_400)).toEqual({ ms: 15_000 - 10_405, late: false, guessed: true });
});

test('the gap between two windows and the least the refusals showed bound the length: halfway probes until within 5 %, then the common length there', () => {
	const w = new SilentWindow();
	call(w, 0, true);
	call(w, 5_000, false);
	// Let through at 10 s: the window is longer than 5 s and at most 10 s. The next end is probed halfway, at 7.5 s.
	call(w, 10_000, true);
	call(w, 10_100, false);
	expect(w.delay(10_105, 10_100)).toEqual({ ms: 17_500 - 10_105, late: false, guessed: false });
	// Refused there: longer than 7.5 s; then 8.75 s, 9.375 s, …, until the least is within 5 % of the gap.
	let least = 7_500;
	for (let probes = 0; 10_000 - least > RESOLVED_SHARE * 10_000; probes++) {
		expect(probes).toBeLessThan(4);
		const probe = 10_000 + least;
		call(w, probe, false);
		least = (least + 10_000) / 2;
		expect(w.delay(probe + 5, probe)?.ms).toBe(10_000 + least - (probe + 5));
	}
	// Known: the common length 10 s.
	call(w, 19_800, false);
	expect(w.delay(19_805, 19_800)?.ms).toBe(20_000 - 19_805);
});

test('the first call after an end was due, refused just after it, shows the end late: it waits at most a second, not a window', () => {
	const w = tenSecondsKnown();
	// Known: 10 s from 10 s. Refused at 20.1 s, the first call after the end at 20 s.
	call(w, 20_100, false);
	const late = w.delay(20_105, 20_100);
	expect(late).toEqual({ ms: 20_000 + LATE_END_MS - 20_105, late: true, guessed: false });
	// A call sent after the end and still out longer than a refusal takes opened the next window: its end is 10 s on.
	w.sent(20_200);
	call(w, 20_300, false);
	expect(w.delay(20_305, 20_300)).toEqual({ ms: 30_200 - 20_305, late: false, guessed: false });
});

test("past an end the calls went on through without a refusal, the end is a guess (late): a gateway's windows drift from their first calls", () => {
	const w = tenSecondsKnown();
	[20_000, 23_000, 31_000].forEach((at) => call(w, at, true));
	call(w, 34_000, false);
	// The window seen to start at 20 s, 10 s long: 34 s is past its end at 30 s, with calls since.
	expect(w.delay(34_005, 34_000)).toEqual({ ms: 40_000 - 34_005, late: true, guessed: false });
});

/**
 * A gateway's fixed window (opened by the first call after the last one ended), `q` calls each, and one client
 * that sends a window's calls at once and then probes where the delays say. Returns the starts of the windows.
 */
function gateway(windowMs: number, q: number, windows: number): number[] {
	const w = new SilentWindow();
	let opened = -Infinity;
	let count = 0;
	const starts: number[] = [];
	let t = 0;
	while (starts.length < windows) {
		if (t >= opened + windowMs) {
			opened = t;
			count = 0;
			starts.push(t);
		}
		// The window's calls and one more, a millisecond apart; refused at once, let through in a second.
		let refusedAt: number | undefined;
		for (let i = 0; i <= q && refusedAt === undefined; i++) {
			const at = t + i;
			const admitted = at < opened + windowMs && count < q;
			if (admitted) count++;
			w.sent(at);
			if (!admitted) refusedAt = at;
			else w.ended(at, at + 1_000, true);
		}
		if (refusedAt === undefined) throw new Error('the window took more than its calls');
		w.ended(refusedAt, refusedAt + 5, false);
		const delay = w.delay(refusedAt + 5, refusedAt);
		t = refusedAt + 5 + (delay?.ms ?? 500);
	}
	return starts;
}

test.each([1_000, 10_000, 12_000, 45_000, 60_000, 90_000, 3_600_000])('a window of %i ms is learned: after its first few, each window is probed within 5 % of its end', (windowMs) => {
	const starts = gateway(windowMs, 25, 12);
	const gaps = starts.slice(1).map((s, i) => s - starts[i]);
	for (const gap of gaps.slice(-4)) {
		expect(gap).toBeGreaterThanOrEqual(windowMs);
		expect(gap).toBeLessThanOrEqual(windowMs * (1 + RESOLVED_SHARE) + 20);
	}
});
