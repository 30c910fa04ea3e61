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
 * What the pacer knows of the quota of one lane.
 * - `window` (the answers give the limit and the reset time): the calls sent
 *   after `base` count against it, plus `external`, the calls the answers show
 *   that this client did not send (another run on the same key). Exact when
 *   nobody else uses the key, whatever order the calls are counted in. Without
 *   `resetAt`, a window that began when the previous one ended, its end not
 *   known yet.
 * - `count` (no reset time): `remaining` as counted for the call `ticket`.
 */
type Estimate =
	| { kind: 'window'; limit: number; base: number; external: number; resetAt?: number }
	| { kind: 'count'; remaining: number; ticket: number };

/** One quota: the calls of one operation (the service counts per endpoint). */
interface Lane {
	limit?: number;
	estimate?: Estimate;
	/** Tickets given so far. */
	sent: number;
	/** Slots taken and not yet settled. */
	inFlight: number;
	/** When the recent tickets were given: [ticket, time], oldest first (those of past windows are dropped). */
	sendTimes: Array<[number, number]>;
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
			lane = { sent: 0, inFlight: 0, sendTimes: [] };
			this.lanes.set(name, lane);
		}
		return lane;
	}

	/** Calls the quota still allows now. */
	private allowance(lane: Lane): number {
		const e = lane.estimate;
		if (e === undefined) return Infinity;
		return e.kind === 'window' ? e.limit - (lane.sent - e.base) - e.external : e.remaining - (lane.sent - e.ticket);
	}

	/** The window ended: a full one starts (when the limit is known), counting the calls sent after `base`. */
	private rollOver(lane: Lane, base = lane.sent): void {
		lane.estimate = lane.limit === undefined ? undefined : { kind: 'window', limit: lane.limit, base, external: 0 };
		while (lane.sendTimes.length > 0 && lane.sendTimes[0][0] <= base) lane.sendTimes.shift();
	}

	/** The last ticket given before `time` (the calls of a window that ended then). */
	private ticketsBefore(lane: Lane, time: number): number {
		let last = lane.sendTimes.length > 0 ? lane.sendTimes[0][0] - 1 : lane.sent;
		for (const [ticket, at] of lane.sendTimes) {
			if (at >= time) return last;
			last = ticket;
		}
		return lane.sent;
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
				if (e && (e.kind === 'count' || (e.resetAt !== undefined && e.resetAt <= target))) this.rollOver(lane);
				continue;
			}
			const e = lane.estimate;
			if (e?.kind === 'window' && e.resetAt !== undefined && now >= e.resetAt) this.rollOver(lane);
			if (this.allowance(lane) > 0) return this.take(laneName, lane);
			const resetAt = lane.estimate?.kind === 'window' ? lane.estimate.resetAt : undefined;
			if (resetAt !== undefined) {
				if (resetAt - now > maxWaitMs) return this.take(laneName, lane);
				await this.sleep(resetAt - now);
				// The wait is the proof that the window ended, whatever the clock says.
				const after = lane.estimate;
				if (after?.kind === 'window' && after.resetAt === resetAt) this.rollOver(lane);
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
		lane.sendTimes.push([lane.sent, this.now()]);
		// Bounded: a lane that never learns a window keeps only the recent tickets.
		if (lane.sendTimes.length > 1_000) lane.sendTimes.shift();
		return { lane: name, ticket: lane.sent };
	}

	/** Gives a slot back, with what its answer said of the quota (nothing for a failure without an answer). */
	settle(slot: Slot, window?: RateWindow): void {
		const lane = this.lane(slot.lane);
		lane.inFlight = Math.max(0, lane.inFlight - 1);
		if (window?.limit !== undefined) lane.limit = window.limit;
		if (window?.remaining !== undefined) this.learn(lane, slot.ticket, window.remaining, window.resetAt);
		this.wake();
	}

	private learn(lane: Lane, ticket: number, remaining: number, resetAt: number | undefined): void {
		const known = lane.estimate;
		const limit = lane.limit;
		if (resetAt === undefined || limit === undefined) {
			// No window identity: the call counted last knows best, or the more careful count is kept.
			const fresh: Estimate = { kind: 'count', remaining, ticket };
			if (known?.kind === 'window') {
				if (limit !== undefined) this.noteUsed(known, lane, limit - remaining);
				return;
			}
			if (!known || ticket > known.ticket || remaining - (lane.sent - ticket) < this.allowance(lane)) lane.estimate = fresh;
			return;
		}
		const now = this.now();
		if (resetAt <= now) {
			// The window this call was counted in ended at `resetAt`: a new one began then, and the calls sent since count against it.
			if (known?.kind === 'window' && known.resetAt !== undefined && known.resetAt > now) return;
			const base = this.ticketsBefore(lane, resetAt);
			if (known === undefined || known.kind === 'count' || base > known.base) this.rollOver(lane, base);
			return;
		}
		let e: Estimate;
		if (known === undefined || known.kind === 'count') {
			// A first window: every call sent so far may count against it.
			e = { kind: 'window', limit, base: known === undefined ? 0 : Math.min(known.ticket, ticket - 1), external: 0, resetAt };
		} else if (known.resetAt === undefined) {
			// A window rolled into: its end is now known (a call sent before the roll, counted in it, moves its start back).
			e = { ...known, limit, resetAt, base: Math.min(known.base, ticket - 1) };
		} else if (resetAt > known.resetAt + 50) {
			// A later window than the known one: it began when the known one ended.
			e = { kind: 'window', limit, base: Math.min(ticket - 1, this.ticketsBefore(lane, known.resetAt)), external: 0, resetAt };
		} else if (resetAt < known.resetAt - 50) {
			return;
		} else {
			// The same window (reset times may be rounded).
			e = known;
		}
		lane.estimate = e;
		this.noteUsed(e, lane, limit - remaining);
	}

	/** `used` calls were counted in the window when an answer came: more than this client sent there is someone else's. */
	private noteUsed(e: Estimate & { kind: 'window' }, lane: Lane, used: number): void {
		e.external = Math.max(e.external, used - (lane.sent - e.base));
	}

	/** The server refused a call for now: no call starts for `delayMs`. */
	pause(delayMs: number): void {
		const until = this.now() + Math.max(0, delayMs);
		if (until > this.pausedUntil) this.pausedUntil = until;
		this.wake();
	}
}
