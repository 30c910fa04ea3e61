/**
 * What the answers say of the quota of one lane, and the window it gives: a bound on the rate controller,
 * never a second engine. Each piece is used only where it is known:
 * - a limit and a window's length (stated, or learned from the gaps between exact window ends) give the told
 *   rate, a ceiling for the rate controller;
 * - an exact window end (to the millisecond) and a remaining count hold the calls once the window is spent,
 *   until that end, which is never later than the delay a refusal would have told; a client alone on the key may
 *   then send the next window's calls at once (shareOfNext);
 * - a remaining count without an exact end holds nothing when there is no end (no reset): its window's end is
 *   unknown, and waiting for an answer that cannot tell it was the trap (a refusal tells it at once). With an end
 *   told to the second and the window's length known, a spent count holds until the earliest that end can be.
 * Its parts: own-sends.ts, our calls not refused; exact-ends.ts, the windows whose exact ends were told;
 * rounded-ends.ts, those whose ends were told to the second; told-burst.ts, without exact ends, our own windows.
 * Whether the answers show room is room-signal.ts's (the lane asks it beside this). Pure: the caller gives the time
 * of each event.
 */

import { ExactEnds } from './exact-ends';
import { RoundedLength, SAME_WINDOW_MS } from './learned-length';
import { OwnSends } from './own-sends';
import { DELAY_PRECISION_MS } from './refusal-hold';
import { RoundedEnds } from './rounded-ends';
import { ToldBurst, aloneStretch } from './told-burst';

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
	/** How far before `resetAt` the window may end (ms): its rounding, and the server's clock's spread for an instant on it. */
	resetPrecisionMs?: number;
	/** `resetAt` is told to the second (not only read on a server's clock not yet known to the millisecond, which its answers soon tell). */
	resetRounded?: boolean;
	/** The window's length (ms), when the answer states it (IETF `RateLimit-Policy`: `w`). */
	windowMs?: number;
}

/**
 * The told rate is taken over a window a little longer than told: a window that starts with its first call
 * (as many servers count) refuses a call that reaches it a moment early. 2 % and 10 ms, as the margin of the
 * clocks of two machines on one network. The 2 % stops at 100 ms (`shareMaxMs`): how late a call reaches the
 * server does not grow with the window, and every window of 10 s or 60 s idled 0.2 s or 1.2 s (IETF fields, one
 * process, 25 per 60 s: 1.020 × → 1.002 ×; 25 per 10 s: 1.021 × → 1.011 ×).
 */
export const WINDOW_MARGIN = { ms: 10, share: 0.02, shareMaxMs: 100 };
const marginOf = (windowMs: number) => WINDOW_MARGIN.ms + Math.min(WINDOW_MARGIN.shareMaxMs, WINDOW_MARGIN.share * windowMs);
/**
 * Without exact ends, a key the counts show shared keeps its calls spread, at up to this many times the told pace:
 * the counts hold the calls once the window is spent, and at the told pace itself each process's calls of the last
 * window trailed over a third of it (three processes at 25 per 60 s, `RateLimit-*` in whole seconds: 1.039 × the
 * quota-bound limit, where `Retry-After` alone took 1.004 ×; 1.022 × now, and the same 429s). Three times: 429s over
 * 10 % at 25 per 10 s. With exact ends, twice the pace gained as much, but a process left alone in the last window
 * lost its burst there (25 per 60 s from a server 3 s away: 1.010 × → 1.035 ×); it keeps the told pace.
 */
export const SHARED_PACE = 2;
/** A window's length when no answer states it and no exact ends tell it: a second, the commonest quota window. */
export const COMMON_WINDOW_MS = 1_000;

export class QuotaWindow {
	/**
	 * @param unansweredBefore our calls sent before the call `ticket` that are still unanswered (the pacer's calls in
	 * flight: InFlight.before); none by default.
	 */
	constructor(unansweredBefore: (ticket: number, since: number) => number = () => 0) {
		this.ends = new ExactEnds(this.sends, unansweredBefore);
		this.rounded = new RoundedEnds(this.sends, unansweredBefore);
	}

