/**
 * The length of a key's window learned from the window ends its answers tell, exact (LearnedLength) or to the
 * second (RoundedLength); quota-window.ts takes it where no answer states the length. Pure: the caller gives the times.
 */
/** Lengths services commonly count over; a window's length is guessed, then learned, among them first (silent-window.ts, RoundedLength). */
export const COMMON_WINDOW_LENGTHS_MS = [1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000];
/** Two window ends closer than this are the same window (servers round their reset times). */
export const SAME_WINDOW_MS = 50;

/**
 * The window's length from exact ends: the least gap between two of them (fixed windows end a whole number of
 * windows apart). A gap is taken only when it is shorter than two of the least length a window can have: a
 * longer one may span several windows whose ends no answer told (a refusal's end at 0.66 s, then answers 5 s
 * later telling the end at 5 s: a 1 s window taken for 4 s, and the told rate cut to 2.4 calls a second).
 */
export class LearnedLength {
	/**
	 * About the least a window can last: the longest span from one of our calls to the end of the window it was counted
	 * in (it began at that call's arrival or before, a network's delay after it was sent at most).
	 */
	leastLength = 0;
	private lastReset?: number;
	/** How late lastReset may have been read. */
	private lastPrecision = 0;
	/** The least gap seen between two exact window ends (a whole number of windows). */
	private leastGap = Infinity;

	/**
	 * An exact end told for our call sent at `sentAt` (undefined: not kept), `precisionMs` at most after the true end
	 * (an end on the server's clock moves as that clock is read more closely); returns the length it shows, if any.
	 * Two ends closer than that precision, or SAME_WINDOW_MS, are one window's: a server 3 s ahead had one end read 51
	 * and 56 ms apart taken for a window of 51 ms, and three processes on 25 per 10 s sent 12 calls at once.
	 */
	learn(resetAt: number, sentAt: number | undefined, precisionMs = 0): number | undefined {
		if (sentAt !== undefined) this.leastLength = Math.max(this.leastLength, resetAt - sentAt);
		const same = Math.max(SAME_WINDOW_MS, precisionMs, this.lastPrecision);
		if (this.lastReset !== undefined && Math.abs(resetAt - this.lastReset) > same) {
			this.leastGap = Math.min(this.leastGap, Math.abs(resetAt - this.lastReset));
		}
		if (this.lastReset === undefined || resetAt >= this.lastReset) [this.lastReset, this.lastPrecision] = [resetAt, precisionMs];
		return this.leastGap < 2 * this.leastLength ? this.leastGap : undefined;
	}
}

/**
 * A length is taken from ends told to the second only when the window is at least this many times their precision:
 * rounder, the readings of two windows may overlap and be taken for one (a 1 s window told in whole seconds with
 * 5 s answers).
 */
export const ROUNDED_LENGTH_PRECISIONS = 2;

/**
 * The window's length from ends told only to the second (a reset in whole seconds, an HTTP date, a refusal's delay
 * in whole seconds): each reading says the end lies in (at - precision, at]. Readings that overlap are one
 * window's, and narrow its end; one past the current window's latest end starts the next. The length lies between
 * the longest a call's window lasted after its answer came (at least: it began at that call or before) and the gap between two
 * windows' ends (at most: a window starting with the first call after the last one ended starts late, never early).
 * It is taken only when a single common length (1 s, 2 s, 5 s, 10 s …) lies there: from a gap alone, a lone
 * client's 10 s windows with an idle second between them look 11 s long, and 1 s windows told in whole seconds
 * look like anything up to 2 s.
 */
export class RoundedLength {
	/**
	 * The current window's end lies in (from, until]; `firstSent`: the first of our calls counted in it whose answer
	 * told it (Infinity: only refusals told it); `roundest`: the least precise of its readings.
	 */
	current?: RoundedWindow;
	/** The window before it. */
	previous?: RoundedWindow;
	private least = 0;
	private most = Infinity;

	/**
	 * An end told at `at`, `precisionMs` before it at the earliest, in the answer to our call sent at `sentAt` and
	 * answered at `answeredAt` (a refused call's: `sentAt` Infinity, it was not counted); returns the length, once known.
	 */
	learn(at: number, precisionMs: number, sentAt: number, answeredAt: number): number | undefined {
		const from = at - precisionMs;
		// Its call was counted by then, in the window that ends after `from`: that window began no later.
		this.least = Math.max(this.least, from - answeredAt);
		const c = this.current;
		if (c && at <= c.from) return this.length();
		if (c && from < c.until) this.current = { from: Math.max(c.from, from), until: Math.min(c.until, at), firstSent: Math.min(c.firstSent, sentAt), roundest: Math.max(c.roundest, precisionMs) };
		else [this.previous, this.current] = [c, { from, until: at, firstSent: sentAt, roundest: precisionMs }];
		if (this.previous !== undefined) this.most = Math.min(this.most, this.current.until - this.previous.from);
		// No length fits between them: a gap taken across a jump of the server's clock. The gaps start again.
		if (this.most < this.least) [this.most, this.previous] = [Infinity, undefined];
		return this.length();
	}

	private length(): number | undefined {
		const fits = COMMON_WINDOW_LENGTHS_MS.filter((l) => l >= this.least && l <= this.most);
		// As rough as the two windows' readings that gave the gap: an earlier slow answer does not hold it back for good.
		const roundest = Math.max(this.current?.roundest ?? 0, this.previous?.roundest ?? 0);
		return fits.length === 1 && fits[0] >= ROUNDED_LENGTH_PRECISIONS * roundest ? fits[0] : undefined;
	}
}

/** A window as its ends told to the second show it (RoundedLength). */
export interface RoundedWindow {
	from: number;
	until: number;
	firstSent: number;
	roundest: number;
}
