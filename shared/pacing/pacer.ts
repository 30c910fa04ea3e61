/**
 * One pacing for every call on one API key (in n8n: every run of a process on that key and base URL, through
 * the adapter's registry), so that calls in flight together respect the service's quota as one.
 *
 * The principle: **more information never makes it slower.** Refusals alone (a 429 and its delay) are enough
 * to pace; what the answers tell of the quota only bounds that pacing where it is known, and a missing piece
 * (no reset, no window length) is unknown, never waited for. The parts, one job each:
 * - lane.ts: one operation's parts below, and what each call, answer and refusal does to them;
 * - rate-controller.ts: the rate (a token bucket) found from the refusals, grown with time;
 * - quota-window.ts: what the answers say of the quota, as a ceiling on that rate and a hold until an exact
 *   window end; room-signal.ts: whether they show the key had room;
 * - refusal-hold.ts: how long a refusal holds the lane, and whether it cuts the rate;
 * - silent-window.ts: where a window ends, learned from refusals, for a 429 that gives no delay;
 * - in-flight.ts: the calls in flight, from rate × latency (Little's law), within a cap;
 * - turnstile.ts: the executions sharing the key take turns, round robin;
 * - registry.ts: one pacing per key, shared by every run on it;
 * - server-clock.ts: the server's clock from its answers' `Date`, to read its dates on.
 * Across processes (queue-mode workers, a zap beside a workflow) nothing is shared but the server: its
 * refusals cut each client's rate, and its counts (which include the others' calls) hold each client's sending.
 *
 * Pure: the clock, the wait and the random source are injected; the only other wait is a promise settled by
 * another call's answer. Every slot taken by `acquire` must be given back once by `settle`.
 */
import { Lane, type CallOutcome } from './lane';
import type { RateWindow } from './rate-window';
import type { RateControllerOptions } from './rate-controller';
import { ServerClock } from './server-clock';
import type { SilentDelay } from './silent-window';
import { Turnstile } from './turnstile';
import type { LaneReport } from './lane-report';
import type { Sleep } from '../base';

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

/** The jitter after a refusal: small (the refused come back at the instants their refusals reached them), it keeps them apart without idling the key. */
export const JITTER = { share: 0.05, minMs: 20, maxMs: 250 };

/** What a refusal's delay is known to be (Pacer.refused). */
export interface RefusedOptions {
	/** Learned from refusals that said nothing (silent-window.ts): the window was seen to end there. */
	learned?: boolean;
	/** The window ends within this time before the delay runs out (rate-fields.ts's RetryDelay): 0 when told to the millisecond; undefined when the server told no delay (a guess, held as whole seconds). */
	precisionMs?: number;
	/** The delay's end lies within its precision for good (rate-fields.ts's RetryDelay): the window's end it tells shows the window's length (lane.ts). */
	settled?: boolean;
}

/** Thrown by `acquire` when a pause lasts longer than the caller may wait. */
export class PauseTooLong extends Error {
	constructor(readonly waitMs: number) {
		super(`the service asked every call to wait ${waitMs} ms`);
	}
}

