/** The hold after a refusal (shared/pacing/refusal-hold.ts): how long the lane waits, and which refusals cut the rate. */
import { DELAY_PRECISION_MS, FULL_HOLD_FROM_MS, LEARNED_PROBE_MS, RefusalHold, TAIL_STEP_MIN_MS, type Refusal } from '../../../shared/pacing';

/** A refusal at `now` of `delay` told in whole seconds, no jitter, without exact window ends, opened by no call of ours. */
const refusal = (now: number, delay: number, extra: Partial<Refusal> = {}): Refusal => ({ now, delay, wait: delay, precision: DELAY_PRECISION_MS, opened: now, told: true, ...extra });

test('a delay told to the millisecond holds the lane for all of it (not the refused call\'s jitter), and every later refusal cuts', () => {
	const hold = new RefusalHold();
	expect(hold.onRefusedCall(0)).toBe(true);
	expect(hold.holdUntil(refusal(0, 3_000, { wait: 3_100, precision: 0 }))).toBe(3_000);
	// The "last second" of an exact delay is empty: a call sent at its end is refused as any other.
	expect(hold.onRefusedCall(3_000)).toBe(true);
	expect(hold.keepsEpoch(3_000)).toBe(false);
	// A short one too: no "within the delay" time, whose refusals would keep the epoch.
	expect(hold.holdUntil(refusal(3_000, 400, { wait: 430, precision: 0 }))).toBe(3_400);
	expect(hold.keepsEpoch(3_400)).toBe(false);
});

test('a delay in whole seconds whose last second holds the end of the window our oldest call opened: held until that end', () => {
	// An HTTP date rounds a 1 s window's end up past a second: the delay is 1.6 s, the window our call opened ends at 1.03 s.
	expect(new RefusalHold().holdUntil(refusal(500, 1_600, { opened: 1_530 }))).toBe(1_530);
	// That end before the last second, or after the delay: the last second as ever.
	expect(new RefusalHold().holdUntil(refusal(500, 3_000, { opened: 1_530 }))).toBe(2_500);
	expect(new RefusalHold().holdUntil(refusal(500, 1_600, { opened: 2_200 }))).toBe(1_100);
	// A call refused after that end still halves what is left.
	const hold = new RefusalHold();
	hold.holdUntil(refusal(500, 1_600, { opened: 1_530 }));
	expect(hold.onRefusedCall(1_540)).toBe(false);
	expect(hold.holdUntil(refusal(1_560, 540))).toBe(1_560 + 270);
});

test('a delay in whole seconds holds until its last second; a call refused there cuts nothing and halves what is left', () => {
	const hold = new RefusalHold();
	expect(hold.holdUntil(refusal(0, 3_000, { wait: 3_040 }))).toBe(2_040);
	// Sent in the last second (2,040-3,040 ms): the window had not ended yet.
	expect(hold.onRefusedCall(2_100)).toBe(false);
	expect(hold.holdUntil(refusal(2_140, 1_000))).toBe(2_140 + (3_040 - 2_140) / 2);
	expect(hold.onRefusedCall(2_600)).toBe(false);
	// Under TAIL_STEP_MIN_MS left, the rest at once.
	const at = 3_040 - TAIL_STEP_MIN_MS + 10;
	expect(hold.holdUntil(refusal(at, 1_000))).toBe(3_040);
	// A call sent after the last second is refused by a new window: it cuts.
	expect(hold.onRefusedCall(3_050)).toBe(true);
	expect(hold.keepsEpoch(3_040)).toBe(false);
});

