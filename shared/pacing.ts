/**
 * One pacing for every call of a client (in n8n: of a whole run), so that
 * calls in flight together respect the service's quota as one:
 *
 * - a refusal (429, WORKFLOW_BUSY) pauses every call for the server's delay,
 *   instead of each call retrying on its own;
 * - the rate-limit headers (limit, remaining, reset) of each answer are read,
 *   and calls are held before the quota runs out, not after a 429;
 * - without any header it lets every call through and only the refusals
 *   pause it.
 *
 * Pure: the clock and the wait are injected; the only other wait is a promise
 * settled by another call's answer. Every slot taken by `acquire` must be
 * given back once by `settle` (with the answer's headers, if any).
 */
import type { Sleep } from './transport';

/** What an answer says of the quota, read from its headers (see readRateLimit in response.ts). */
export interface RateWindow {
	/** Calls allowed per window. */
	limit?: number;
	/** Calls left in the window when this call was counted. */
	remaining?: number;
	/** When the window ends (ms, on the pacer's clock). */
	resetAt?: number;
}

/** A permission to send one call; give it back with `settle`. */
export interface Slot {
	readonly lane: string;
	/** 1-based order of the call among those sent on its lane. */
	readonly ticket: number;
}

export interface PacerOptions {
	sleep: Sleep;
	now: () => number;
}

/**
 * What the pacer knows of one window: `remaining` as counted for the call
 * `ticket`, so the calls sent after it count against it. A rolled estimate
 * stands for a window that began when the previous one ended (full, its end
 * unknown until an answer tells it).
 */
interface Estimate {
	remaining: number;
	ticket: number;
	resetAt?: number;
	rolled?: boolean;
}

/** One quota: the calls of one operation (the service counts per endpoint). */
interface Lane {
	limit?: number;
	estimate?: Estimate;
	/** Tickets given so far. */
	sent: number;
	/** Slots taken and not yet settled. */
	inFlight: number;
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
	private readonly lanes = new Map<string, Lane>();
	/** No call starts before this time (the server's delay after a refusal). */
	private pausedUntil = 0;
	/** Callers waiting for an answer that may free the quota. */
	private waiters: Array<() => void> = [];

	constructor(options: PacerOptions) {
		this.sleep = options.sleep;
		this.now = options.now;
	}

	private lane(name: string): Lane {
		let lane = this.lanes.get(name);
		if (!lane) {
			lane = { sent: 0, inFlight: 0 };
			this.lanes.set(name, lane);
		}
		return lane;
	}

	/** Calls the window still allows, counting the calls sent after the one the estimate came from. */
	private allowance(lane: Lane): number {
		const e = lane.estimate;
		return e === undefined ? Infinity : e.remaining - (lane.sent - e.ticket);
	}

