/**
 * One pacing for every call on one API key (in n8n: every run of a process
 * on that key and base URL, through the adapter's registry), so that calls in
 * flight together respect the service's quota as one:
 *
 * - a refusal (429, WORKFLOW_BUSY) pauses every call for the server's delay,
 *   plus a jitter that spreads the clients of the key over the window;
 * - the rate-limit headers (limit, remaining, reset; or the IETF policy's
 *   quota and window) of each answer are read, and calls are held before the
 *   quota runs out, not after a 429;
 * - the calls the answers show that this client did not send (another
 *   process, a Zapier zap, a queue-mode worker on the same key) count against
 *   its sending, and once others are seen it takes a share of the window
 *   (additive increase, multiplicative decrease), spread over the window;
 * - the calls in flight are sized automatically: from the quota and the
 *   measured latency when the answers tell the quota (Little's law), else by
 *   AIMD (grow while no refusal comes, halve on a refusal);
 * - callers of several parties (the executions sharing the key) are served
 *   round robin, so that a 1-item run is not stuck behind a 500-item run.
 *
 * Pure: the clock, the wait and the random source are injected; the only
 * other wait is a promise settled by another call's answer. Every slot taken
 * by `acquire` must be given back once by `settle`.
 */
import type { Sleep } from './transport';

/** What an answer says of the quota, read from its headers (see readRateLimit in response.ts). */
export interface RateWindow {
	/** Calls allowed per window. */
	limit?: number;
	/** Calls left in the window when this call was counted. */
	remaining?: number;
	/** When the window ends (ms, on the pacer's clock). Only when the answer tells it to the millisecond or the second as a date. */
	resetAt?: number;
	/** The window's length (ms), when the answer states it (IETF `RateLimit-Policy`: `w`). */
	windowMs?: number;
}

/** How a call ended, for the pacing: answered (any status but a refusal), refused (429, WORKFLOW_BUSY: not carried out), or no answer. */
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
}

export interface AcquireOptions {
	/** Who asks (an execution): waiting parties are served round robin. Default: one party. */
	party?: string;
	/** Longest wait for a refusal's pause this caller accepts (a pause longer than this: PauseTooLong). */
	maxWaitMs?: number;
}

/** Bounds of the automatic sizing of the calls in flight, per lane. */
export const AUTO_IN_FLIGHT = {
	/** Calls sent at once before any answer has told anything. */
	initial: 3,
	/**
	 * While no answer has come, the calls in flight may double this often (growing a call at a time): a
	 * slow answer (an AI model takes seconds) is no reason to send one by one,
	 * and a refusal comes back at once with the quota.
	 */
	slowStartStepMs: 250,
	/** Never more calls in flight on one lane, whatever the quota allows (memory and connections). */
	max: 128,
	/** Headroom over Little's law (rate × latency). */
	headroom: 1.25,
};

/** Share of the window taken when others are first seen on the key, and the decrease on a refusal while sharing. */
const SHARE_START = 0.5;
const SHARE_DECREASE = 0.9;
/** The window's calls the clients of a key aim at together: a little below the limit, so that the jitter of their spread calls is rarely refused. */
const SHARE_SLACK = 1;
/** The calls in flight after a refusal, without rate-limit headers (0.7 as CUBIC: less of a sawtooth than halving). */
const AIMD_DECREASE = 0.7;
/**
 * Never fewer calls in flight after a refusal (TCP's floor of 2 segments, RFC 5681): a client cut to one call
 * per round trip while others fill the window climbs back one call per round trip once they are done, and the
 * key idles meanwhile (S6 with `Retry-After` only, on virtual time: 1.28 × the quota-bound limit on average,
 * 1.36 × at worst over 24 seeds with a floor of 1; 1.22 × and 1.22 × with 2 and the shorter jitter below).
 */
const AIMD_FLOOR = 2;
/**
 * A refusal, the server's delay and the calls refused on coming back are one crowding of the key: the calls
 * in flight are cut at most once in this many round trips (cutting again for each refusal of the same
 * crowding sends every client of the key down to one call in flight, and then they climb back one per round trip).
 */
const CUT_EVERY_ROUND_TRIPS = 2;
/**
 * How the count of clients on the key follows what the windows show: the weight of the old count when fewer
 * are seen (a client that finished leaves its share to the others within a window or two) and when more are
 * seen (a newcomer is let in more carefully, since a busy window over-counts).
 */
