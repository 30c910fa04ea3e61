/** Whether the answers show that the key had room (shared/pacing/room-signal.ts). */
import { SAME_WINDOW_MS, ROOM_SHARE, RoomSignal } from '../../../shared/pacing';

const LIMIT = 10;
const roomy = Math.ceil(ROOM_SHARE * LIMIT);

test('exact ends: a window that ended with its share of the limit unused shows room, told by the next window\'s first answer', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	expect(room.atEnd(1_000, 9, LIMIT)).toBe(false);
	expect(room.atEnd(1_000 + SAME_WINDOW_MS, roomy, LIMIT)).toBe(false);
	expect(room.atEnd(2_000, 9, LIMIT)).toBe(true);
	// The window ending at 2,000 went down to 1 left: no room shown by the window after.
	expect(room.atEnd(2_000, 1, LIMIT)).toBe(false);
	expect(room.atEnd(3_000, 9, LIMIT)).toBe(false);
	// A late answer for a window already passed tells nothing: its count of 0 is not taken into the latest window.
	expect(room.atEnd(1_500, 0, LIMIT)).toBe(false);
	expect(room.atEnd(4_000, 9, LIMIT)).toBe(true);
});

test('exact ends: a window spent down to under its share shows no room, nor does an answer without a count', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	room.atEnd(1_000, roomy - 1, LIMIT);
	expect(room.atEnd(2_000, 9, LIMIT)).toBe(false);
	expect(room.atEnd(3_000, undefined, LIMIT)).toBe(false);
});

test('without exact ends: room only when every count over two windows, from three answers at least, left the share', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	expect(room.withoutEnds(8, 0, LIMIT, 1_000)).toBe(false);
	expect(room.withoutEnds(7, 900, LIMIT, 1_000)).toBe(false);
	expect(room.withoutEnds(roomy, 2_000, LIMIT, 1_000)).toBe(true);
	// A new span starts: one low count in it decides.
	expect(room.withoutEnds(9, 2_100, LIMIT, 1_000)).toBe(false);
	expect(room.withoutEnds(roomy - 1, 3_000, LIMIT, 1_000)).toBe(false);
	expect(room.withoutEnds(9, 4_200, LIMIT, 1_000)).toBe(false);
});

test('without exact ends: two answers over the span are too few, and a longer window needs a longer span', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	room.withoutEnds(9, 0, LIMIT, 1_000);
	expect(room.withoutEnds(9, 2_000, LIMIT, 1_000)).toBe(false);
	const slow = new RoomSignal(SAME_WINDOW_MS);
	slow.withoutEnds(9, 0, LIMIT, 5_000);
	slow.withoutEnds(9, 2_000, LIMIT, 5_000);
	expect(slow.withoutEnds(9, 4_000, LIMIT, 5_000)).toBe(false);
	expect(slow.withoutEnds(9, 10_000, LIMIT, 5_000)).toBe(true);
});

test('learn reads an exact end as a window end, and an end in whole seconds (or none) as a count without ends', () => {
	const exact = new RoomSignal(SAME_WINDOW_MS);
	exact.learn({ remaining: 9, resetAt: 1_000 }, 0, LIMIT, 1_000);
	expect(exact.learn({ remaining: 9, resetAt: 2_000, resetExact: true }, 1_100, LIMIT, 1_000)).toBe(true);
	const inexact = new RoomSignal(SAME_WINDOW_MS);
	inexact.learn({ remaining: 9, resetAt: 1_000, resetExact: false }, 0, LIMIT, 1_000);
	inexact.learn({ remaining: 9 }, 900, LIMIT, 1_000);
	// A call no longer kept (refused, or past the sends kept) tells nothing without ends.
	expect(inexact.learn({ remaining: 9, resetAt: 3_000, resetExact: false }, undefined, LIMIT, 1_000)).toBe(false);
	expect(inexact.learn({ remaining: 9, resetAt: 3_000, resetExact: false }, 2_000, LIMIT, 1_000)).toBe(true);
});

test('through learn: a window that ended with 40 % of its limit left shows room; one that ended spent does not', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	const told = (remaining: number, resetAt: number) => room.learn({ remaining, resetAt }, undefined, LIMIT, 1_000);
	expect([told(0, 1_000), told(6, 2_000), told(4, 2_000), told(9, 3_000)]).toEqual([false, false, false, true]);
});

test('through learn, without exact ends: counts that kept 40 % over two windows, in three answers or more, show room (once)', () => {
	const room = new RoomSignal(SAME_WINDOW_MS);
	const told = (at: number, remaining: number) => room.learn({ remaining }, at, LIMIT, 1_000);
	expect([told(0, 8), told(700, 7), told(1_400, 6), told(2_100, 8)]).toEqual([false, false, false, true]);
	// The next span starts afresh; a count of 2 left in it shows no room.
	expect([told(2_200, 9), told(2_900, 2), told(3_600, 9), told(4_300, 9)]).toEqual([false, false, false, false]);
});
