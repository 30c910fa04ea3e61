/**
 * How long a refusal holds its lane (pacer.ts `refused`), and whether a refusal cuts the rate. With exact window
 * ends told, all of the delay. Without them, a delay in whole seconds or as an HTTP date says only that the window
 * ends within its last second, and a shorter delay only that it ends within the delay. One per lane; pure (times are the pacer's clock).
 */

/**
 * The precision of a delay or a reset in whole seconds (`Retry-After: 3`, an HTTP date, epoch seconds), and of a
 * refusal's delay when nothing says better (client/rate-fields.ts gives each delay its own). A delay of at most this
 * says only that the window ends within it.
 */
export const DELAY_PRECISION_MS = 1_000;
/**
 * In the last second of such a delay, a refused call halves the hold left; under this, the lane holds the rest (each
 * step costs a refusal). 50-250 ms gave the same grid; holding the rest at once (no halving) 1.26 × for 1.09 ×.
 */
export const TAIL_STEP_MIN_MS = 100;
/**
 * From this delay on, the lane is held for all of it: the last second it would probe is at most a thirtieth of the
 * window (a delay this long is most of one), 3 % of idling at worst, where probing it cost 3 to 4 refusals a window
 * (25 per 60 s on virtual time, one process: 17 % of requests answered 429 → 4 %, 1.005 × → 1.017 ×; three
 * processes, `Retry-After` alone: 36 % → 15 %, and they come back together rather than the first prober taking the
 * window). From 10 s: 1.03 × → 1.07 × at 25 per 10 s, and an HTTP date 4 % slower than seconds.
 */
export const FULL_HOLD_FROM_MS = 30_000;

/**
 * The calls sent this soon after a learned hold ends probe its end: refused, they cut no rate (the probes that
 * find a window's length cut it 0.85 × each: 25 per 10 s, one process, 1.03 × → 1.10 ×).
 */
export const LEARNED_PROBE_MS = 100;

/** A refusal as the hold sees it, all times on the pacer's clock. */
export interface Refusal {
	now: number;
	/** The server's delay. */
	delay: number;
	/** The refused call's own wait: the delay and its jitter. */
	wait: number;
	/** The delay's precision: 0 when told to the millisecond (exact window ends, `retry-after-ms`, a duration); a whole second by default (DELAY_PRECISION_MS). */
	precision: number;
	/** When the refusing window ends if our oldest call since opened it (QuotaWindow.endIfOpenedByOurs), else `now`. */
	opened: number;
	/** The delay was learned from refusals that said nothing (silent-window.ts): the calls at its end probe it. */
	learned?: boolean;
	/** The server told the delay (a 429 that says nothing is given a guess: it tells no window's end). */
	told?: boolean;
}

export class RefusalHold {
	/** The last second of a whole-second delay (the window ends within it), or all of a shorter one (`withinDelay`). */
	private tail?: { from: number; until: number; withinDelay?: boolean };
	/** Whether the last refused call was sent in that time. */
	private refusedInTail = false;

	/**
	 * A refused call's answer; returns whether the refusal cuts the rate. In the last second of a longer delay, the
	 * window has not ended: no cut. Within a short delay, it cuts as any refusal (not cutting there: three processes
	 * at 0.2 s over 1.35 × on virtual time).
	 */
	onRefusedCall(sentAt: number): boolean {
		const tail = this.tail;
		this.refusedInTail = tail !== undefined && sentAt >= tail.from && sentAt < tail.until;
		return !this.refusedInTail || tail?.withinDelay === true;
	}

	/**
	 * Until when the lane is held after a refusal:
	 * - a delay told to the millisecond (precision 0: exact ends, `retry-after-ms`, a duration): all of the delay, not
	 *   the refused call's jitter.
	 * - a delay longer than its precision: until its last second, or within it until the refusing window ends if our
	 *   oldest call since opened it (as for a short delay, below). Holding all of a `Retry-After: 1`: 1.21 × for
	 *   1.15 × (one process, virtual time); holding all of a date's delay, which rounds the end up to the next second:
	 *   1.27 × on the real sandbox where seconds gave 1.14 ×.
	 * - a call refused in that last second shows the window has not ended: half of what is left (under
	 *   TAIL_STEP_MIN_MS, the rest). Holding the rest at once: 1.20 × for 1.10 × with 5 s windows (`Retry-After` alone).
	 *   Unless its told delay ends past that second at the earliest: a later window refused it, and it is a new pause.
	 * - a delay of at most the precision: until the refusing window ends if our oldest call since opened it, never
	 *   past the delay; a call refused in that time holds the same, never past the delay either. Calls sent in
	 *   between were refused too: three processes on virtual time, told quota without exact ends, 8.9 % → 6.8 %
	 *   answered 429, 1.164 × → 1.143 ×.
	 * - a delay of FULL_HOLD_FROM_MS or more: all of it.
	 * A longer delay than the short one whose time it fell in is a new pause, not a step within that time.
	 */
	holdUntil({ now, delay, wait, precision, opened, learned, told }: Refusal): number {
		const tail = this.tail;
		// A delay that tells its window's end (precision 0) is a pause of its own, whatever time the call was sent in; so is
		// one that ends past that time at the earliest: the window ended in it, and a later one refused (a server 3 s away,
		// three processes: a 10 s delay held as half of the old last second, 4 more refusals each, 26.8 % answered 429).
		const later = told === true && tail !== undefined && now + delay - precision >= tail.until;
		if (this.refusedInTail && tail && precision > 0 && !later && !(tail.withinDelay && delay > precision)) {
			if (tail.withinDelay) return Math.min(opened, tail.until);
			const left = tail.until - now;
			return now + (left <= TAIL_STEP_MIN_MS ? left : left / 2);
		}
		if (delay <= precision && precision > 0) {
			this.tail = { from: now, until: now + delay, withinDelay: true };
			return Math.min(opened, now + delay);
		}
		if (learned) {
			// Its calls sent as the hold ends probe a learned end: one refused there shows the window longer, not a crowd.
			this.tail = { from: now + wait, until: now + wait + LEARNED_PROBE_MS };
			return now + wait;
		}
		if (precision === 0) {
			// The window ends there: the lane's calls go then, and only the refused call waits its jitter (holding the lane
			// for the jitter as well: `retry-after-ms` on 1 s windows 1.17 × for 1.14 ×, one process on virtual time).
			this.tail = undefined;
			return now + delay;
		}
		if (delay >= FULL_HOLD_FROM_MS) {
			this.tail = undefined;
			return now + wait;
		}
		const until = now + wait - precision;
		this.tail = { from: until, until: now + wait };
		// The window our oldest call opened ends in that last second: it is the end, if our call opened it (an HTTP date's
		// delay, rounded up past a second, on 1 s windows: 1.17 × → 1.15 ×, as seconds; the IETF fields, three processes
		// at 25 per 10 s: 20 % → 10 % answered 429). A call refused after it still halves what is left.
		return opened > until && opened <= now + wait ? opened : until;
	}

	/** Whether a pause ending at `at` is a hold within a short delay: it keeps the epoch (its calls are still the first crowding's to measure). */
	keepsEpoch(at: number): boolean {
		return this.tail?.withinDelay === true && at <= this.tail.until;
	}
}
