/**
 * The rate controller of one lane: a token bucket whose rate (calls per second) is found from the refusals
 * and grows with time, not with answers, so that a slow model (5 s an answer) climbs as fast as a quick one.
 *
 * - Before the first refusal, the rate doubles every `slowStartDoublingMs` from `initialRate`.
 * - A refusal (429, WORKFLOW_BUSY) tells that the key's quota was passed: the rate the key allowed is the
 *   rate of this client's calls that were not refused over the last `measureMs`. The rate drops to `beta`
 *   of it, climbs back within `recoverMs` to just under it (less `margin`), holds there for `plateauMs`,
 *   then probes upward, doubling every `probeDoublingMs` (the quota may have grown, other clients of the
 *   key may have finished) until the next refusal.
 * - A told quota (limit per window, from the answers) is a ceiling, and the starting rate: nothing left to find.
 *
 * Pure: the caller gives the time of each event; no timers, no clock. AWS's adaptive retry (a measured send
 * rate, a cut on a throttle, growth with time since it) is the model.
 */

export interface RateControllerOptions {
	/** Calls per second before anything is known (the first refusal comes back at once and says more). */
	initialRate: number;
	/** Calls that may go at once before the rate has let them (the bucket starts this full). */
	initialBurst: number;
	/** Before the first refusal, the rate doubles this often: 4 → 16 calls/s in 1 s, 64 in 2 s. */
	slowStartDoublingMs: number;
	/** Right after a refusal, the rate is this share of the rate the key allowed (room for other clients to come back). */
	beta: number;
	/** Time to climb back from the cut to the plateau (concave, as CUBIC: fast at first, slow near it). */
	recoverMs: number;
	/** The plateau is this far under the measured rate: a fixed window refuses the first call over it, and each refusal costs its delay. */
	margin: number;
	/** Time held on the plateau before probing upward. */
	plateauMs: number;
	/** Past the plateau the rate doubles this often, until the next refusal. */
	probeDoublingMs: number;
	/** The span over which the rate allowed is measured at a refusal. */
	measureMs: number;
	/** Never slower than this (calls per second): a crowded key still moves. */
	minRate: number;
	/** Never faster than this (calls per second): the bucket is not a burst of thousands. */
	maxRate: number;
}

export const RATE_DEFAULTS: RateControllerOptions = {
	initialRate: 4,
	initialBurst: 3,
	slowStartDoublingMs: 500,
	beta: 0.85,
	recoverMs: 1_000,
	margin: 0.03,
	plateauMs: 10_000,
	probeDoublingMs: 1_000,
	measureMs: 1_000,
	minRate: 0.2,
	maxRate: 1_000,
};

/** The share of the slow start's last measured span that the window which refused it holds (see onRefused). */
const SLOW_START_SHARE = 2 / 3;

/** The shortest span a rate is measured over: a handful of calls sent together is not a rate. */
const MIN_SPAN_MS = 100;

/** Our sends kept for the measure: enough for a second at the fastest rate. */
const MAX_SENDS_KEPT = 2_048;

export class RateController {
	private readonly o: RateControllerOptions;
	private readonly startedAt: number;
	private tokens: number;
	private updatedAt: number;
	/** The told quota's rate (calls per second), when the answers tell it. */
	private ceiling?: number;
	/** The last cut: when, and the rate the key allowed then. */
	private cutAt = -Infinity;
	private allowed?: number;
	/** When the answers showed room after the last cut (the probe starts then). */
	private roomAt?: number;
	private firstSendAt?: number;
	/** Send times of our calls not refused, oldest first (bounded). */
	private readonly sends: number[] = [];

	constructor(now: number, options: Partial<RateControllerOptions> = {}) {
		this.o = { ...RATE_DEFAULTS, ...options };
		this.startedAt = now;
		this.updatedAt = now;
		this.tokens = this.o.initialBurst;
	}

