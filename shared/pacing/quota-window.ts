/**
 * What the answers say of the quota of one lane, and the window it gives: a bound on the rate controller,
 * never a second engine. Each piece is used only where it is known:
 * - a limit and a window's length (stated, or learned from the gaps between exact window ends) give the told
 *   rate, a ceiling for the rate controller;
 * - an exact window end (to the millisecond) and a remaining count hold the calls once the window is spent,
 *   until that end, which is never later than the delay a refusal would have told; a client alone on the key may
 *   then send the next window's calls at once (shareOfNext);
 * - a remaining count without an exact end (no reset, or one in whole seconds) holds nothing: its window's end is
 *   unknown, and waiting for an answer that cannot tell it was the trap (a refusal tells it at once).
 * Whether the answers show room is room-signal.ts's (the pacer asks it beside this). Pure: the caller gives the
 * time of each event.
 */

import { LearnedLength, SAME_WINDOW_MS } from './learned-length';
import { ToldBurst } from './told-burst';

/** What one answer says of the quota (read by readRateLimit in client/rate-fields.ts). */
export interface RateWindow {
	/** Calls allowed per window. */
	limit?: number;
	/** Calls left in the window when this call was counted. */
	remaining?: number;
	/** When the window ends (ms, on the pacer's clock). */
	resetAt?: number;
	/** False when `resetAt` is known only to the second (a delay in whole seconds, an epoch in whole seconds, an HTTP date). */
	resetExact?: boolean;
	/** The window's length (ms), when the answer states it (IETF `RateLimit-Policy`: `w`). */
	windowMs?: number;
}

/**
 * The told rate is taken over a window a little longer than told: a window that starts with its first call
 * (as many servers count) refuses a call that reaches it a moment early. 2 % and 10 ms, as the margin of the
 * clocks of two machines on one network.
 */
export const WINDOW_MARGIN = { ms: 10, share: 0.02 };
const marginOf = (windowMs: number) => WINDOW_MARGIN.ms + WINDOW_MARGIN.share * windowMs;
/** A window's length when no answer states it and no exact ends tell it: a second, the commonest quota window. */
export const COMMON_WINDOW_MS = 1_000;
/**
 * Our sends kept (bounded memory: a process holds a pacing per key, up to 256; some 40 bytes a send): enough for
 * a window of 1,024 calls. A larger window is then counted short, and its refusals tell the rest. At 512, a quota of
 * 600 a minute (common with AI APIs) was counted short: its counts looked shared, and its calls went spread (IETF
 * fields, 2,000 items: 1.13 ×).
 */
const MAX_SENDS_KEPT = 1_024;

export class QuotaWindow {
	/**
	 * @param unansweredBefore our calls sent before the call `ticket` that are still unanswered (the pacer's calls in
	 * flight: InFlight.before); none by default.
	 */
	constructor(private readonly unansweredBefore: (ticket: number, since: number) => number = () => 0) {}

	limit?: number;
	windowMs?: number;
	private stated = false;
	/** The current window, when an answer told its exact end: the remaining count told for the call `asOf`. */
	private current?: { endsAt: number; remaining: number; asOf: number };
	/** The counts told for our calls in the current window, by ticket: a later call told more left was counted before. */
	private readonly toldLeft = new Map<number, number>();
	/** The window's length as exact ends show it (taken when no answer states it). */
	private readonly learned = new LearnedLength();
	/** The end of the window whose successor's share was given (shareOfNext). */
	private sharedFor?: number;
	/** The exact end of the window before the current one (our calls after it were counted in the current one). */
	private previousEnd?: number;
	private exactSeen = false;
	/** Without exact ends, whether a told window's calls may go together, and our own windows then (told-burst.ts). */
	private readonly burst = new ToldBurst();

	/** Our calls not refused: [ticket, time sent], oldest first. */
	private readonly sends: Array<[number, number]> = [];