	/** The window ended: a full one starts (when the limit is known), counting the calls sent after `ticket`. */
	private rollOver(lane: Lane, ticket = lane.sent): void {
		lane.estimate = lane.limit === undefined ? undefined : { remaining: lane.limit, ticket, rolled: true };
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const w of waiters) w();
	}

	private nextAnswer(): Promise<void> {
		return new Promise<void>((resolve) => this.waiters.push(resolve));
	}

	/** Time left in the pause set by a refusal (0 when none). */
	pauseLeft(): number {
		return Math.max(0, this.pausedUntil - this.now());
	}

	/**
	 * Waits until a call on `lane` may be sent, and takes its slot. A pause
	 * after a refusal is always waited, unless it is longer than `maxWaitMs`
	 * (then PauseTooLong: nothing may be sent). A wait for the quota's window
	 * longer than `maxWaitMs` is not taken: the call goes, and the server decides.
	 */
	async acquire(laneName: string, maxWaitMs = Infinity): Promise<Slot> {
		const lane = this.lane(laneName);
		// The pause this caller has already waited out (with a clock that did not move, one wait is enough).
		let served = 0;
		for (;;) {
			const now = this.now();
			if (this.pausedUntil > now && this.pausedUntil > served) {
				const target = this.pausedUntil;
				if (target - now > maxWaitMs) throw new PauseTooLong(target - now);
				await this.sleep(target - now);
				served = target;
				// The pause is over for everyone (with a clock that did not move, the next callers must not wait it again).
				if (this.pausedUntil === target) this.pausedUntil = 0;
				// The server's delay covers the window that refused the call.
				const e = lane.estimate;
				if (e && !e.rolled && (e.resetAt === undefined || e.resetAt <= target)) this.rollOver(lane);
				continue;
			}
			const e = lane.estimate;
			if (e?.resetAt !== undefined && now >= e.resetAt) this.rollOver(lane);
			if (this.allowance(lane) > 0) return this.take(laneName, lane);
			const resetAt = lane.estimate?.resetAt;
			if (resetAt !== undefined) {
				if (resetAt - now > maxWaitMs) return this.take(laneName, lane);
				await this.sleep(resetAt - now);
				// The wait is the proof that the window ended, whatever the clock says.
				if (lane.estimate?.resetAt === resetAt) this.rollOver(lane);
				continue;
			}
			// The quota is spent and its end unknown: the answers of the calls in flight will tell.
			if (lane.inFlight > 0) {
				await this.nextAnswer();
				continue;
			}
			// Nothing in flight to learn from: send, and let the server refuse with its delay.
			return this.take(laneName, lane);
		}
	}

	private take(name: string, lane: Lane): Slot {
		lane.sent++;
		lane.inFlight++;
		return { lane: name, ticket: lane.sent };
	}

	/** Gives a slot back, with what its answer said of the quota (nothing for a failure without an answer). */
	settle(slot: Slot, window?: RateWindow): void {
		const lane = this.lane(slot.lane);
		lane.inFlight = Math.max(0, lane.inFlight - 1);
		if (window?.limit !== undefined) lane.limit = window.limit;
		if (window?.remaining !== undefined) this.learn(lane, { remaining: window.remaining, ticket: slot.ticket, resetAt: window.resetAt });
		this.wake();
	}

	private learn(lane: Lane, fresh: Estimate): void {
		const now = this.now();
		const known = lane.estimate;
		if (known === undefined) {
			lane.estimate = fresh;
			return;
		}
		if (fresh.resetAt !== undefined && fresh.resetAt <= now) {
			// The window this call was counted in is over. When the call was sent after the known estimate began, that window
			// is the known one: a new one began, and the calls sent after this one count against it.
			if (known.resetAt !== undefined && known.resetAt > now) return;
			if (fresh.ticket > known.ticket) this.rollOver(lane, fresh.ticket);
			return;
		}
		// A call sent before the current window began says nothing of it.
		if (known.rolled && fresh.ticket <= known.ticket) return;
		if (known.resetAt !== undefined && fresh.resetAt !== undefined) {
			// A later window replaces the estimate; within 50 ms it is the same window (reset times may be rounded): keep the more careful.
			if (fresh.resetAt > known.resetAt + 50) lane.estimate = fresh;
			else if (fresh.resetAt >= known.resetAt - 50 && this.allowanceOf(lane, fresh) < this.allowance(lane)) lane.estimate = fresh;
			return;
		}
		// Otherwise the call counted last knows best, or the more careful estimate is kept.
		if (fresh.ticket > known.ticket || this.allowanceOf(lane, fresh) < this.allowance(lane)) lane.estimate = fresh;
	}

	private allowanceOf(lane: Lane, e: Estimate): number {
		return e.remaining - (lane.sent - e.ticket);
	}

	/** The server refused a call for now: no call starts for `delayMs`. */
	pause(delayMs: number): void {
		const until = this.now() + Math.max(0, delayMs);
		if (until > this.pausedUntil) this.pausedUntil = until;
		this.wake();
	}
}
