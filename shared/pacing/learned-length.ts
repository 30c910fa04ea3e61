/**
 * The length of a key's window learned from the exact window ends its answers tell (quota-window.ts takes it
 * where no answer states the length). Pure: the caller gives the times.
 */
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