	onSend(ticket: number, at: number): void {
		this.seedBurst(at);
		this.sends.push([ticket, at]);
		this.burst.onSend(at, this.windowMs === undefined ? undefined : this.windowMs + marginOf(this.windowMs));
		const keepFrom = at - 2 * (this.windowMs ?? 60_000);
		while (this.sends.length > MAX_SENDS_KEPT || (this.sends.length > 0 && this.sends[0][1] < keepFrom)) this.sends.shift();
	}

	/** When the window that refused a call sent at `at` ends if our oldest call not refused within a window before opened it (windows that start with their first call, as gateways count). */
	endIfOpenedByOurs(at: number): number | undefined {
		const windowMs = this.windowMs ?? COMMON_WINDOW_MS;
		const first = this.sends.find(([, sent]) => sent > at - windowMs);
		return first === undefined ? undefined : first[1] + windowMs + marginOf(windowMs);
	}

	/** When our call `ticket` was sent, while it is kept (not refused, not past the sends kept). */
	sentAt(ticket: number): number | undefined {
		return this.sends.find(([t]) => t === ticket)?.[1];
	}

	/** A refused call was not counted by the server. */
	onRefused(ticket: number): void {
		const i = this.sends.findIndex(([t]) => t === ticket);
		if (i >= 0) this.burst.onRefused(this.sends[i][1], this.limit);
		if (i >= 0) this.sends.splice(i, 1);
	}

	/** What the answer to our call `ticket` said. */
	learn(w: RateWindow, ticket: number): void {
		if (w.limit !== undefined && w.limit > 0) this.limit = w.limit;
		if (w.windowMs !== undefined && w.windowMs > 0) {
			this.windowMs = w.windowMs;
			this.stated = true;
		}
		this.noteShared(w.remaining, ticket);
		if (w.resetAt === undefined || w.resetExact === false) return;
		this.exactSeen = true;
		const length = this.learned.learn(w.resetAt, this.sentAt(ticket));
		if (!this.stated && length !== undefined) this.windowMs = length;
		// Kept also when the window has ended by the time its answer comes (an answer as slow as a window): its end
		// anchors the count of our calls since (holdUntil); without it a lone client fell back to its own sliding count
		// (S1 on the real sandbox, 1 s answers for 1 s windows: 1.10 × -> 1.05 ×).
		if (w.remaining === undefined) return;
		const told = { endsAt: w.resetAt, remaining: w.remaining, asOf: ticket };
		const c = this.current;
		if (!c || w.resetAt > c.endsAt + SAME_WINDOW_MS) {
			this.previousEnd = c?.endsAt;
			this.current = told;
			this.toldLeft.clear();
		}
		else if (w.resetAt >= c.endsAt - SAME_WINDOW_MS && this.left(told) < this.left(c)) this.current = told;
		if (this.current && Math.abs(w.resetAt - this.current.endsAt) <= SAME_WINDOW_MS) this.toldLeft.set(ticket, w.remaining);
	}

	/** A count told for our call `ticket`, for ToldBurst: our calls of the window's span around it. */
	private noteShared(remaining: number | undefined, ticket: number): void {
		if (remaining === undefined || this.limit === undefined || this.windowMs === undefined) return;
		const sentAt = this.sentAt(ticket);
		if (sentAt === undefined) return;
		const span = this.windowMs + marginOf(this.windowMs);
		const within = this.sends.filter(([, at]) => at > sentAt - span && at <= sentAt + SAME_WINDOW_MS);
		const upTo = within.filter(([, at]) => at <= sentAt);
		this.burst.noteCount(remaining, this.limit, sentAt, within.length, upTo.length, upTo[0]?.[1], this.windowMs);
	}

