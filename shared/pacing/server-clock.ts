/**
 * The server's clock, as the `Date` header of its answers shows it, learned per key (the pacer holds one). A date
 * the server gives (a `Retry-After` date, a reset as a date or an epoch) names an instant on its clock; read on
 * ours, a server 3 s ahead would make every such wait 3 s too long. Pure: the caller gives the times.
 *
 * A `Date` header is whole seconds, stamped when the answer was written: the server's time then was in
 * [D, D + 1 s), and ours between the call's send and the answer's arrival. So each answer bounds the offset
 * (server − ours) from below by D − arrival (tight: the answer is stamped just before it leaves) and from
 * above by D + 1 s − send (loose when the server takes long). The offset taken:
 * - 0 while our clock agrees with every `Date` seen (the header cannot show less than its second): the
 *   client's own clock, as with no `Date` header at all;
 * - otherwise the lowest offset the answers allow: the server's clock is at least that far ahead. Read with it,
 *   a server's instant falls on ours a little late, never early (an early burst at a window's end is refused
 *   whole: 25 calls 40 ms early with an offset taken as the mean of what the answers allow). What it may miss
 *   is what the truncation of n answers at random instants hides on average, 1 s ÷ (n + 1): precisionMs.
 */

/** A `Date` header's precision: whole seconds (RFC 9110's IMF-fixdate). */
export const DATE_PRECISION_MS = 1_000;

export class ServerClock {
	/** The greatest lower bound and least upper bound of the offset (ms), over the answers seen. */
	private low = -Infinity;
	private high = Infinity;
	private answers = 0;

	/** An answer's `Date` header (`raw`), for a call sent at `sentAt` and answered at `receivedAt` (our clock). */
	learn(raw: string | undefined, sentAt: number, receivedAt: number): void {
		const date = raw === undefined || !/GMT$/.test(raw.trim()) ? NaN : Date.parse(raw);
		if (Number.isNaN(date)) return;
		this.low = Math.max(this.low, date - receivedAt);
		this.high = Math.min(this.high, date + DATE_PRECISION_MS - Math.min(sentAt, receivedAt));
		// Bounds that cross (a server whose clock jumped): start again from this answer.
		if (this.low > this.high) {
			this.low = date - receivedAt;
			this.high = date + DATE_PRECISION_MS - Math.min(sentAt, receivedAt);
			this.answers = 0;
		}
		this.answers++;
	}

	/** The server's time minus ours (ms): 0 when no `Date` was seen or when ours agrees with them. */
	get offsetMs(): number {
		if (this.answers === 0 || (this.low <= 0 && this.low + DATE_PRECISION_MS >= 0 && this.high >= 0)) return 0;
		return Math.min(this.high, this.low);
	}

	/** How far the offset may be off (ms): 0 when it is 0 (our clock), else what n answers at random instants leave. */
	get precisionMs(): number {
		return this.offsetMs === 0 ? 0 : Math.min(this.high - this.low, DATE_PRECISION_MS / (this.answers + 1));
	}

	/** How early the server's instants may fall on ours at most (ms): the width of the offsets the answers allow; 0 while ours is taken. */
	get spreadMs(): number {
		return this.offsetMs === 0 ? 0 : this.high - this.low;
	}

	/** Our time of an instant the server names on its clock. */
	toLocal(serverMs: number): number {
		return serverMs - this.offsetMs;
	}
}