	limit?: number;
	windowMs?: number;
	private stated = false;
	/** The end of the window whose successor's share was given (shareOfNext). */
	private sharedFor?: number;
	/** The end of the window whose count was given at once, the key alone (leftInToldAlone). */
	private aloneGivenFor?: number;
	/** Our calls not refused (own-sends.ts). */
	private readonly sends = new OwnSends();
	/** The windows whose exact ends the answers told (exact-ends.ts). */
	private readonly ends: ExactEnds;
	/** The windows whose ends the answers told to the second, once the window's length is known (rounded-ends.ts). */
	private readonly rounded: RoundedEnds;
	/** Without exact ends, whether a told window's calls may go together, and our own windows then (told-burst.ts). */
	private readonly burst = new ToldBurst(this.sends);
	/** The window's length from the ends told to the second, where no answer states it (learned-length.ts). */
	private readonly roundedLength = new RoundedLength();

	/**
	 * Our call `ticket` went at `at`. Our calls are kept for two windows and the time answers take (`answersTakeMs`):
	 * the counts told in answers slower than the window are about windows that long gone (kept two windows alone, a
	 * lone client with 5 s answers on 1 s windows found none of its calls in them, never saw itself alone, and kept
	 * its calls spread).
	 */
	onSend(ticket: number, at: number, answersTakeMs = 0): void {
		this.seedBurst(at);
		this.sends.add(ticket, at, at - 2 * (this.windowMs ?? 60_000) - answersTakeMs);
		this.burst.onSend(at, this.windowMs === undefined ? undefined : this.windowMs + marginOf(this.windowMs));
	}

	/** When the window that refused a call sent at `at` ends if our oldest call not refused within a window before opened it (windows that start with their first call, as gateways count). */
	endIfOpenedByOurs(at: number): number | undefined {
		const windowMs = this.windowMs ?? COMMON_WINDOW_MS;
		const first = this.sends.times((sent) => sent > at - windowMs)[0];
		return first === undefined ? undefined : first + windowMs + marginOf(windowMs);
	}

	/** When our call `ticket` was sent, while it is kept (not refused, not past the sends kept). */
	sentAt(ticket: number): number | undefined {
		return this.sends.sentAt(ticket);
	}

	/**
	 * A refusal's delay told the window's end to the second (`precisionMs` before `at` at the earliest), answered at
	 * `answeredAt`: with a limit told and no length stated, it shows the window's length as an answer's end does
	 * (`X-RateLimit-*` without a reset tells its ends only there).
	 */
	onRefusalEnd(at: number, precisionMs: number, answeredAt: number): void {
		if (this.limit === undefined || this.exact) return;
		this.rounded.refusedUntil(at - precisionMs);
		if (!this.stated) this.learnLength(at, precisionMs, Infinity, answeredAt);
	}

	/** A count told without an end, for our call `ticket`: spent as rounded-ends.ts's learnCount says, once the window's length is known. */
	private learnCount(remaining: number | undefined, ticket: number): void {
		const sentAt = this.sentAt(ticket);
		if (remaining === undefined || this.windowMs === undefined || this.exact || sentAt === undefined) return;
		this.rounded.learnCount(remaining, ticket, sentAt, this.windowMs, this.windowMs + marginOf(this.windowMs));
	}

	/** A refused call was not counted by the server. */
	onRefused(ticket: number): void {
		const sentAt = this.sends.remove(ticket);
		if (sentAt !== undefined) this.burst.onRefused(sentAt, this.limit);
	}

	/** What the answer to our call `ticket` said; `answeredAt`, when it came (a length is learned from ends told to the second only with it). */
	learn(w: RateWindow, ticket: number, answeredAt?: number): void {
		if (w.limit !== undefined && w.limit > 0) this.limit = w.limit;
		if (w.windowMs !== undefined && w.windowMs > 0) {
			this.windowMs = w.windowMs;
			this.stated = true;
		}
		this.noteShared(w.remaining, ticket);
		if (w.resetAt === undefined) {
			this.learnCount(w.remaining, ticket);
			return;
		}
		if (w.resetExact === false) {
			if (this.exact) return;
			const sentAt = this.sentAt(ticket);
			if (!this.stated && w.resetRounded === true && answeredAt !== undefined && sentAt !== undefined) this.learnLength(w.resetAt, w.resetPrecisionMs ?? DELAY_PRECISION_MS, sentAt, answeredAt);
			if (w.remaining === undefined || this.windowMs === undefined) return;
			this.rounded.learn(w.resetAt, w.resetPrecisionMs ?? DELAY_PRECISION_MS, w.remaining, ticket, this.windowMs);
			return;
		}
		const length = this.ends.learn(w.resetAt, w.remaining, ticket, w.resetPrecisionMs);
		if (!this.stated && length !== undefined) this.windowMs = length;
		// Our own windows follow the server's: chained from its latest exact end, not from wherever ours had drifted to
		// (a lone client switching to them sent a window's calls into a server window nearly spent: 9 refused at once).
		const c = this.ends.current;
		if (c && this.windowMs !== undefined) this.burst.anchor(c.endsAt, this.windowMs + marginOf(this.windowMs));
	}

