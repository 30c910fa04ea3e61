/**
 * One pacing for every call on one API key (in n8n: every run of a process on that key and base URL, through
 * the adapter's registry), so that calls in flight together respect the service's quota as one.
 *
 * The principle: **more information never makes it slower.** Refusals alone (a 429 and its delay) are enough
 * to pace; what the answers tell of the quota only bounds that pacing where it is known, and a missing piece
 * (no reset, no window length) is unknown, never waited for. The parts, one job each:
 * - rate-controller.ts: the rate (a token bucket) found from the refusals, grown with time;
 * - quota-window.ts: what the answers say of the quota, as a ceiling on that rate and a hold until an exact
 *   window end;
 * - in-flight.ts: the calls in flight, from rate × latency (Little's law), within a cap;
 * - turnstile.ts: the executions sharing the key take turns, round robin;
 * - pacer-registry.ts: one pacing per key, shared by every run on it.
 * Across processes (queue-mode workers, a zap beside a workflow) nothing is shared but the server: its
 * refusals cut each client's rate, and its counts (which include the others' calls) hold each client's sending.
 *
 * Pure: the clock, the wait and the random source are injected; the only other wait is a promise settled by
 * another call's answer. Every slot taken by `acquire` must be given back once by `settle`.
 */
import { AUTO_IN_FLIGHT, InFlight } from './in-flight';
import { QuotaWindow, type RateWindow } from './quota-window';
import { RateController, type RateControllerOptions } from './rate-controller';
import { Turnstile } from './turnstile';
import type { LaneReport } from './lane-report';
import type { Sleep } from './transport';

export { AUTO_IN_FLIGHT } from './in-flight';
export { PacerRegistry } from './pacer-registry';
export type { RateWindow } from './quota-window';

/** How a call ended, for the pacing: answered (any status but a refusal), refused (429: not carried out), or no answer. */
export type CallOutcome = 'answered' | 'refused' | 'failed';

/** A permission to send one call; give it back with `settle`. */
export interface Slot {
	readonly lane: string;
	/** 1-based order of the call among those sent on its lane. */
	readonly ticket: number;
	/** When it was given (pacer's clock). */
	readonly sentAt: number;
}

export interface PacerOptions {
	sleep: Sleep;
	now: () => number;
	/** Random source in [0, 1), for the jitter after a refusal. Defaults to Math.random. */
	random?: () => number;
	/** The rate controller's constants (tests and the bench set them; see RATE_DEFAULTS). */
	rate?: Partial<RateControllerOptions>;
}

export interface AcquireOptions {
	/** Who asks (an execution): waiting parties are served round robin. Default: one party. */
	party?: string;
	/** Longest wait for a refusal's pause this caller accepts (a pause longer than this: PauseTooLong). */
	maxWaitMs?: number;
	/** The caller already waited until then (a refused call's own wait): with a clock that does not move, it counts. */
	waitedUntil?: number;
}

/**
 * The jitter after a refusal: the clients refused in one full window already come back at the instants their
 * refusals reached them, so a small one (5 % of the delay and 20 ms, at most 250 ms) keeps them apart without
 * idling the key after every refusal.
 */
export const JITTER = { share: 0.05, minMs: 20, maxMs: 250 };
/**
 * The precision of a refusal's delay when the answers tell no exact window end: `Retry-After` in whole seconds or
 * as an HTTP date. A delay of at most this says only that the window ends within it.
 */
export const DELAY_PRECISION_MS = 1_000;
/**
 * In the last second of such a delay, a refused call halves the hold left; under this, the lane holds the rest (each
 * step costs a refusal). 50-250 ms gave the same grid; holding the rest at once (no halving) 1.26 × for 1.09 ×.
 */
export const TAIL_STEP_MIN_MS = 100;

/** One quota: the calls of one operation (the service counts per endpoint). */
interface Lane {
	rate: RateController;
	window: QuotaWindow;
	flight: InFlight;
	/** Tickets given so far. */
	sent: number;
	/** No call starts before this time (the server's delay after a refusal on this lane). */
	pausedUntil: number;
	/** The last second of a whole-second delay (the window ends within it), or all of a shorter one (`withinDelay`), and whether the last refusal was of a call sent in it. */
	tail?: { from: number; until: number; withinDelay?: boolean };
	refusedInTail: boolean;
}

/** Thrown by `acquire` when a pause lasts longer than the caller may wait. */
export class PauseTooLong extends Error {
	readonly waitMs: number;
	constructor(waitMs: number) {
		super(`the service asked every call to wait ${waitMs} ms`);
		this.waitMs = waitMs;
	}
}

export class Pacer {
	private readonly sleep: Sleep;
	private readonly now: () => number;
	private readonly random: () => number;
	private readonly rateOptions: Partial<RateControllerOptions>;
	private readonly lanes = new Map<string, Lane>();
	private readonly turnstile = new Turnstile();
	/** Callers waiting for an answer that may free a slot. */
	private waiters: Array<() => void> = [];
	/** Last time a call was given or settled (for the registry's idle rule). */
	private lastActivity: number;

