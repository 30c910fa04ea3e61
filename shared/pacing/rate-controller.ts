/**
 * The rate controller of one lane: a token bucket whose rate (calls per second) is found from the refusals
 * and grows with time, not with answers, so that a slow model (5 s an answer) climbs as fast as a quick one.
 *
 * - Before the first refusal, the rate doubles every `slowStartDoublingMs` from `initialRate` (a caller that
 *   waits for each answer is not held by it: see pacesLoneCalls).
 * - A refusal (429) tells that the key's quota was passed: the rate the key allowed is the rate of this client's
 *   calls that were not refused over the last `measureMs` (at the first refusal, over the calls since the first,
 *   when they span less than two of those; after a probe, no more than before it). The rate drops to `beta` of
 *   it, climbs back within `recoverMs` to just under it (less `margin`), holds there (`plateauMs`, or
 *   `sharedPlateauMs` when the refusal came on the plateau: others share the key), then probes upward by
 *   `probeStep` calls a second each second (the quota may have grown, other clients may have finished) until the
 *   next refusal. The same step for every client is what evens out their shares (AIMD, as TCP shares a link).
 * - A told quota (limit per window, from the answers) is a ceiling, and the starting rate: nothing left to find.
 *   Answers that show a window ended with room start the probe at once (onRoom).
 * Every constant was set on scenario S8's grid on virtual time (test/grid/pacing-grid.test.ts), then checked
 * on the real sandbox (`npm run bench -- --only S8`).
 *
 * Pure: the caller gives the time of each event; no timers, no clock. AWS's adaptive retry (a measured send
 * rate, a cut on a throttle, growth with time since it) is the model.
 */

export interface RateControllerOptions {
	/** Calls per second before anything is known (the first refusal comes back at once and says more): 8, so that a quota of 10 per second is reached within its first window. */
	initialRate: number;
	/** Calls that may go at once before the rate has let them (the bucket starts this full). */
	initialBurst: number;
	/** Before the first refusal, the rate doubles this often: 8 → 32 calls/s in 1 s, 128 in 2 s. */
	slowStartDoublingMs: number;
	/** Right after a refusal, the rate is this share of the rate the key allowed (room for other clients to come back). */
	beta: number;
	/** Time to climb back from the cut to the plateau (concave, as CUBIC: fast at first, slow near it). */
	recoverMs: number;
	/** The plateau is this far under the measured rate: a fixed window refuses the first call over it, and each refusal costs its delay. */
	margin: number;
	/**
	 * Time held on the plateau before probing upward. A client alone is refused only when it probes, and each probe
	 * costs it a cut; clients sharing the key find the share of one that finished only by probing. 4 s on the grid
	 * (5 seeds × processes started together, 0.2 s and 0.5 s apart): 10 targets missed in 810 cases, worst 1.32 ×;
	 * 3 s: 63 missed (429 shares); 6 s: 53, worst 1.46 ×; 12 s (before): 93, worst 1.91 ×.
	 */
	plateauMs: number;
	/**
	 * The plateau when the last refusal came while this client was not probing: others share the key (their probes
	 * filled the window), and one of them may finish at any time; a probe then costs this client a pause, not the key.
	 */
	sharedPlateauMs: number;
	/**
	 * Past the plateau the rate grows by this many calls per second, each second, until the next refusal: the same
	 * step for every client (additive increase evens out the shares of clients that started apart; doubling kept
	 * their ratio, and a latecomer held 1 call a second beside two at 5: 1.91 × the limit at worst on the grid).
	 * 2: a fifth of a quota of 10 a second, so that a process left alone climbs from a third of it in about 3 s.
	 */
	probeStep: number;
	/** …or this share of the told rate (or of the rate last allowed) each second, when larger: a fifth, so that a quota of 100 a second is climbed in seconds too. */
	probeStepShare: number;
	/** The span over which the rate allowed is measured at a refusal. */
	measureMs: number;
	/** Never slower than this (calls per second): a crowded key still moves. */
	minRate: number;
	/** Never faster than this (calls per second): the bucket is not a burst of thousands. */
	maxRate: number;
}

export const RATE_DEFAULTS: RateControllerOptions = {
	initialRate: 8,
	initialBurst: 3,
	slowStartDoublingMs: 500,
	beta: 0.85,
	recoverMs: 1_000,
	margin: 0.03,
	plateauMs: 4_000,
	sharedPlateauMs: 2_000,
	probeStep: 2,
	probeStepShare: 0.2,
	measureMs: 1_000,
	minRate: 0.2,
	maxRate: 1_000,
};