	/**
	 * An end told to the second, for our call sent at `sentAt`, where no answer states the window's length: the length
	 * it shows, once known. Our own windows then start with our first call whose answer told the current window, not
	 * with our calls of the last span: those went in the window before, and a lone client sent a whole window's calls
	 * into a window not yet ended (25 per 10 s, in whole seconds, 1 s answers: 23 % answered 429).
	 */
	private learnLength(at: number, precisionMs: number, sentAt: number, answeredAt: number): void {
		const length = this.roundedLength.learn(at, precisionMs, sentAt, answeredAt);
		if (length === undefined || length === this.windowMs) return;
		this.windowMs = length;
		const current = this.roundedLength.current;
		// Told by refusals alone, the current window began after the one before ended, at the latest.
		const start = Math.min(current?.firstSent ?? Infinity, this.roundedLength.previous?.from ?? Infinity);
		if (start < Infinity) this.burst.startsAfter(start, length + marginOf(length));
	}

	/** A count told for our call `ticket`, for ToldBurst. */
	private noteShared(remaining: number | undefined, ticket: number): void {
		const sentAt = this.sentAt(ticket);
		if (remaining === undefined || this.limit === undefined || this.windowMs === undefined || sentAt === undefined) return;
		this.burst.noteCountFor(remaining, this.limit, sentAt, this.windowMs, this.windowMs + marginOf(this.windowMs));
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

	/**
	 * Alone on the key within a window whose exact end was told: what its count leaves now, which may go at once.
	 * Undefined otherwise. A key the others left mid-run (their items done) had its last windows' calls spread at the
	 * told pace until a window's end gave the next window's share: three processes at 25 per 60 s, one left with 15
	 * calls spread over 34 s (1.064 × where `Retry-After` alone took 1.004 ×).
	 */
	leftInToldAlone(now: number): number | undefined {
		const c = this.ends.current;
		if (!c || this.windowMs === undefined || now >= c.endsAt || !this.alone) return undefined;
		// Once a window: one end read twice, a little apart, is one window (ExactEnds's SAME_WINDOW_MS).
		if (this.aloneGivenFor !== undefined && Math.abs(this.aloneGivenFor - c.endsAt) <= SAME_WINDOW_MS) return undefined;
		// Over a stretch of our calls in the window (told-burst.ts's ALONE_STRETCH): at a window's start, the count for our
		// first calls shows no one else before the others' first calls came (three processes: 7 % → 12-20 % answered 429).
		const first = this.ends.firstOurs(c.endsAt, this.windowMs, this.windowMs + marginOf(this.windowMs));
		const toldFor = this.ends.lastToldAt();
		if (first === undefined || toldFor === undefined || toldFor - first < aloneStretch(this.windowMs)) return undefined;
		this.aloneGivenFor = c.endsAt;
		return Math.max(0, Math.floor(this.ends.left(c)));
	}

	/** Once the window's length is known, our windows start with our calls of the last span. */
	private seedBurst(now: number): void {
		if (this.windowMs !== undefined) this.burst.seedFrom(now, this.windowMs + marginOf(this.windowMs));
	}

	/**
	 * Our calls are counted in windows of our own (told-burst.ts), chained from the last exact end told: without exact
	 * ends; and with them, a window or more past the last one told (answers slower than the window tell ends long
	 * gone) while the counts never showed another client. A lone client with 5 s answers on 1 s windows otherwise
	 * went on at its own sliding count, one call a tenth of a second and never a window's calls together: 1.09 × →
	 * 1.02 ×. The counts once showing others, it stays on the sliding count (three processes with 5 s answers each
	 * took a stale window for its own, and 6 % → 10 % were answered 429).
	 */
	inOwnWindows(now: number): boolean {
		if (!this.exact) return true;
		const c = this.ends.current;
		return this.burst.alone && c !== undefined && this.windowMs !== undefined && now >= c.endsAt + this.windowMs;
	}

	/** The answers tell the window's end to the millisecond. */
	get exact(): boolean {
		return this.ends.seen;
	}

	/** The told rate (calls per second), when both the limit and the window's length are known: SHARED_PACE times it for a key shared without exact ends. */
	toldRate(): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		// Alone with exact ends, the holds keep the margin (holdUntil): a rate under the limit only spread a window's calls past its end.
		if (this.exact && this.alone) return (this.limit * 1_000) / this.windowMs;
		const pace = !this.exact && this.burst.shared ? SHARED_PACE : 1;
		return (pace * this.limit * 1_000) / (this.windowMs + marginOf(this.windowMs));
	}