const CLIENTS_KEEP_FEWER = 0.25;
const CLIENTS_KEEP_MORE = 0.5;
/** Fewer than this many clients measured: the others are gone, and the whole window is taken at once. */
const ALONE_BELOW = 1.1;

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
	| {
			kind: 'window';
			limit: number;
			base: number;
			external: number;
			resetAt?: number;
			/** resetAt foretold from the window's length (from the end of the window before, `from`), not yet told by an answer. */
			predicted?: boolean;
			from?: number;
	  }
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
	/** The window's length: stated (IETF) or the longest span seen from a send to its window's end. */
	windowMs?: number;
	windowStated: boolean;
	/** Our calls of the last window, not refused: [ticket, time], oldest first (a sliding log, at most limit + in flight). */
	recent: Array<[number, number]>;
	/** Time of the last call given. */
	lastSentAt: number;
	/** When the first call was given (slow start). */
	firstSentAt?: number;
	/** Any answer or refusal heard (ends the time-driven slow start). */
	heard: boolean;
	/** The calls in flight: ticket → time sent. */
	flying: Map<number, number>;
	/** Mean latency of the answered calls (ms, moving average). */
	latencyMs?: number;
	/** Calls in flight allowed without rate-limit headers (AIMD), and the threshold where slow start ends. */
	cwnd: number;
	ssthresh: number;
	/** The last decrease (AIMD or share), and the last time the share was sized. */
	lastCutAt: number;
	lastShareAt: number;
	/** The last time an answer showed calls of other clients on the key. */
	othersSeenAt?: number;
	/** Calls per window this client takes while others use the key (undefined: the whole window). */
	share?: number;
	/** The used counts of the recent answers: [time, used, 1 when the call was ours and counted], for the clients on the key. */
	used: Array<[number, number, number]>;
	/** How many clients use the key, as the recent windows show (moving average). */
	clients?: number;
	/** Answers that said anything of the quota. */
	informed: boolean;
	/** No call starts before this time (the server's delay after a refusal on this lane). */
	pausedUntil: number;
	/** The answers give the window's end to the millisecond: the fixed-window estimate is exact, no sliding window needed while alone. */
	exactReset: boolean;
	/** For the window's length: the longest span from a send to its window's end, the latest reset, the least gap between resets. */
	spanMs?: number;
	/** A longer span read off a refusal while alone: the full window began no later than our limit-th last call counted in it (used until two resets tell the gap). */
	fullSpanMs?: number;
	lastReset?: number;
	gapMs?: number;
	/** How much later than foretold the windows ended (ms). */
	lateMs: number;
}

/** Thrown by `acquire` when a pause lasts longer than the caller may wait. */
export class PauseTooLong extends Error {
	readonly waitMs: number;
	constructor(waitMs: number) {
		super(`the service asked every call to wait ${waitMs} ms`);
		this.waitMs = waitMs;
	}
}

/** The round-robin queue of one lane: one caller at a time is at the head and waits for its slot. */
interface Turnstile {
	busy: boolean;
	/** The party of the caller at the head. */
	head: string;
	queues: Map<string, Array<() => void>>;
	/** Parties in order of arrival; `next` is the index served next. */
	order: string[];
	next: number;
}

/** What the pacer tells of a lane, for messages and hints. */
export interface LaneReport {
	limit?: number;
	windowMs?: number;
	/** Calls per window taken while others use the key. */
	share?: number;
	othersSeen: boolean;
	latencyMs?: number;
	/** Calls in flight allowed now. */
	inFlightLimit: number;
	/** Most calls in flight at once so far. */
	peakInFlight: number;
}

export class Pacer {
	private readonly sleep: Sleep;
	private readonly now: () => number;
	private readonly random: () => number;
	private readonly lanes = new Map<string, Lane>();
	private readonly turnstiles = new Map<string, Turnstile>();
	private readonly peaks = new Map<string, number>();
	/** No call starts before this time (the server's delay after a refusal). */
	private pausedUntil = 0;
	/** Callers waiting for an answer that may free the quota. */
	private waiters: Array<() => void> = [];
	/** Last time a call was given or settled (for the registry's idle rule). */
	private lastActivity: number;

	constructor(options: PacerOptions) {
		this.sleep = options.sleep;
		this.now = options.now;
		this.random = options.random ?? Math.random;
		this.lastActivity = this.now();
	}

	private lane(name: string): Lane {
		let lane = this.lanes.get(name);
		if (!lane) {
			lane = {
				sent: 0,
				inFlight: 0,
				sendTimes: [],
				windowStated: false,
				recent: [],
				lastSentAt: -Infinity,
				heard: false,
				flying: new Map(),
				cwnd: AUTO_IN_FLIGHT.initial,
				ssthresh: Infinity,
				lastCutAt: -Infinity,
				lastShareAt: -Infinity,
				used: [],
				informed: false,
				pausedUntil: 0,
				exactReset: false,
				lateMs: 0,
			};
			this.lanes.set(name, lane);
		}
		return lane;
	}

	/** True when nothing is in flight or waiting and nothing happened for `idleMs` (the registry may drop it). */
	idleFor(idleMs: number): boolean {
		if (this.now() - this.lastActivity < idleMs || this.pausedUntil > this.now()) return false;
		for (const lane of this.lanes.values()) if (lane.inFlight > 0 || lane.pausedUntil > this.now()) return false;
		for (const t of this.turnstiles.values()) if (t.busy) return false;
		return true;
	}

	/** Calls the quota still allows now. */
	private allowance(lane: Lane): number {
		const e = lane.estimate;
		if (e === undefined) return Infinity;
		return e.kind === 'window' ? e.limit - (lane.sent - e.base) - e.external : e.remaining - (lane.sent - e.ticket);
	}

