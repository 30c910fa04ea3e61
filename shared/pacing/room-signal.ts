/**
 * Whether the answers show that the key had room (the pacer asks, for the rate controller's onRoom): a window
 * that ended with a good share of its limit unused, or, without exact window ends, counts that stayed high over a
 * few windows. Pure: the caller gives the time of each answer.
 */

/** A window that ended with at least this share of its limit left shows room: less is the jitter of clients that pace well, and a probe on it costs a refusal (S8 on virtual time: 0.2 let three processes probe into each other, 1.52 × at worst; 0.4: 1.24 ×). */
export const ROOM_SHARE = 0.4;
/**
 * Without exact ends, room is judged over this many windows (of the stated length, or COMMON_WINDOW_MS: the caller
 * gives it), from at least `answers` counts: two windows hold a late count of one of them at least, and three
 * answers are the fewest in which one that came early in its window does not decide.
 */
const ROOM_SPAN = { windows: 2, answers: 3 };

/**
 * Whether the answers show the key had room, so that the rate controller probes at once (onRoom), not after its
 * plateau: with exact ends, a window that ended with ROOM_SHARE of its limit left; without them, every count told
 * over ROOM_SPAN.
 */
export class RoomSignal {
	/** @param sameWindowMs two window ends closer than this are one window (QuotaWindow's SAME_WINDOW_MS). */
	constructor(private readonly sameWindowMs: number) {}

	/** Without exact ends: the least count told since `from` (our send time), over `answers` answers. */
	private lowest?: { from: number; left: number; answers: number };
	/** The latest window seen (exact ends): its end and the least count told for it. */
	private ending?: { endsAt: number; left: number };

	/**
	 * What one answer told (RateWindow's counts and end), for a call sent at `sentAt` (undefined: not kept, as a
	 * refused call); `windowMs`: the stated or learned length, else COMMON_WINDOW_MS. True when the key had room.
	 */
	learn(told: { remaining?: number; resetAt?: number; resetExact?: boolean }, sentAt: number | undefined, limit: number | undefined, windowMs: number): boolean {
		if (told.resetAt === undefined || told.resetExact === false) return sentAt !== undefined && this.withoutEnds(told.remaining, sentAt, limit, windowMs);
		return this.atEnd(told.resetAt, told.remaining, limit);
	}

	/**
	 * Without exact ends, the windows cannot be told apart; but when every count told over ROOM_SPAN left at least
	 * ROOM_SHARE of the limit, no window in that time was near full: the key has room. `at`: when the call told for was sent.
	 */
	withoutEnds(remaining: number | undefined, at: number, limit: number | undefined, windowMs: number): boolean {
		if (remaining === undefined || limit === undefined) return false;
		const l = this.lowest;
		if (!l || at < l.from) {
			this.lowest = { from: at, left: remaining, answers: 1 };
			return false;
		}
		l.left = Math.min(l.left, remaining);
		l.answers++;
		if (at - l.from < ROOM_SPAN.windows * windowMs) return false;
		this.lowest = undefined;
		return l.answers >= ROOM_SPAN.answers && l.left >= Math.max(1, ROOM_SHARE * limit);
	}

	/** The least count told for the latest window; a later window's first answer tells whether that one ended with calls left. */
	atEnd(resetAt: number, remaining: number | undefined, limit: number | undefined): boolean {
		const e = this.ending;
		if (remaining === undefined || (e && resetAt < e.endsAt - this.sameWindowMs)) return false;
		if (e && resetAt <= e.endsAt + this.sameWindowMs) {
			e.left = Math.min(e.left, remaining);
			return false;
		}
		this.ending = { endsAt: resetAt, left: remaining };
		return e !== undefined && limit !== undefined && e.left >= Math.max(1, ROOM_SHARE * limit);
	}
}