	constructor(options: PacerOptions) {
		this.sleep = options.sleep;
		this.now = options.now;
		this.random = options.random ?? Math.random;
		this.rateOptions = options.rate ?? {};
		this.lastActivity = this.now();
	}

	private lane(name: string): Lane {
		let lane = this.lanes.get(name);
		if (!lane) {
			const flight = new InFlight();
			lane = { rate: new RateController(this.now(), this.rateOptions), window: new QuotaWindow((ticket) => flight.before(ticket)), flight, sent: 0, pausedUntil: 0, refusedInTail: false };
			this.lanes.set(name, lane);
		}
		return lane;
	}

	/** True when nothing is in flight or waiting and nothing happened for `idleMs` (the registry may drop it). */
	idleFor(idleMs: number): boolean {
		const now = this.now();
		if (now - this.lastActivity < idleMs || this.turnstile.busy) return false;
		for (const lane of this.lanes.values()) if (lane.flight.count > 0 || lane.pausedUntil > now) return false;
		return true;
	}

	/** Time left in the pause a refusal set on a lane (0 when none). */
	pauseLeft(laneName: string): number {
		return Math.max(0, (this.lanes.get(laneName)?.pausedUntil ?? 0) - this.now());
	}

	/**
	 * Waits until a call on `lane` may be sent, and takes its slot. Callers of different parties are served
	 * round robin. A pause after a refusal is always waited, unless it is longer than `maxWaitMs` (then
	 * PauseTooLong: nothing may be sent). A hold for the quota's window longer than `maxWaitMs` is not taken:
	 * the call goes, and the server decides.
	 */
	async acquire(laneName: string, options: AcquireOptions | number = {}): Promise<Slot> {
		const opts = typeof options === 'number' ? { maxWaitMs: options } : options;
		await this.turnstile.enter(laneName, opts.party ?? '');
		try {
			return await this.acquireAtHead(laneName, opts.maxWaitMs ?? Infinity, opts.waitedUntil);
		} finally {
			this.turnstile.leave(laneName);
		}
	}

	private async acquireAtHead(laneName: string, maxWaitMs: number, waitedUntil = -Infinity): Promise<Slot> {
		const lane = this.lane(laneName);
		// The time already waited: with a clock that does not move (a recorded sleep), one wait is enough.
		let waited = waitedUntil;
		const waitUntil = async (at: number, now: number) => {
			await this.sleep(at - now);
			waited = at;
		};
		// With calls in flight, an answer may tell the window's exact end sooner than foretold: it ends the hold.
		const waitUntilAnswerOr = async (at: number, now: number) => {
			let answered = false;
			const answer = new Promise<void>((resolve) => this.waiters.push(() => ((answered = true), resolve())));
			await Promise.race([this.sleep(at - now).then(() => (answered ? undefined : (waited = at))), answer]);
		};
		for (;;) {
			const now = Math.max(this.now(), waited);
			const paused = lane.pausedUntil;
			// A pause waited here, or passed by the caller's own wait alone (a clock that does not move), is over for
			// everyone: the next callers must not wait it again.
			if (paused > now || paused > this.now()) {
				if (paused > now) {
					if (paused - now > maxWaitMs) throw new PauseTooLong(paused - now);
					await waitUntil(paused, now);
				}
				if (lane.pausedUntil === paused) lane.pausedUntil = 0;
				// A hold within a short delay (refused) keeps the epoch: its calls are still the first crowding's to measure.
				lane.rate.onPauseEnd(paused, lane.window.exact, !(lane.tail?.withinDelay && paused <= lane.tail.until));
				continue;
			}
			// The window is spent and the answers on their way tell its exact end: waited for, not foretold.
			if (lane.flight.count > 0 && lane.window.spentUntilTold(now, lane.flight.latencyMs)) {
				await new Promise<void>((resolve) => this.waiters.push(resolve));
				continue;
			}
			const hold = lane.window.holdUntil(now);
			if (hold !== undefined && hold - now <= maxWaitMs) {
				await (lane.flight.count > 0 ? waitUntilAnswerOr(hold, now) : waitUntil(hold, now));
				this.shareNext(lane, Math.max(this.now(), waited), false);
				continue;
			}
			this.shareNext(lane, now, true);
			if (lane.flight.count >= this.inFlightLimit(lane, now)) {
				await new Promise<void>((resolve) => this.waiters.push(resolve));
				continue;
			}
			const at = lane.flight.count === 0 && !lane.rate.pacesLoneCalls() ? now : lane.rate.nextSendAt(now);
			if (at > now && at - now <= maxWaitMs) {
				await waitUntil(at, now);
				continue;
			}
			return this.take(laneName, lane);
		}
	}

	/** At a told window's exact end, a lone client's share of the next window may go at once (QuotaWindow.shareOfNext). */
	private shareNext(lane: Lane, at: number, filledByOurs: boolean): void {
		const share = lane.window.shareOfNext(at, filledByOurs);
		if (share !== undefined) lane.rate.onWindowStart(at, share);
	}