	/**
	 * The window ended (at `endedAt`, when known): a full one starts (when the limit is known), counting
	 * the calls sent after `base`. With the window's length known, its end is foretold, so that a quota
	 * spent before any answer came back (slow calls) is not waited on for those answers.
	 */
	private rollOver(lane: Lane, base = lane.sent, endedAt?: number): void {
		if (lane.limit === undefined) {
			lane.estimate = undefined;
		} else {
			const e: Estimate = { kind: 'window', limit: lane.limit, base, external: 0 };
			const w = lane.windowMs;
			if (endedAt !== undefined && w !== undefined && w > 0 && lane.exactReset) {
				e.resetAt = this.foretell(lane, endedAt, w);
				e.predicted = true;
				e.from = endedAt;
			}
			lane.estimate = e;
		}
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

	/** Time left in the pause set by a refusal (0 when none), on a lane or on all. */
	pauseLeft(laneName?: string): number {
		const lane = laneName === undefined ? undefined : this.lanes.get(laneName);
		return Math.max(0, (lane ? this.pauseOf(lane) : this.pausedUntil) - this.now());
	}

	/** No call of this lane starts before this time (a refusal's delay on this lane). */
	private pauseOf(lane: Lane): number {
		return Math.max(this.pausedUntil, lane.pausedUntil);
	}

	/** Others used the key recently (within three windows). */
	private othersActive(lane: Lane, now: number): boolean {
		return lane.othersSeenAt !== undefined && now - lane.othersSeenAt <= 3 * (lane.windowMs ?? 1_000);
	}

	/** Calls per window this client may send: the whole limit alone, its share while others use the key. */
	private perWindow(lane: Lane, now: number): number | undefined {
		if (lane.limit === undefined) return undefined;
		if (!this.othersActive(lane, now)) {
			lane.share = undefined;
			return lane.limit;
		}
		return Math.max(1, Math.min(lane.limit, Math.ceil(lane.share ?? lane.limit)));
	}

	/** Calls in flight allowed now (Auto): Little's law from the quota and the latency, else AIMD. */
	private inFlightLimit(lane: Lane, now: number): number {
		const perWindow = this.perWindow(lane, now);
		if (perWindow !== undefined && lane.windowMs !== undefined) {
			let oldest = now;
			for (const at of lane.flying.values()) oldest = Math.min(oldest, at);
			// The latency: measured, or at least the age of the oldest call still in flight (a slow model, not yet answered).
			const latency = Math.max(lane.latencyMs ?? 0, now - oldest);
			const little = Math.ceil((perWindow / lane.windowMs) * latency * AUTO_IN_FLIGHT.headroom);
			return clamp(little + perWindow, 1, AUTO_IN_FLIGHT.max);
		}
		if (!lane.heard && !lane.informed && lane.firstSentAt !== undefined) {
			// Nothing heard yet: double every step while the first answers are on their way, one call at a time.
			return clamp(Math.floor(lane.cwnd * this.slowStartGrowth(lane, now)), 1, AUTO_IN_FLIGHT.max);
		}
		return clamp(Math.floor(lane.cwnd), 1, AUTO_IN_FLIGHT.max);
	}

	/**
	 * How much the calls in flight have grown since the first call, before any answer: × 2 each step, smoothly, so
	 * that the calls beyond the first ones go one by one and the first refusal (which comes back at once, with the
	 * quota) stops the others. Doubling a step at a time sent them together: three clients that started together
	 * had 8–10 of them refused in the first second (S6), 3 now.
	 */
	private slowStartGrowth(lane: Lane, now: number): number {
		return 2 ** Math.min((now - (lane.firstSentAt ?? now)) / AUTO_IN_FLIGHT.slowStartStepMs, 10);
	}

	/** Keeps our recent calls as long as an answer may still need them (a window plus twice the latency), and the recent used counts. */
	private pruneRecent(lane: Lane, now: number): void {
		const w = lane.windowMs ?? 1_000;
		const keep = w + this.margin(lane) + 2 * (lane.latencyMs ?? 0) + 1_000;
		// A call still in flight stays: its answer (and those of the calls after it) will need it.
		while (lane.recent.length > 0 && lane.recent[0][1] < now - keep && !lane.flying.has(lane.recent[0][0])) lane.recent.shift();
		if (lane.recent.length > 8 * AUTO_IN_FLIGHT.max) lane.recent.splice(0, lane.recent.length - 8 * AUTO_IN_FLIGHT.max);
		while (lane.used.length > 0 && lane.used[0][0] < now - 2 * w) lane.used.shift();
		if (lane.used.length > 4 * AUTO_IN_FLIGHT.max) lane.used.splice(0, lane.used.length - 4 * AUTO_IN_FLIGHT.max);
	}

	/** Safety margin on the sliding window: the server's clock and its window start are not ours. */
	private margin(lane: Lane): number {
		return Math.round(Math.min(250, 10 + 0.02 * (lane.windowMs ?? 0)));
	}

	/**
	 * Why a call may not go now on the sliding window (this client's own calls of the last window
	 * against its share, and spread over the window while others use the key): the time it may go,
	 * or undefined when it may go now.
	 */
	private slidingWait(lane: Lane, now: number): number | undefined {
		const perWindow = this.perWindow(lane, now);
		const w = lane.windowMs;
		if (perWindow === undefined || w === undefined) return undefined;
		// Alone with exact reset times, the fixed window of the answers is the truth (and the first window is free).
		if (lane.exactReset && !this.othersActive(lane, now)) return undefined;
		this.pruneRecent(lane, now);
		const span = w + this.margin(lane);
		const inWindow = lane.recent.filter(([, at]) => at > now - span);
		if (inWindow.length >= perWindow) return inWindow[inWindow.length - perWindow][1] + span;
		if (this.othersActive(lane, now) && lane.share !== undefined && lane.share < (lane.limit as number)) {
			// Spread over the window at the share's rate (a share may be fractional: 3.3 calls per window), so that
			// every client sees the window fill and none sends in step.
			const next = lane.lastSentAt + w / lane.share;
			if (next > now) return next;
		}
		return undefined;
	}

	/**
	 * Waits until a call on `lane` may be sent, and takes its slot. Callers of
	 * different parties are served round robin. A pause after a refusal is
	 * always waited, unless it is longer than `maxWaitMs` (then PauseTooLong:
	 * nothing may be sent). A wait for the quota's window longer than
	 * `maxWaitMs` is not taken: the call goes, and the server decides.
	 */
	async acquire(laneName: string, options: AcquireOptions | number = {}): Promise<Slot> {
		const opts = typeof options === 'number' ? { maxWaitMs: options } : options;
		const party = opts.party ?? '';
		await this.enter(laneName, party);
		try {
			return await this.acquireAtHead(laneName, opts.maxWaitMs ?? Infinity);
		} finally {
			this.leave(laneName);
		}
	}

	private enter(laneName: string, party: string): Promise<void> {
		let t = this.turnstiles.get(laneName);
		if (!t) {
			t = { busy: false, head: party, queues: new Map(), order: [], next: 0 };
			this.turnstiles.set(laneName, t);
		}
		if (!t.busy) {
			t.busy = true;
			t.head = party;
			return Promise.resolve();
		}
		let queue = t.queues.get(party);
		if (!queue) {
			queue = [];
			t.queues.set(party, queue);
			t.order.push(party);
		}
		const q = queue;
		return new Promise<void>((resolve) => q.push(resolve));
	}

	/** The head is done: the next party in turn (round robin) sends its oldest caller to the head. */
	private leave(laneName: string): void {
		const t = this.turnstiles.get(laneName);
		if (!t) return;
		// The party that was just served goes to the back of the turn: start after it.
		const served = t.order.indexOf(t.head);
		if (served >= 0 && t.order.length > 1 && t.next === served) t.next = (served + 1) % t.order.length;
		for (let tries = 0; tries < t.order.length; tries++) {
			const index = (t.next + tries) % t.order.length;
			const party = t.order[index];
			const queue = t.queues.get(party);
			const resolve = queue?.shift();
			if (!resolve) continue;
			if (queue && queue.length === 0) {
				t.queues.delete(party);
				t.order.splice(index, 1);
				t.next = t.order.length === 0 ? 0 : index % t.order.length;
			} else {
				t.next = (index + 1) % t.order.length;
			}
			t.head = party;
			resolve();
			return;
		}
		t.busy = false;
		t.order = [];
		t.next = 0;
		this.turnstiles.delete(laneName);
	}

	private async acquireAtHead(laneName: string, maxWaitMs: number): Promise<Slot> {
		const lane = this.lane(laneName);
		// The pause this caller has already waited out (with a clock that did not move, one wait is enough).
		let served = 0;
		// Likewise the sliding window's wait: once slept, that time has passed for this caller.
		let slid = -Infinity;
		for (;;) {
			const now = Math.max(this.now(), slid);
			const paused = this.pauseOf(lane);
			if (paused > now && paused > served) {
				const target = paused;
				if (target - now > maxWaitMs) throw new PauseTooLong(target - now);
				await this.sleep(target - now);
				served = target;
				// The pause is over for everyone (with a clock that did not move, the next callers must not wait it again).
				if (this.pausedUntil === target) this.pausedUntil = 0;
				if (lane.pausedUntil === target) lane.pausedUntil = 0;
				// The server's delay covers the window that refused the call.
				const e = lane.estimate;
				if (e && (e.kind === 'count' || (e.resetAt !== undefined && e.resetAt <= target))) this.rollOver(lane, lane.sent, e.kind === 'window' ? e.resetAt : undefined);
				continue;
			}
			const e = lane.estimate;
			if (e?.kind === 'window' && e.resetAt !== undefined && now >= e.resetAt) this.rollOver(lane, lane.sent, e.resetAt);
			if (this.allowance(lane) > 0) {
				// The quota allows it; this client's share of the window and the calls in flight may still hold it.
				const at = this.slidingWait(lane, now);
				if (at !== undefined) {
					if (at - now > maxWaitMs) return this.take(laneName, lane);
					await this.sleep(at - now);
					slid = at;
					continue;
				}
				if (lane.inFlight >= this.inFlightLimit(lane, now)) {
					await this.waitForAnswerOrGrowth(lane, now);
					continue;
				}
				return this.take(laneName, lane);
			}
			const resetAt = lane.estimate?.kind === 'window' ? lane.estimate.resetAt : undefined;
			if (resetAt !== undefined) {
				if (resetAt - now > maxWaitMs) return this.take(laneName, lane);
				if (lane.estimate?.kind === 'window' && lane.estimate.predicted && lane.inFlight > 0) {
					// A foretold end (a little late on purpose): the answers on their way tell the true one, often earlier.
					const slept = await Promise.race([this.sleep(resetAt - now).then(() => true), this.nextAnswer().then(() => false)]);
					if (!slept) continue;
				} else {
					await this.sleep(resetAt - now);
				}
				// The wait is the proof that the window ended, whatever the clock says.
				const after = lane.estimate;
				if (after?.kind === 'window' && after.resetAt === resetAt) this.rollOver(lane, lane.sent, resetAt);
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

	/** The calls in flight are at their limit: wait for an answer, or (before any answer) for the next slow-start step. */
	private async waitForAnswerOrGrowth(lane: Lane, now: number): Promise<void> {
		if (!lane.heard && !lane.informed && lane.firstSentAt !== undefined && lane.windowMs === undefined) {
			const grown = Math.floor(lane.cwnd * this.slowStartGrowth(lane, now));
			if (grown < AUTO_IN_FLIGHT.max && (now - lane.firstSentAt) / AUTO_IN_FLIGHT.slowStartStepMs < 10) {
				// Until the calls in flight allowed grow by one (past the most allowed, only an answer frees a slot).
				const nextStep = lane.firstSentAt + AUTO_IN_FLIGHT.slowStartStepMs * Math.log2((grown + 1) / lane.cwnd);
				await Promise.race([this.nextAnswer(), this.sleep(Math.max(1, Math.ceil(nextStep - now)))]);
				return;
			}
		}
		await this.nextAnswer();
	}

	private take(name: string, lane: Lane): Slot {
		const now = this.now();
		const e = lane.estimate;
		if (e?.kind === 'window' && e.predicted && e.from !== undefined && lane.sent === e.base && now > e.from && lane.windowMs !== undefined && !this.othersActive(lane, now)) {
			// Alone on the key, the first call since the foretold window began, and later than its start (after a pause, or
			// idle): a window that starts with its first call ends a window after this one, not after the end of the one
			// before. (With others on the key, the window may have begun with one of theirs.)
			e.from = now;
			e.resetAt = this.foretell(lane, now, lane.windowMs);
		}
		lane.sent++;
		lane.inFlight++;
		lane.sendTimes.push([lane.sent, now]);
		lane.recent.push([lane.sent, now]);
		lane.flying.set(lane.sent, now);
		lane.lastSentAt = now;
		lane.firstSentAt ??= now;
		this.lastActivity = now;
		this.pruneRecent(lane, now);
		this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, lane.inFlight));
		// Bounded: a lane that never learns a window keeps only the recent tickets.
		if (lane.sendTimes.length > 1_000) lane.sendTimes.shift();
		return { lane: name, ticket: lane.sent, sentAt: now };
	}

	/**
	 * Gives a slot back, with what its answer said of the quota (nothing for a
	 * failure without an answer) and how the call ended.
	 */
	settle(slot: Slot, window?: RateWindow, outcome: CallOutcome = window ? 'answered' : 'failed'): void {
		const lane = this.lane(slot.lane);
		const now = this.now();
		this.lastActivity = now;
		lane.inFlight = Math.max(0, lane.inFlight - 1);
		lane.flying.delete(slot.ticket);
		if (outcome !== 'failed' && !lane.heard) {
			// The first answer ends the time-driven slow start: AIMD goes on from the calls in flight it had reached.
			lane.cwnd = Math.max(lane.cwnd, this.inFlightLimit(lane, now));
			lane.heard = true;
		}
		if (window?.resetAt !== undefined) lane.exactReset = true;
		if (window?.windowMs !== undefined && window.windowMs > 0) {
			lane.windowMs = window.windowMs;
			lane.windowStated = true;
		}
		if (window?.limit !== undefined) {
			lane.limit = window.limit;
			lane.informed = true;
		}
		if (window?.resetAt !== undefined && !lane.windowStated) this.learnWindowLength(lane, slot, window.resetAt, outcome === 'refused' && window.remaining === 0);
		if (outcome === 'refused') {
			const i = lane.recent.findIndex(([t]) => t === slot.ticket);
			if (i >= 0) lane.recent.splice(i, 1);
			this.onRefusal(lane, slot, now);
		} else if (outcome === 'answered') {
			const took = now - slot.sentAt;
			lane.latencyMs = lane.latencyMs === undefined ? took : Math.round(0.8 * lane.latencyMs + 0.2 * took);
			// AIMD without headers: one more per answer in slow start, one more per round trip after.
			lane.cwnd = Math.min(AUTO_IN_FLIGHT.max, lane.cwnd < lane.ssthresh ? lane.cwnd + 1 : lane.cwnd + 1 / lane.cwnd);
		}
		if (window?.remaining !== undefined) {
			lane.informed = true;
			if (lane.limit !== undefined) this.noteOthers(lane, slot, lane.limit - window.remaining, now, outcome);
			this.learn(lane, slot.ticket, window.remaining, window.resetAt);
		}
		this.wake();
	}

	/** The end of the window that follows one ended at `endedAt`: a little late, never early (a window often starts with its first call, a little after the last one ended). */
	private foretell(lane: Lane, endedAt: number, w: number): number {
		const now = this.now();
		const margin = Math.min(w / 4, Math.max(20, 0.02 * w, 2 * lane.lateMs));
		let next = endedAt + w + margin;
		if (next <= now) next += Math.ceil((now - next + 1) / w) * w;
		return next;
	}

	/**
	 * The window's length from the reset times: at least the span from a send to the end of the window it was
	 * counted in, and at most the least gap between two reset times (fixed windows end a whole number of windows apart).
	 */
	private learnWindowLength(lane: Lane, slot: Slot, resetAt: number, full = false): void {
		if (resetAt > slot.sentAt) lane.spanMs = Math.min(3_600_000, Math.max(lane.spanMs ?? 0, resetAt - slot.sentAt));
		if (full && lane.limit !== undefined && lane.othersSeenAt === undefined) {
			// A refusal comes late in its window (from a burst), so its own span is short; alone on the key, the window it
			// found full holds our last `limit` calls before it, and began no later than the first of them.
			const before = this.oursCountedBefore(lane, slot, this.margin(lane));
			const first = before.length >= lane.limit ? before[before.length - lane.limit] : undefined;
			if (first && resetAt > first[1]) lane.fullSpanMs = Math.min(3_600_000, Math.max(lane.fullSpanMs ?? 0, resetAt - first[1]));
		}
		if (lane.lastReset !== undefined && Math.abs(resetAt - lane.lastReset) > 50) {
			const gap = Math.abs(resetAt - lane.lastReset);
			lane.gapMs = Math.min(lane.gapMs ?? Infinity, gap);
		}
		lane.lastReset = Math.max(lane.lastReset ?? resetAt, resetAt);
		const low = Math.max(lane.spanMs ?? 0, lane.gapMs === undefined ? (lane.fullSpanMs ?? 0) : 0);
		const w = lane.gapMs !== undefined && lane.gapMs >= low ? lane.gapMs : low;
		if (w > 0 && w !== lane.windowMs) {
			lane.windowMs = w;
			// A window foretold from a length now known better is foretold again.
			const e = lane.estimate;
			if (e?.kind === 'window' && e.predicted && e.from !== undefined) e.resetAt = this.foretell(lane, e.from, w);
		}
	}

	/** A refusal: cut the calls in flight to 0.7 (at most once per crowding) and, while others use the key, the share. */
	private onRefusal(lane: Lane, slot: Slot, now: number): void {
		if (slot.sentAt < lane.lastCutAt || now - lane.lastCutAt < CUT_EVERY_ROUND_TRIPS * Math.max(lane.latencyMs ?? 0, lane.windowMs ?? 1_000)) return;
		lane.ssthresh = Math.max(AIMD_FLOOR, Math.floor(lane.cwnd * AIMD_DECREASE));
		lane.cwnd = lane.ssthresh;
		if (lane.limit !== undefined && lane.share !== undefined) lane.share = Math.max(1, lane.share * SHARE_DECREASE);
		lane.lastCutAt = now;
	}

	/**
	 * Our calls (not refused) that the server may have counted before this one: those given before it, and those
	 * given up to `lateMs` after it (they may have reached the server first: the network does not keep order).
	 */
	private oursCountedBefore(lane: Lane, slot: Slot, lateMs: number): Array<[number, number]> {
		return lane.recent.filter(([t, at]) => t !== slot.ticket && (t < slot.ticket || at <= slot.sentAt + lateMs));
	}

	/**
	 * An answer said `used` calls were counted in the window when this call was: more than this client
	 * sent around that time are someone else's. Once others are seen, take a share of the window, and
	 * once per window size it from how many clients use the key: the calls counted in the window over
	 * this client's own (n), each taking (limit − slack) / n. Clients that start together start equal and
	 * stay equal; together they fill the window.
	 */
	private noteOthers(lane: Lane, slot: Slot, used: number, now: number, outcome: CallOutcome): void {
		const limit = lane.limit as number;
		const w = lane.windowMs ?? 1_000;
		// Our calls that may have been counted in the window up to this one: those sent in the window's length
		// before it (not refused), generously (the window's length is known from below): more than the server
		// counted of ours, so that others are never seen where there are none.
		const span = Math.max(w, 1_000) + this.margin(lane);
		// Before others are seen, calls sent a moment after it may have reached the server first (the network does not
		// keep order): they count too, so that a burst counted out of order is not taken for another client. Once others
		// are seen, only the calls sent before it, so that they stay seen while they use the key.
		const late = this.othersActive(lane, now) ? 0 : this.margin(lane);
		const ours = this.oursCountedBefore(lane, slot, late).filter(([, at]) => at >= slot.sentAt - span).length + (outcome === 'answered' ? 1 : 0);
		const others = outcome === 'refused' ? Math.max(0, limit - ours) : Math.max(0, used - ours);
		lane.used.push([now, outcome === 'refused' ? limit : used, outcome === 'refused' ? 0 : 1]);
		if (others > 0) {
			if (!this.othersActive(lane, now) || lane.share === undefined) {
				lane.share = Math.max(1, limit * SHARE_START);
				lane.clients = undefined;
				lane.lastShareAt = now;
			}
			lane.othersSeenAt = now;
		}
		if (lane.share === undefined || !this.othersActive(lane, now) || now - lane.lastShareAt < w) return;
		// Once per window: the window's count as the last answers saw it, over ours among them.
		const recent = lane.used.filter(([at]) => at >= now - w);
		const total = Math.max(0, ...recent.map(([, u]) => u));
		const mine = recent.reduce((sum, [, , m]) => sum + m, 0);
		if (mine === 0 || total === 0) return;
		const n = clamp(total / mine, 1, limit);
		const keep = lane.clients === undefined || n < ALONE_BELOW ? 0 : n < lane.clients ? CLIENTS_KEEP_FEWER : CLIENTS_KEEP_MORE;
		lane.clients = keep * (lane.clients ?? n) + (1 - keep) * n;
		lane.share = clamp((limit - SHARE_SLACK) / lane.clients, 1, limit);
		lane.lastShareAt = now;
	}

	private learn(lane: Lane, ticket: number, remaining: number, resetAt: number | undefined): void {
		const known = lane.estimate;
		const limit = lane.limit;
		if (resetAt === undefined && lane.windowStated && !lane.exactReset) {
			// The window's length is stated but not its end (IETF `t` is whole seconds): the sliding window of
			// this client's own calls paces it; a count of `remaining` would be stale by the time it arrives.
			return;
		}
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
			// A later window is known, unless it is this one foretold (late on purpose): then the told end, already past, is the truth
			// (with slow calls, the answers of a window come back as it ends, and the next window need not wait for the foretold end).
			if (known?.kind === 'window' && known.resetAt !== undefined && known.resetAt > now && !endsForetold(lane, known, resetAt)) {
				this.startForetoldAfter(lane, known, resetAt, now);
				return;
			}
			const base = this.ticketsBefore(lane, resetAt);
			if (known === undefined || known.kind === 'count' || base > known.base) this.rollOver(lane, base, resetAt);
			return;
		}
		let e: Estimate;
		if (known === undefined || known.kind === 'count') {
			// A first window: every call sent so far may count against it.
			e = { kind: 'window', limit, base: known === undefined ? 0 : Math.min(known.ticket, ticket - 1), external: 0, resetAt };
		} else if (endsForetold(lane, known, resetAt)) {
			// The end of a foretold window, now told: keep the answer's, and learn how late the foretelling was.
			if (resetAt > known.resetAt) lane.lateMs = Math.max(0.9 * lane.lateMs, resetAt - known.resetAt);
			e = { kind: 'window', limit, base: Math.min(known.base, ticket - 1), external: known.external, resetAt };
		} else if (known.resetAt === undefined) {
			// A window rolled into: its end is now known, or told otherwise than foretold (a call sent before the roll, counted in it, moves its start back).
			e = { kind: 'window', limit, base: Math.min(known.base, ticket - 1), external: known.external, resetAt };
		} else if (resetAt > known.resetAt + 50) {
			// A later window than the known one: it began when the known one ended.
			e = { kind: 'window', limit, base: Math.min(ticket - 1, this.ticketsBefore(lane, known.resetAt)), external: 0, resetAt };
		} else if (resetAt < known.resetAt - 50) {
			return;
		} else {
			// The same window (reset times may be rounded).
			e = known;
			e.predicted = false;
		}
		lane.estimate = e;
		this.noteUsed(e, lane, limit - remaining);
	}

	/**
	 * The window before a foretold one ended at `resetAt`, later than the foretold one was thought to begin (`from`):
	 * alone on the key, the foretold window began with our first call sent after `resetAt` (our calls before it were
	 * counted in the window that ended), and it ends a window after that call. Without this, the calls of a foretold
	 * end that came early were refused as a burst (a client left alone on the key, once the others are done).
	 */
	private startForetoldAfter(lane: Lane, known: Estimate & { kind: 'window' }, resetAt: number, now: number): void {
		if (!known.predicted || known.from === undefined || resetAt <= known.from + 1 || lane.windowMs === undefined || !lane.exactReset || this.othersActive(lane, now)) return;
		const first = lane.sendTimes.find(([, at]) => at >= resetAt);
		if (!first) return;
		known.base = Math.max(known.base, first[0] - 1);
		known.from = first[1];
		known.resetAt = this.foretell(lane, first[1], lane.windowMs);
	}

	/** `used` calls were counted in the window when an answer came: more than this client sent there is someone else's. */
	private noteUsed(e: Estimate & { kind: 'window' }, lane: Lane, used: number): void {
		e.external = Math.max(e.external, used - (lane.sent - e.base));
	}

	/**
	 * The server refused a call for now: no call starts for `delayMs`, plus a
	 * jitter. While others use the key (or before this client knows), the
	 * jitter spreads the restart over half the window, so that the clients of
	 * the key do not all come back at the same instant; alone, it is small.
	 */
	pause(delayMs: number, laneName?: string, options: { coarse?: boolean } = {}): void {
		const lane = laneName === undefined ? undefined : this.lanes.get(laneName);
		const now = this.now();
		let delay = Math.max(0, delayMs);
		if (options.coarse && lane?.windowMs !== undefined) {
			// The delay is whole seconds to the reset (IETF `t`, rounded up): the reset is anywhere in the last
			// second of it. Come back at its middle, without more jitter (clients refused a moment apart already
			// come back a moment apart); a second refusal costs nothing.
			delay = Math.max(0, delay - Math.min(1_000, lane.windowMs) / 2);
			const until = now + delay;
			lane.pausedUntil = Math.max(lane.pausedUntil, until);
			this.wake();
			return;
		}
		const alone = lane !== undefined && lane.limit !== undefined && !this.othersActive(lane, now);
		// Without any quota told (a `Retry-After` alone), a client cannot tell whether others share the key, nor the
		// window's length: the refusals of one full window reach its clients at the instants their calls arrive, so
		// their restarts are already spread, and a jitter of half a second on top would idle the key a quarter of a
		// second on average after every refusal. The jitter stays small, as alone.
		const small = alone || (lane?.limit === undefined && lane?.windowMs === undefined);
		// A pause of every lane (no lane named) is the caller's own delay, without jitter.
		const spread = laneName === undefined ? 0 : small ? Math.min(250, delay * 0.05 + 20) : Math.min(lane?.windowMs ?? 1_000, Math.max(delay, 200)) / 2;
		const until = now + delay + Math.round(this.random() * spread);
		if (lane) lane.pausedUntil = Math.max(lane.pausedUntil, until);
		else if (laneName !== undefined) this.lane(laneName).pausedUntil = until;
		else if (until > this.pausedUntil) this.pausedUntil = until;
		this.wake();
	}

	/** What the pacer knows of a lane (for error messages and the node's hint). */
	report(laneName: string): LaneReport {
		const lane = this.lane(laneName);
		const now = this.now();
		return {
			limit: lane.limit,
			windowMs: lane.windowMs,
			share: this.othersActive(lane, now) && lane.share !== undefined ? Math.round(lane.share * 10) / 10 : undefined,
			othersSeen: this.othersActive(lane, now),
			latencyMs: lane.latencyMs,
			inFlightLimit: this.inFlightLimit(lane, now),
			peakInFlight: this.peaks.get(laneName) ?? 0,
		};
	}
}

/** The end an answer tells is that of the window foretold (within half a window of the foretold end, which is late on purpose). */
function endsForetold(lane: Lane, known: Estimate & { kind: 'window' }, resetAt: number): known is Estimate & { kind: 'window'; resetAt: number } {
	return known.predicted === true && known.resetAt !== undefined && resetAt > known.resetAt - w50(lane);
}

/** Half the window (or 50 ms when it is unknown): how far a told end may be from the foretold one and still be the same window. */
function w50(lane: { windowMs?: number }): number {
	return lane.windowMs === undefined ? 50 : lane.windowMs / 2;
}

function clamp(n: number, low: number, high: number): number {
	return Math.max(low, Math.min(high, n));
}

/** "10 calls per 1 s" (or undefined when no answer told the quota). */
export function describeQuota(report: LaneReport): string | undefined {
	if (report.limit === undefined) return undefined;
	const per = report.windowMs === undefined ? 'window' : formatDuration(report.windowMs);
	const share = report.share !== undefined && report.share < report.limit ? `, of which this client takes ${report.share} while other clients use the key` : '';
	return `${report.limit} call${report.limit === 1 ? '' : 's'} per ${per}${share}`;
}

export function formatDuration(ms: number): string {
	if (ms < 1_000) return `${Math.round(ms)} ms`;
	if (ms < 120_000) return `${Number((ms / 1_000).toFixed(1))} s`;
	return `${Number((ms / 60_000).toFixed(1))} min`;
}

/**
 * One pacer per API key and base URL in a process: created on first use,
 * dropped when idle. Holds no key in clear: entries are keyed by a digest
 * the adapter computes (node:crypto's SHA-256 in n8n and the SDK). Pure: the
 * adapters hold the instance (module state stays out of shared/).
 */
export interface PacerRegistryOptions {
	/** One-way digest of the key and base URL. */
	digest: (text: string) => string;
	create: () => Pacer;
	/** An idle pacer is dropped after this long (default 10 min). */
	idleMs?: number;
	/** At most this many keys at once; the idle ones go first (default 256). */
	maxEntries?: number;
}

export class PacerRegistry {
	private readonly entries = new Map<string, Pacer>();
	private readonly options: Required<PacerRegistryOptions>;

