/**
 * A 429 that says nothing (no delay, no reset: the spec says only "back off exponentially"): when its window ends,
 * guessed and then learned from the refusals and the admissions after them, per lane. A fixed window lets its
 * calls through again when it ends; the first call let through after refusals is taken as a window's start, and
 * the gaps between those starts give the window's length. Until a gap is seen, the window is taken to be the next
 * common length that the refusals leave possible (1 s, 2 s, 5 s, 10 s …): a backoff that grows about twofold, from
 * the window's start rather than from each refused call, so that its probes fall where windows commonly end.
 * A refusal comes back at once, a call let through after its work: a call still out longer than any refusal took
 * was let through, so the window's start is known before its answers (a model answering in 5 s).
 * Pure: the caller gives the times (the pacer's clock).
 */
import { COMMON_WINDOW_LENGTHS_MS } from './learned-length';

/**
 * The first call after a window was due to end, refused less than this after that end, shows the window ending
 * late (a length learned a little short, from a first call sent late into its window), not the next window spent:
 * the next probe is then this much later, not a whole window. A refusal after other calls sent since the end is a
 * window spent by its first calls (the answers letting them through come later than a refusal).
 */
export const LATE_END_MS = 1_000;
/** A gap this much shorter than a common length is that length: the gap's first call was sent a little late into its window. */
export const GAP_SHORT_SHARE = 0.05;

/** The length is known once the least and the most it can be are this share of it apart. */
export const RESOLVED_SHARE = 0.05;

/** The calls kept to learn from: a few windows' worth at the rates a 429 that says nothing comes with. */
export const KEPT_CALLS = 256;

/** A call as the window sees it: when it was sent, and whether it was let through (any answer but a 429; undefined: no answer yet). */
interface Call {
	at: number;
	let?: boolean;
}

/** The delay a refusal that says nothing stands for; `late`: a window was due to end before the refused call, so where the window ends is a guess. */
export interface SilentDelay {
	ms: number;
	late: boolean;
	/** No gap between two windows seen yet: the length is the next common one the refusals leave possible. */
	guessed: boolean;
}

/** A window as the calls show it: its first call let through, and the latest call refused in it (the window lasts longer). */
interface Seen {
	start: number;
	/** Whether its first call was answered (not only out longer than any refusal took). */
	answered: boolean;
	refusedAt?: number;
}

export class SilentWindow {
	/** The latest calls, in the order they were sent (the pacer's clock only moves on). */
	private readonly calls: Call[] = [];
	/** Whether older calls were let go: the first one kept may not be a window's first. */
	private trimmed = false;
	/** The longest a refusal took to come back: a call out longer was let through. */
	private refusalTook = -Infinity;
	/** The least gap seen between two windows' first calls, both answered (a whole number of windows, one when the calls kept coming). */
	private leastGap = Infinity;
	/** The least gap the latest look saw to a window whose first call is still out (not kept). */
	private outGap = Infinity;
	/** The window is longer than this: a call was refused this long after the first call of the window it was counted in. */
	private least = 0;

	/** A call is sent at `at`. */
	sent(at: number): void {
		this.calls.push({ at });
		if (this.calls.length > KEPT_CALLS) {
			this.calls.shift();
			this.trimmed = true;
		}
	}

	/** The call sent at `at` was let through (`let`), refused (429), or had no answer (undefined: it tells nothing), at `now`. */
	ended(at: number, now: number, let_: boolean | undefined): void {
		const i = this.calls.findIndex((c) => c.at === at && c.let === undefined);
		if (i < 0) return;
		if (let_ === undefined) this.calls.splice(i, 1);
		else this.calls[i].let = let_;
		if (let_ === false) this.refusalTook = Math.max(this.refusalTook, now - at);
	}

	/**
	 * The windows the kept calls show at `now`: a window starts with the first call let through after a refusal (or
	 * the first call ever); a call still out longer than any refusal took was let through. Learns the bounds on the
	 * length as it goes. A gap is kept only between windows whose first calls were answered: one counted while out
	 * may yet be refused (a refusal slower than any before), and its gap, short of a window, would stay the least.
	 */
	private windows(now: number): Seen[] {
		const seen: Seen[] = [];
		let previous: boolean | undefined = this.trimmed ? true : undefined;
		for (const call of this.calls) {
			const let_ = call.let ?? (now - call.at > this.refusalTook ? true : undefined);
			if (let_ === undefined) continue;
			const last = seen[seen.length - 1];
			if (let_ && previous !== true) seen.push({ start: call.at, answered: call.let === true });
			else if (!let_ && last) last.refusedAt = call.at;
			previous = let_;
		}
		this.outGap = Infinity;
		for (let i = 1; i < seen.length; i++) {
			const gap = seen[i].start - seen[i - 1].start;
			if (seen[i].answered && seen[i - 1].answered) this.leastGap = Math.min(this.leastGap, gap);
			else this.outGap = Math.min(this.outGap, gap);
		}
		// A call refused a whole gap after its window's first call was refused by a later window (others took it): not counted.
		const most = this.most();
		for (const w of seen) if (w.refusedAt !== undefined && w.refusedAt - w.start < most) this.least = Math.max(this.least, w.refusedAt - w.start);
		return seen;
	}

	/** The least gap between two windows: kept, or seen now with a first call still out. */
	private most(): number {
		return Math.min(this.leastGap, this.outGap);
	}

	/**
	 * Where the window is taken to end, after its first call: while the length lies somewhere between the least the
	 * refusals showed and the least gap, halfway (a probe there is let through and shortens the gap, or refused and
	 * raises the least: 12 s windows were taken for 15 s, 1.26 ×); once known within RESOLVED_SHARE, the common length
	 * there, if any, else the gap; before any gap, the next common length the refusals leave possible.
	 */
	private length(): number {
		const [least, most] = [this.least, this.most()];
		if (most === Infinity) return COMMON_WINDOW_LENGTHS_MS.find((l) => l > least) ?? least * 2;
		const common = COMMON_WINDOW_LENGTHS_MS.find((l) => l > least && l <= most * (1 + GAP_SHORT_SHARE));
		if (most - least <= RESOLVED_SHARE * most) return common ?? Math.max(most, least);
		return (least + most) / 2;
	}

	/**
	 * The delay a refusal that says nothing, answered at `now` for a call sent at `sentAt`, stands for: until the
	 * next end of its window, taken as the window's first call plus whole lengths. The first call after an end
	 * was due, refused just after it, waits at most LATE_END_MS. Undefined before any call was let through (the
	 * caller backs off).
	 */
	delay(now: number, sentAt: number): SilentDelay | undefined {
		const start = this.windows(now)
			.filter((w) => w.start <= sentAt)
			.pop()?.start;
		if (start === undefined) return undefined;
		const length = this.length();
		const ends = Math.floor((sentAt - start) / length);
		const end = start + ends * length;
		const firstAfterEnd = !this.calls.some((c) => c.at >= end && c.at < sentAt);
		const guessed = this.most() === Infinity;
		if (ends >= 1 && sentAt - end < LATE_END_MS && firstAfterEnd) return { ms: Math.max(0, Math.min(LATE_END_MS, end + LATE_END_MS - now)), late: true, guessed };
		// Past an end the calls went on through (no refusal showed the window's start since): a gateway's windows drift
		// from their first calls, so the end is a guess the pacing probes before.
		return { ms: Math.max(0, start + (ends + 1) * length - now), late: ends >= 1, guessed };
	}
}