	/**
	 * Over what span (ms) a told window's calls may go together at the rate allowed (RateController.setCeiling): a
	 * fixed window lets its limit go when it opens. With exact ends, while alone on the key (the window); without,
	 * while the counts show this client alone (told-burst.ts: the window and its margin, our own windows then hold
	 * the next calls, holdUntil). Not on a refusal's fields alone: three processes refused at their start each sent a
	 * window's calls again (IETF, 1 s windows, 5 s answers: 1.11 × → 1.21 ×). Undefined: spread, one call a token.
	 */
	burstSpan(): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		if (this.exact) return this.alone ? this.windowMs : undefined;
		return this.burst.alone ? this.windowMs + marginOf(this.windowMs) : undefined;
	}

	/** The calls our own windows leave now (the limit less our calls in the current one), if the limit is known. */
	leftInSpan(now: number): number | undefined {
		this.seedBurst(now);
		return this.limit === undefined ? undefined : this.burst.left(now, this.limit);
	}

	/** Once the window's length is known, our windows start with our calls of the last span. */
	private seedBurst(now: number): void {
		if (this.burst.counting || this.windowMs === undefined) return;
		const span = this.windowMs + marginOf(this.windowMs);
		const recent = this.sends.filter(([, at]) => at > now - span);
		if (recent.length > 0) this.burst.seed(recent[0][1], recent.length, span);
	}

	/** The answers tell the window's end to the millisecond. */
	get exact(): boolean {
		return this.exactSeen;
	}

	/** The told rate (calls per second), when both the limit and the window's length are known. */
	toldRate(): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		// Alone with exact ends, the holds keep the margin (holdUntil): a rate under the limit only spread a window's calls past its end.
		if (this.exact && this.alone) return (this.limit * 1_000) / this.windowMs;
		return (this.limit * 1_000) / (this.windowMs + marginOf(this.windowMs));
	}

	/**
	 * Calls may not go before this time: the current window is spent and its exact end is known; or, before any
	 * answer told an exact window, our own calls of the last window's length already reach the limit (the calls sent
	 * before the first answer told the quota). Within a told window, and past its end with fewer of our calls than the
	 * limit, the counts are the server's own and nothing else holds: our own sliding count, kept there too, held a lone
	 * client to 10 calls per 1.05 s where 10 per 1 s were allowed (S1 1.13 ×, S3 1.14 × on the real sandbox).
	 */
	holdUntil(now: number): number | undefined {
		const c = this.current;
		if (!c) return this.ownLimit(now);
		if (now < c.endsAt) return this.left(c) <= 0 ? c.endsAt : undefined;
		// A new window began at the told end: the limit is what it allows, less our calls since (others' show in its answers).
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		const since = this.sends.filter(([, at]) => at >= c.endsAt);
		if (since.length < this.limit) return undefined;
		// It began with the first call after the told end at the latest: it ends a window after that call.
		const end = since[0][1] + this.windowMs + marginOf(this.windowMs);
		// Over a window since the told end: windows passed that no answer told yet, and our own count holds.
		return end > now ? end : this.ownLimit(now);
	}

	/**
	 * At the exact end of the current window, `at`, when this client was alone on the key in it (the counts told show
	 * no call but ours): the calls the next window allows, less ours since its start, may go at once. Once per window;
	 * undefined when the key is shared or nothing exact is known. Alone, the rate bucket (at the told rate less its
	 * margin) let 9 of a window's 10 calls go at its start and the 10th a token later (S3, no latency: 1.14 ×); shared,
	 * a burst at the window's start would take the others' calls first, and calls stay spread. `filledByOurs`: past an
	 * end no hold waited for, only if our calls alone filled the window (a count told for our last call misses others'
	 * after it: three processes took one another's windows, 429s over 10 %); a lone client whose answers come as its
	 * windows end (L = W) then sends each window's calls together, not a token apart (S1, real sandbox: 1.10 × → 1.03 ×).
	 */
	shareOfNext(at: number, filledByOurs = false): number | undefined {
		const c = this.current;
		if (!c || this.limit === undefined || this.windowMs === undefined || at < c.endsAt || this.sharedFor === c.endsAt) return undefined;
		if (filledByOurs && this.ours(c.endsAt, this.windowMs) < this.limit) return undefined;
		this.sharedFor = c.endsAt;
		if (!this.alone) return undefined;
		return Math.max(0, this.limit - this.sends.filter(([, sentAt]) => sentAt >= c.endsAt).length);
	}

	/**
	 * The calls counted in the current window (the count told, and our calls since) are no more than our own calls in
	 * it: this client is alone on the key (exact ends only; false when unknown). One test for both the burst of a
	 * window's calls and shareOfNext (a second one, on the count told alone, missed answers that came out of order:
	 * S2 on the real sandbox went spread again, 21.3 s).
	 */
	get alone(): boolean {
		const c = this.current;
		if (!c || this.limit === undefined || this.windowMs === undefined) return false;
		const ours = this.ours(c.endsAt, this.windowMs);
		// Left at its end: our calls sent after it are another window's (the window ended with room, not spent by others).
		const leftAtEnd = c.remaining - this.sends.filter(([t, at]) => t > c.asOf && at < c.endsAt).length;
		return this.limit - Math.max(0, leftAtEnd) <= ours;
	}

	/**
	 * Our calls since the told end of the current window already reach the limit: the calls beyond wait for the
	 * answers to those calls, which tell the new window's exact end. Without them, a new window's length unknown, the
	 * calls beyond went at the slow start's rate (S2's first window turn: 5 to 16 refused); with the length known, they
	 * waited a window and its margin from the first call, foretold before any answer came (S3, instant answers: 30 ms
	 * lost at each window, 1.039 × the quota-bound limit).
	 */
	spentUntilTold(now: number, latencyMs: number | undefined): boolean {
		const c = this.current;
		if (!c || now < c.endsAt || this.limit === undefined) return false;
		// Only when the answers come back within a window: waiting a 5 s answer for a 1 s window lost more than refusals.
		if (latencyMs === undefined || !(latencyMs < this.learned.leastLength)) return false;
		return this.sends.filter(([, at]) => at >= c.endsAt).length >= this.limit;
	}

	/**
	 * From when our calls count in the window ending at `endsAt`: the previous window's end, when that window is the
	 * one just before (it ended less than two windows before this one); else a window (and its margin) before the
	 * end. A burst sent at the previous end reaches the server over some 100 ms, and a window that starts with its
	 * first call then starts after the calls were sent (S2 on the real sandbox: half of the 50 calls sent at the end
	 * counted as others', the windows after went spread, 1.34 ×).
	 */
	private startOf(endsAt: number, windowMs: number): number {
		const justBefore = this.previousEnd !== undefined && this.previousEnd > endsAt - 2 * windowMs;
		return justBefore ? (this.previousEnd as number) : endsAt - windowMs - marginOf(windowMs);
	}

	/** Our calls counted in the window ending at `endsAt`. */
	private ours(endsAt: number, windowMs: number): number {
		const start = this.startOf(endsAt, windowMs);
		return this.sends.filter(([, at]) => at >= start && at < endsAt).length;
	}

	/** With the limit and the window's length known: the time our own calls of the last window's length fall under the limit. */
	private ownLimit(now: number): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		// A told window's calls going together: counted in our own windows, the next goes together when ours ends.
		if (!this.exact && this.burstSpan() !== undefined) return this.burst.holdUntil(now, this.limit);
		const span = this.windowMs + marginOf(this.windowMs);
		const recent = this.sends.filter(([, at]) => at > now - span);
		return recent.length >= this.limit ? recent[recent.length - this.limit][1] + span : undefined;
	}

	/**
	 * Calls left in a told window: the count told, less our calls sent after the one it was told for, and less our
	 * calls sent before it that are still unanswered: the calls of one burst reach the server out of order, and one of
	 * them may be counted after the call told for (on virtual time, a lone client's burst: 2 calls left where none
	 * were, 12 calls sent into the next window for 10, and the client went back to spreading its calls).
	 */
	private left(c: { remaining: number; asOf: number }): number {
		// Only those sent within a moment of it may reach the server after it: counting every call still out (those sent
		// a second before, in 1 s answers) held a lone client a window early, 29 calls of 30 sent (1.24 × in 1 run of 4).
		const sentAt = this.sentAt(c.asOf);
		// A call sent after it whose own count told more left reached the server first: it is in the count already.
		const countedAfter = this.sends.filter(([t]) => t > c.asOf && !((this.toldLeft.get(t) ?? -1) > c.remaining)).length;
		return c.remaining - countedAfter - this.unansweredBefore(c.asOf, sentAt === undefined ? -Infinity : sentAt - SAME_WINDOW_MS);
	}
}