test("a call refused in a delay's last second with a delay that ends past it at the earliest is a new pause: a later window refused it", () => {
	const hold = new RefusalHold();
	// Last second: 9,600-10,600 ms.
	expect(hold.holdUntil(refusal(600, 10_000))).toBe(9_600);
	// Refused at 11,050 ms though sent within it: the window ended, and the next one, already spent, ends after 19,050 ms.
	expect(hold.onRefusedCall(10_500)).toBe(false);
	expect(hold.holdUntil(refusal(11_050, 9_000))).toBe(19_050);
	// Refused at 10,200 ms with 9 s told: past the second too, a new pause. The same delay not told by the server (a
	// 429 that says nothing, given a guess): half of the time left, as any refusal in that second.
	const told = new RefusalHold();
	told.holdUntil(refusal(600, 10_000));
	told.onRefusedCall(10_200);
	expect(told.holdUntil(refusal(10_200, 9_000))).toBe(18_200);
	const guessed = new RefusalHold();
	guessed.holdUntil(refusal(600, 10_000));
	guessed.onRefusedCall(10_200);
	expect(guessed.holdUntil(refusal(10_200, 9_000, { told: false }))).toBe(10_200 + 200);
});

test('a delay of at most a second holds until the refusing window ends when our call opened it, never past the delay', () => {
	const hold = new RefusalHold();
	expect(hold.holdUntil(refusal(500, 1_000, { opened: 900 }))).toBe(900);
	expect(hold.keepsEpoch(900)).toBe(true);
	// The short delay's time runs to its end (1,500 ms), not past it.
	expect(hold.keepsEpoch(1_500)).toBe(true);
	expect(hold.keepsEpoch(1_501)).toBe(false);
	// Opened by nothing of ours: no hold.
	expect(new RefusalHold().holdUntil(refusal(500, 1_000))).toBe(500);
	// An end past the delay is cut to the delay.
	expect(new RefusalHold().holdUntil(refusal(500, 200, { opened: 900 }))).toBe(700);
});

test('a refusal within a short delay still cuts, and holds again only until the window our call opened ends', () => {
	const hold = new RefusalHold();
	hold.holdUntil(refusal(0, 1_000, { opened: 400 }));
	expect(hold.onRefusedCall(600)).toBe(true);
	expect(hold.holdUntil(refusal(650, 1_000, { opened: 1_300 }))).toBe(1_000);
	expect(hold.onRefusedCall(700)).toBe(true);
	expect(hold.holdUntil(refusal(750, 1_000))).toBe(750);
});

test('a longer delay within a short one is a new pause, not a step within it', () => {
	const hold = new RefusalHold();
	hold.holdUntil(refusal(0, 1_000));
	expect(hold.onRefusedCall(100)).toBe(true);
	expect(hold.holdUntil(refusal(150, 5_000))).toBe(150 + 5_000 - DELAY_PRECISION_MS);
	expect(hold.keepsEpoch(4_150)).toBe(false);
	expect(hold.onRefusedCall(4_200)).toBe(false);
});

test('a delay of FULL_HOLD_FROM_MS or more is held whole, without probing its last second: a call refused after it cuts', () => {
	const hold = new RefusalHold();
	expect(FULL_HOLD_FROM_MS).toBe(30_000);
	expect(hold.holdUntil(refusal(0, 59_000, { wait: 59_300 }))).toBe(59_300);
	expect(hold.onRefusedCall(59_400)).toBe(true);
	// Just under it, the last second is probed as before.
	expect(new RefusalHold().holdUntil(refusal(0, FULL_HOLD_FROM_MS - 1_000, { wait: FULL_HOLD_FROM_MS - 1_000 }))).toBe(FULL_HOLD_FROM_MS - 2_000);
});

test('a delay learned from refusals that said nothing is held whole; a call refused as it ends probes it and cuts nothing', () => {
	const hold = new RefusalHold();
	expect(hold.holdUntil(refusal(0, 9_000, { wait: 9_050, precision: 0, learned: true }))).toBe(9_050);
	// Sent as the hold ended: the window is longer than learned, not crowded.
	expect(hold.onRefusedCall(9_050 + LEARNED_PROBE_MS - 1)).toBe(false);
	// Its next learned delay is a pause of its own, not a step within the last one.
	expect(hold.holdUntil(refusal(9_100, 1_000, { precision: 0, learned: true }))).toBe(10_100);
	expect(hold.onRefusedCall(10_100 + LEARNED_PROBE_MS)).toBe(true);
});