export class Pacer {
	private readonly sleep: Sleep;
	private readonly now: () => number;
	private readonly random: () => number;
	private readonly rateOptions: Partial<RateControllerOptions>;
	private readonly lanes = new Map<string, Lane>();
	private readonly turnstile = new Turnstile();
	/** The key's server's clock: its answers' dates are read on it (rate-fields.ts in client/). */
	readonly serverClock = new ServerClock();
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
			lane = new Lane(this.now(), this.rateOptions);
			this.lanes.set(name, lane);
		}
		return lane;
	}

	/** True when nothing is in flight or waiting and nothing happened for `idleMs` (the registry may drop it). */
	idleFor(idleMs: number): boolean {
		const now = this.now();
		if (now - this.lastActivity < idleMs || this.turnstile.busy) return false;
		for (const lane of this.lanes.values()) if (lane.busy(now)) return false;
		return true;
	}

	/** Time left in the pause a refusal set on a lane (0 when none). */
	pauseLeft(laneName: string): number {
		return Math.max(0, (this.lanes.get(laneName)?.pausedUntil ?? 0) - this.now());
	}

	/** Whether the quota let a call of `laneName` through (an answer, not a refusal) after `since`: the lane moves. */
	answeredSince(laneName: string, since: number): boolean {
		return (this.lanes.get(laneName)?.flight.lastAnsweredAt ?? -Infinity) > since;
	}

	/** The delay a 429 that gives none stands for, for the call of `laneName` sent at `sentAt` (silent-window.ts); undefined before any call was let through. */
	silentDelay(laneName: string, sentAt: number): SilentDelay | undefined {
		return this.lanes.get(laneName)?.silent.delay(this.now(), sentAt);
	}

	/**
	 * Waits until a call on `lane` may be sent, and takes its slot. Callers of different parties are served
	 * round robin. A pause after a refusal is always waited, unless it is longer than `maxWaitMs` (then
	 * PauseTooLong: nothing may be sent). A hold for the quota's window longer than `maxWaitMs` is not taken:
	 * the call goes, and the server decides.
	 */
	async acquire(laneName: string, options: AcquireOptions | number = {}): Promise<Slot> {
		const opts = typeof options === 'number' ? { maxWaitMs: options } : options;
		await this.turnstile.enter(laneName, opts.party ?? '', opts.waitedUntil !== undefined);
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
				lane.pauseEnded(paused);
				continue;
			}
			// The window is spent (or our share of it went) and the answers on their way tell its exact end and what is
			// left: waited for, not foretold.
			if (lane.flight.count > 0 && lane.window.spentUntilTold(now, lane.flight.latencyMs)) {
				await new Promise<void>((resolve) => this.waiters.push(resolve));
				continue;
			}
			const hold = lane.window.holdUntil(now, lane.flight.latencyMs);
			if (hold !== undefined && hold - now <= maxWaitMs) {
				await (lane.flight.count > 0 ? waitUntilAnswerOr(hold, now) : waitUntil(hold, now));
				lane.shareNext(Math.max(this.now(), waited), false);
				continue;
			}
			lane.shareNext(now, true);
			if (lane.flight.count >= lane.inFlightLimit(now)) {
				await new Promise<void>((resolve) => this.waiters.push(resolve));
				continue;
			}
			const at = lane.flight.count === 0 && !lane.rate.pacesLoneCalls() ? now : lane.rate.nextSendAt(now);
			if (at > now && at - now <= maxWaitMs) {
				await waitUntil(at, now);
				continue;
			}
			const sentAt = this.now();
			this.lastActivity = sentAt;
			return { lane: laneName, ticket: lane.take(sentAt), sentAt };
		}
	}

	/** Gives a slot back, with what its answer said of the quota (nothing for a failure without an answer) and how the call ended. */
	settle(slot: Slot, window?: RateWindow, outcome: CallOutcome = window ? 'answered' : 'failed'): void {
		const now = Math.max(this.now(), slot.sentAt);
		this.lastActivity = now;
		this.lane(slot.lane).ended(slot.ticket, slot.sentAt, now, window, outcome);
		this.wakeWaiters();
	}

	/**
	 * A call on `laneName` was refused for `delayMs`; returns its own wait: the delay and a small jitter that keeps
	 * the refused clients apart (it never goes before the server said). The lane is held for all of the delay when
	 * the answers tell exact window ends, otherwise as refusal-hold.ts says (until the delay's last second, or the
	 * refusing window's end), and its calls go on at the rate the refusal cut.
	 */
	refused(delayMs: number, laneName: string, { learned = false, precisionMs, settled = false }: RefusedOptions = {}): number {
		const delay = Math.max(0, delayMs);
		const wait = delay + Math.round(this.random() * Math.min(JITTER.maxMs, JITTER.share * delay + JITTER.minMs));
		this.lane(laneName).refused({ now: this.now(), delay, wait, learned, precisionMs, settled });
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
		return this.lane(laneName).report(this.now());
	}
}