	constructor(options: PacerRegistryOptions) {
		this.options = { idleMs: 600_000, maxEntries: 256, ...options };
	}

	/** The pacer of this key and base URL (the same object for every run on them until it is dropped). */
	get(apiKey: string, baseUrl: string): Pacer {
		const id = this.options.digest(`${baseUrl}\n${apiKey}`);
		this.sweep(id);
		let pacer = this.entries.get(id);
		if (!pacer) {
			pacer = this.options.create();
			this.entries.set(id, pacer);
		} else {
			// Most recently used last (the order the sweep drops them in).
			this.entries.delete(id);
			this.entries.set(id, pacer);
		}
		return pacer;
	}

	/** Entries now (for tests and bounds). */
	get size(): number {
		return this.entries.size;
	}

	/** The digests held (never a key). */
	ids(): string[] {
		return [...this.entries.keys()];
	}

	clear(): void {
		this.entries.clear();
	}

	private sweep(keep: string): void {
		for (const [id, pacer] of this.entries) {
			if (id !== keep && pacer.idleFor(this.options.idleMs)) this.entries.delete(id);
		}
		for (const [id, pacer] of this.entries) {
			if (this.entries.size < this.options.maxEntries) break;
			if (id !== keep && pacer.idleFor(0)) this.entries.delete(id);
		}
	}
}