/**
 * The first calls of an epoch may reach the server this much later than they were sent (a first connection, a
 * process's first request: 0.03-0.15 s on the real sandbox), and the window they open ends as much later. A refusal
 * of the first crowding within a measure and this of the epoch's start is in that window: the epoch's calls are one
 * window's (over the epoch's span, one process with `Retry-After: 1` alone measured 9.2 calls a second for 10; over
 * the last second, 7). Longer, and clients sharing the key kept a measure of their slow start (S8 on virtual time,
 * three processes: answered 429 over 10 % in 46 of 810 cases with the whole first crowding; 12 with 250 ms).
 */
const FIRST_CALLS_LAG_MS = 250;

/** Our sends kept for the measure: enough for a second at the fastest rate. */
const MAX_SENDS_KEPT = 2_048;

export class RateController {
	private readonly o: RateControllerOptions;
	private readonly startedAt: number;
	private tokens: number;
	private updatedAt: number;
	/** The told quota's rate (calls per second), when the answers tell it, and its window (ms). */
	private ceiling?: number;
	private windowMs?: number;
	/** The last cut: when, and the rate the key allowed then. */
	private cutAt = -Infinity;
	private allowed?: number;
	/** When the answers showed room after the last cut (the probe starts then). */
	private roomAt?: number;
	/** The first call of the current epoch: since the start, or since the last pause ended. */
	private epochAt?: number;
	/** Cuts so far. */
	private cuts = 0;
	/** The window the last refusal was in ends no later than this (its delay told it): a refusal of a call sent before is in that window. */
	private crowdedUntil = -Infinity;
	/** Every refusal so far was of the first crowding (see FIRST_CALLS_LAG_MS). */
	private firstCrowding = true;
	/** The last refusal came while this client held its plateau (not probing): others share the key. */
	private shared = false;
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
				const probeFrom = this.probeFrom();
				// Additive: every client on the key gains the same calls per second each second, so that shares even out.
				const step = Math.max(this.o.probeStep, this.o.probeStepShare * (this.ceiling ?? this.allowed));
				r = top + (step * Math.max(0, now - probeFrom)) / 1_000;
			}
		}
		if (this.ceiling !== undefined) r = Math.min(r, this.ceiling);
		return Math.max(this.o.minRate, Math.min(this.o.maxRate, r));
	}

	/** When the probe upward starts after the last cut: after the plateau, or when the answers showed room. */
	private probeFrom(): number {
		const plateau = this.shared ? this.o.sharedPlateauMs : this.o.plateauMs;
		return Math.min(this.cutAt + this.o.recoverMs + plateau, this.roomAt ?? Infinity);
	}

	/** The answers show the key had room (a window ended with calls left): probe upward now, not after the plateau. */
	onRoom(now: number): void {
		if (this.allowed !== undefined && this.roomAt === undefined && now >= this.cutAt + this.o.recoverMs) this.roomAt = now;
	}

	/**
	 * Whether a call with none of its lane's in flight waits for the bucket: not before the key has refused or told
	 * anything (the slow start holds back bursts of calls at once; a caller that waits for each answer, as a trigger
	 * reading page after page does, is paced by its own round trips until then).
	 */
	pacesLoneCalls(): boolean {
		return this.allowed !== undefined || this.ceiling !== undefined;
	}

	/**
	 * The told quota: its rate, and the window it is counted over (ms). A limit per window is a bucket that holds a
	 * window's calls: a window's calls may go together at its start (a fixed window of 50 per 5 s is not 10 a second
	 * spread out: S2 took 1.35 × the limit that way), at the rate allowed now.
	 */
	setCeiling(rate: number | undefined, windowMs?: number): void {
		this.ceiling = rate === undefined || !(rate > 0) ? undefined : rate;
		this.windowMs = this.ceiling === undefined ? undefined : windowMs;
	}

	/** Whether a told window's calls may go together over `span` (setCeiling's window) already. */
	burstsOver(span: number): boolean {
		return this.windowMs === span;
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
		this.epochAt ??= at;
		this.sends.push(at);
		while (this.sends.length > MAX_SENDS_KEPT || (this.sends.length > 0 && this.sends[0] < at - 2 * this.o.measureMs)) this.sends.shift();
	}

	/**
	 * A pause (a refusal's delay) ended at `at`: one call may go at once (the server said when), and no burst of the
	 * tokens the pause saved; `windowEnded`: the pause ended at a told window's exact end, and the new window's calls
	 * may go (a delay in whole seconds ends anywhere in the next window, where others' calls may be); `newEpoch`: false
	 * for a hold within a refusal's own short delay, whose calls still measure the window that refused (the first
	 * calls' window on the real sandbox, a second refusal measured from the hold's end alone: 1.34 × for 1.15 ×).
	 */
	onPauseEnd(at: number, windowEnded = false, newEpoch = true): void {
		this.refill(at);
		this.tokens = windowEnded ? this.capacity(at) : 1;
		if (newEpoch) this.epochAt = undefined;
	}

	/** A told window began at `at` (its exact end was waited for): `calls` may go at once, this client's share of it. */
	onWindowStart(at: number, calls: number): void {
		this.refill(at);
		this.tokens = Math.max(this.tokens, calls);
	}

	/**
	 * A call sent at `sentAt` was refused at `now`. Calls sent before the last cut are of the same crowding and cut
	 * nothing more; otherwise the rate drops, measured from our calls that were not refused (in the first window, from
	 * all of them since the start: see FIRST_CALLS_LAG_MS).
	 */
	onRefused(sentAt: number, now: number): void {
		const i = this.sends.lastIndexOf(sentAt);
		if (i >= 0) this.sends.splice(i, 1);
		if (sentAt < this.cutAt) return;
		if (this.cuts > 0 && !(sentAt < this.crowdedUntil)) this.firstCrowding = false;
		this.refill(now);
		// Over the last span, and over the epoch (since the start or the last pause) when it is short: a window that
		// began with the epoch's first calls (sent together, on a first connection that took long) holds them all.
		const counted = this.sends.filter((at) => at >= now - this.o.measureMs && at <= now).length;
		let measured = (counted * 1_000) / this.o.measureMs;
		const epoch = now - (this.epochAt ?? now);
		const inFirstWindow = this.cuts === 0 || (this.firstCrowding && epoch <= this.o.measureMs + FIRST_CALLS_LAG_MS);
		if (inFirstWindow && epoch <= 2 * this.o.measureMs) {
			const inEpoch = this.sends.filter((at) => at >= (this.epochAt ?? now) && at <= now).length;
			const span = epoch <= this.o.measureMs + FIRST_CALLS_LAG_MS ? this.o.measureMs : epoch;
			measured = Math.max(measured, (inEpoch * 1_000) / span);
		}
		// No call of ours went through in the span: the measure tells nothing, and the rate is cut as AWS cuts it.
		if (counted === 0) measured = this.rate(now) * this.o.beta;
		// A probe refused within a span of its start found nothing more: the calls of a span ago, at the rate then,
		// went through; the span also holds the window before's last calls, which the count would take for more.
		else if (this.allowed !== undefined) measured = Math.min(measured, Math.max(this.allowed, this.rate(now - this.o.measureMs)));
		this.allowed = Math.max(this.o.minRate, Math.min(measured, this.ceiling ?? Infinity));
		// Refused on the plateau (past the recovery, before the probe): the window was filled by others.
		this.shared = this.cuts > 0 && now >= this.cutAt + this.o.recoverMs && now < this.probeFrom();
		this.cutAt = now;
		this.cuts++;
		this.roomAt = undefined;
		this.tokens = Math.min(this.tokens, 1);
	}

	/**
	 * The last refusal's delay: its window ends by `at`. Calls at the cut rate may still go before it (a delay in whole
	 * seconds holds the others only until the window our oldest call opened ends); their refusals are of the same crowding. At the start, the measure of each,
	 * sliding past the epoch's first calls, fell (one process, `Retry-After: 1` alone, on the real sandbox: 10 calls a
	 * second measured at the first refusal, 7 at the fifth in three runs of six: 1.35 × the quota-bound limit for 1.15 ×).
	 */
	onCrowdingEnds(at: number): void {
		this.crowdedUntil = Math.max(this.crowdedUntil, at);
	}

	/** What the controller knows, for reports. */
	report(now: number): { rate: number; allowed?: number; told: boolean } {
		return { rate: this.rate(now), allowed: this.allowed, told: this.ceiling !== undefined };
	}

	/** The bucket holds one token (calls go evenly spaced) or, with a told window, a window's calls at the rate now; the initial burst until it is spent. */
	private refill(now: number): void {
		if (now <= this.updatedAt) return;
		this.tokens = Math.min(Math.max(this.capacity(now), this.tokens), this.tokens + ((now - this.updatedAt) / 1_000) * this.rate(now));
		this.updatedAt = now;
	}

	/** One token, or a told window's calls at the rate now. */
	private capacity(now: number): number {
		// A hair over the product: the told rate over the window and its margin times that span is the limit exactly, floating point aside.
		return this.windowMs === undefined ? 1 : Math.max(1, Math.floor((this.rate(now) * this.windowMs) / 1_000 + 1e-9));
	}
}