	/**
	 * Calls may not go before this time: the current window is spent and its exact end is known; or, before any
	 * answer told an exact window, our own calls of the last window's length already reach the limit (the calls sent
	 * before the first answer told the quota). Within a told window, and past its end with fewer of our calls than the
	 * limit, the counts are the server's own and nothing else holds: our own sliding count, kept there too, held a lone
	 * client to 10 calls per 1.05 s where 10 per 1 s were allowed (S1 1.13 ×, S3 1.14 × on the real sandbox).
	 */
	holdUntil(now: number): number | undefined {
		const c = this.ends.current;
		if (!c) {
			const own = this.ownLimit(now);
			const rounded = this.rounded.holdUntil(now, this.endIfOpenedByOurs(now));
			return rounded === undefined ? own : Math.max(rounded, own ?? -Infinity);
		}
		if (now < c.endsAt) {
			if (this.ends.left(c, now) > 0) return undefined;
			// Spent only as the others' pace foretells: one call goes when none of ours is out, and its answer tells. Held
			// instead, a window's last call was lost when the others had finished (20 per 45 s, three processes: 1.091 ×
			// for 1.028 ×; `Retry-After` alone 1.006 ×).
			return this.ends.left(c) > 0 && this.ends.noneOut() ? undefined : c.endsAt;
		}
		// A new window began at the told end: the limit is what it allows, less our calls since (others' show in its answers).
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		const since = this.sends.times((at) => at >= c.endsAt);
		if (since.length < this.limit) return undefined;
		// It began with the first call after the told end at the latest: it ends a window after that call.
		const end = since[0] + this.windowMs + marginOf(this.windowMs);
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
		const c = this.ends.current;
		if (!c || this.limit === undefined || this.windowMs === undefined || at < c.endsAt || this.sharedFor === c.endsAt) return undefined;
		if (filledByOurs && this.ends.ours(c.endsAt, this.windowMs, this.windowMs + marginOf(this.windowMs)) < this.limit) return undefined;
		this.sharedFor = c.endsAt;
		if (!this.alone) return undefined;
		return Math.max(0, this.limit - this.sends.count((sentAt) => sentAt >= c.endsAt));
	}

	/**
	 * The calls counted in the current window (the count told, and our calls since) are no more than our own calls in
	 * it: this client is alone on the key (exact ends only; false when unknown). One test for both the burst of a
	 * window's calls and shareOfNext (a second one, on the count told alone, missed answers that came out of order:
	 * S2 on the real sandbox went spread again, 21.3 s).
	 */
	get alone(): boolean {
		const c = this.ends.current;
		if (!c || this.limit === undefined || this.windowMs === undefined) return false;
		const ours = this.ends.ours(c.endsAt, this.windowMs, this.windowMs + marginOf(this.windowMs));
		// Left at its end: our calls sent after it are another window's (the window ended with room, not spent by others).
		const leftAtEnd = c.remaining - this.sends.count((at, t) => t > c.asOf && at < c.endsAt);
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
		const c = this.ends.current;
		if (!c || now < c.endsAt || this.limit === undefined) return false;
		// Only when the answers come back within a window: waiting a 5 s answer for a 1 s window lost more than refusals.
		if (latencyMs === undefined || !(latencyMs < this.ends.leastLength)) return false;
		return this.sends.count((at) => at >= c.endsAt) >= this.limit;
	}


	/** With the limit and the window's length known: the time our own calls of the last window's length fall under the limit. */
	private ownLimit(now: number): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		// A told window's calls going together: counted in our own windows, the next goes together when ours ends.
		if (this.inOwnWindows(now) && this.burstSpan() !== undefined) return this.burst.holdUntil(now, this.limit);
		const span = this.windowMs + marginOf(this.windowMs);
		const recent = this.sends.times((at) => at > now - span);
		return recent.length >= this.limit ? recent[recent.length - this.limit] + span : undefined;
	}
}