	/** The rate allowed now (calls per second). */
	rate(now: number): number {
		let r: number;
		if (this.allowed === undefined) {
			r = this.ceiling ?? this.o.initialRate * 2 ** ((now - this.startedAt) / this.o.slowStartDoublingMs);
		} else {
			const t = now - this.cutAt;
			// A refusal at the told rate came from others on the key or a burst: the told rate already has its margin.
			const top = this.ceiling !== undefined && this.allowed >= this.ceiling ? this.ceiling : this.allowed * (1 - this.o.margin);
			const low = this.allowed * this.o.beta;
			if (t < this.o.recoverMs) r = low + (top - low) * (1 - (1 - t / this.o.recoverMs) ** 3);
			else {
				const probeFrom = Math.min(this.cutAt + this.o.recoverMs + this.o.plateauMs, this.roomAt ?? Infinity);
				r = now <= probeFrom ? top : top * 2 ** ((now - probeFrom) / this.o.probeDoublingMs);
			}
		}
		if (this.ceiling !== undefined) r = Math.min(r, this.ceiling);
		return Math.max(this.o.minRate, Math.min(this.o.maxRate, r));
	}

	/** The answers show the key had room (a window ended with calls left): probe upward now, not after the plateau. */
	onRoom(now: number): void {
		if (this.allowed !== undefined && this.roomAt === undefined && now >= this.cutAt + this.o.recoverMs) this.roomAt = now;
	}

	/** The told quota's rate, or undefined when the answers stop telling it. */
	setCeiling(rate: number | undefined): void {
		this.ceiling = rate === undefined || !(rate > 0) ? undefined : rate;
	}

	/** When the next call may go (now, or later when the bucket is empty). */
	nextSendAt(now: number): number {
		this.refill(now);
		if (this.tokens >= 1) return now;
		const from = Math.max(now, this.updatedAt);
		return from + Math.ceil(((1 - this.tokens) / this.rate(from)) * 1_000);
	}

	/** A call went at `at`. */
	onSend(at: number): void {
		this.refill(at);
		this.tokens -= 1;
		this.firstSendAt ??= at;
		this.sends.push(at);
		while (this.sends.length > MAX_SENDS_KEPT || (this.sends.length > 0 && this.sends[0] < at - 2 * this.o.measureMs)) this.sends.shift();
	}

	/** A pause (a refusal's delay) ended at `at`: one call may go at once (the server said when), and no burst of the tokens the pause saved. */
	onPauseEnd(at: number): void {
		this.refill(at);
		this.tokens = 1;
	}

	/**
	 * A call sent at `sentAt` was refused at `now`. Calls sent before the last cut are of the same crowding and
	 * cut nothing more; otherwise the rate drops, measured from our calls that were not refused.
	 */
	onRefused(sentAt: number, now: number): void {
		const i = this.sends.lastIndexOf(sentAt);
		if (i >= 0) this.sends.splice(i, 1);
		if (sentAt < this.cutAt) return;
		this.refill(now);
		const from = now - this.o.measureMs;
		// Over the span measured, or the time since our first call when that is shorter (a refusal in the first instants).
		const span = Math.max(MIN_SPAN_MS, Math.min(this.o.measureMs, now - (this.firstSendAt ?? now)));
		const counted = this.sends.filter((at) => at >= now - span && at <= now).length;
		let measured = (counted * 1_000) / span;
		// The first refusal ends the slow start, whose rate grew over the span measured: the window that refused holds
		// only the later part of it (with the rate doubling every half span, the last half holds 2/3 of the calls).
		if (this.allowed === undefined && this.ceiling === undefined) measured *= SLOW_START_SHARE;
		// No call of ours went through in the span: the measure tells nothing, and the rate is cut as AWS cuts it.
		if (counted === 0) measured = this.rate(now) * this.o.beta;
		this.allowed = Math.max(this.o.minRate, Math.min(measured, this.ceiling ?? Infinity));
		this.cutAt = now;
		this.roomAt = undefined;
		this.tokens = Math.min(this.tokens, 1);
		while (this.sends.length > 0 && this.sends[0] < from) this.sends.shift();
	}

	/** What the controller knows, for reports. */
	report(now: number): { rate: number; allowed?: number; told: boolean } {
		return { rate: this.rate(now), allowed: this.allowed, told: this.ceiling !== undefined };
	}

	/** The bucket holds one token (calls go evenly spaced), or the initial burst until it is spent. */
	private refill(now: number): void {
		if (now <= this.updatedAt) return;
		this.tokens = Math.min(Math.max(1, this.tokens), this.tokens + ((now - this.updatedAt) / 1_000) * this.rate(now));
		this.updatedAt = now;
	}
}