	/** Little's law within the cap, and at least a told window's calls (they may go together at its start). */
	private inFlightLimit(lane: Lane, now: number): number {
		const told = lane.window.toldRate() === undefined ? 0 : (lane.window.limit ?? 0);
		return lane.flight.limit(lane.rate.rate(now), now, AUTO_IN_FLIGHT.max, told);
	}

	private take(name: string, lane: Lane): Slot {
		const now = this.now();
		lane.sent++;
		lane.rate.onSend(now);
		lane.window.onSend(lane.sent, now);
		lane.flight.start(lane.sent, now);
		this.lastActivity = now;
		return { lane: name, ticket: lane.sent, sentAt: now };
	}

	/** Gives a slot back, with what its answer said of the quota (nothing for a failure without an answer) and how the call ended. */
	settle(slot: Slot, window?: RateWindow, outcome: CallOutcome = window ? 'answered' : 'failed'): void {
		const lane = this.lane(slot.lane);
		const now = Math.max(this.now(), slot.sentAt);
		this.lastActivity = now;
		lane.flight.end(slot.ticket, now, outcome === 'answered');
		if (outcome === 'refused') {
			lane.window.onRefused(slot.ticket);
			lane.refusedInTail = lane.tail !== undefined && slot.sentAt >= lane.tail.from && slot.sentAt < lane.tail.until;
			// In the last second of a longer delay, the window has not ended: no cut. Within a short delay, it cuts as any refusal.
			if (!lane.refusedInTail || lane.tail?.withinDelay) lane.rate.onRefused(slot.sentAt, now);
		}
		if (window) {
			if (lane.window.learn(window, slot.ticket)) lane.rate.onRoom(now);
			lane.rate.setCeiling(lane.window.toldRate(), lane.window.exact && lane.window.alone ? lane.window.windowMs : undefined);
		}
		this.wakeWaiters();
	}

	/**
	 * A call on `laneName` was refused for `delayMs`; returns its own wait: the delay and a small jitter that keeps
	 * the refused clients apart (it never goes before the server said). The lane:
	 * - with exact window ends told, is held for all of it;
	 * - otherwise (whole seconds, or an HTTP date) the window ends within the delay's last second: the lane is held
	 *   until then, and its calls go on at the rate the refusal cut. Holding all of a `Retry-After: 1`: 1.21 × for
	 *   1.15 × (one process, virtual time); holding all of a date's delay, which rounds the end up to the next second:
	 *   1.27 × on the real sandbox where seconds gave 1.14 ×.
	 * - A call refused in that last second shows the window has not ended: it cuts nothing, and the lane holds
	 *   half of what is left. Holding the rest at once: 1.20 × for 1.10 × with 5 s windows (`Retry-After` alone).
	 * - Within a delay of at most that second, the lane is held until the refusing window ends if our oldest call
	 *   since opened it (endIfOpenedByOurs), never past the delay, and each refusal in it cuts (not cutting: three
	 *   processes at 0.2 s over 1.35 × on virtual time). Calls in between were refused too: three processes on
	 *   virtual time, told quota without exact ends, 8.9 % → 6.8 % answered 429, 1.164 × → 1.143 ×.
	 */
	refused(delayMs: number, laneName: string): number {
		const delay = Math.max(0, delayMs);
		const lane = this.lane(laneName);
		const wait = delay + Math.round(this.random() * Math.min(JITTER.maxMs, JITTER.share * delay + JITTER.minMs));
		lane.rate.onCrowdingEnds(this.now() + delay);
		const precision = lane.window.exact ? 0 : DELAY_PRECISION_MS;
		const now = this.now();
		let until: number;
		const opened = lane.window.endIfOpenedByOurs(now) ?? now;
		// A longer delay than the short one whose time it fell in is a new pause, not a step within that time.
		if (lane.refusedInTail && lane.tail && !(lane.tail.withinDelay && delay > precision)) {
			const left = lane.tail.until - now;
			until = lane.tail.withinDelay ? Math.min(opened, lane.tail.until) : now + (left <= TAIL_STEP_MIN_MS ? left : left / 2);
		} else if (delay <= precision) {
			until = Math.min(opened, now + delay);
			lane.tail = { from: now, until: now + delay, withinDelay: true };
		} else {
			until = now + wait - precision;
			lane.tail = { from: until, until: now + wait };
		}
		lane.pausedUntil = Math.max(lane.pausedUntil, until);
		this.wakeWaiters();
		return wait;
	}

	private wakeWaiters(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const w of waiters) w();
	}

	/** What the pacer knows of a lane (for error messages and the node's hint). */
	report(laneName: string): LaneReport {
		const lane = this.lane(laneName);
		const now = this.now();
		const rate = lane.rate.report(now);
		return {
			limit: lane.window.limit,
			windowMs: lane.window.windowMs,
			rate: Math.round(rate.rate * 10) / 10,
			allowedRate: rate.allowed === undefined ? undefined : Math.round(rate.allowed * 10) / 10,
			latencyMs: lane.flight.latencyMs,
			inFlightLimit: this.inFlightLimit(lane, now),
			peakInFlight: lane.flight.peak,
		};
	}
}
