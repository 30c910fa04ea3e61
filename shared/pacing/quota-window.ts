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
 *   told to the second (or implied by a refusal's, for the next window) and the window's length known (stated, or
 *   learned from those ends), a spent count holds until the earliest that end can be.
 * Its parts: rate-window.ts, what an answer says; own-sends.ts, our calls not refused; exact-ends.ts, the windows
 * whose exact ends were told; rounded-ends.ts, those whose ends were told to the second; learned-length.ts, the
 * length their ends show; told-burst.ts, without exact ends, our own windows.
 * Whether the answers show room is room-signal.ts's (the lane asks it beside this). Pure: the caller gives the time
 * of each event.
 */

import { ExactEnds, type ToldQuota } from './exact-ends';
import { RoundedLength, SAME_WINDOW_MS } from './learned-length';
import { OwnSends } from './own-sends';
import { DELAY_PRECISION_MS } from './refusal-hold';
import type { RateWindow } from './rate-window';
import { RoundedEnds } from './rounded-ends';
import { ToldBurst, aloneStretch } from './told-burst';

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
 * quota-bound limit, where `Retry-After` alone took 1.004 ×; 1.022 × at twice the pace, and the same 429s). Three
 * times: 429s over 10 % at 25 per 10 s. With exact ends, twice the pace gained as much, but a process left alone in
 * the last window lost its burst there (25 per 60 s from a server 3 s away: 1.010 × → 1.035 ×); it keeps the told pace.
 */
export const SHARED_PACE = 2;
/**
 * …and never slower than a window's limit in this time: at twice the told pace of a long window, a process the
 * others left in the last window still trailed its calls over it (50 per 120 s, three processes, 2 s answers:
 * `X-RateLimit-*` without a reset 1.073 ×, the IETF fields 1.069 ×, where `Retry-After` alone took 1.004 ×; now
 * 1.027 × and 1.015 ×). 10 s: 429s over 10 % at 25 per 60 s with 5 s answers.
 */
export const SHARED_SPREAD_MAX_MS = 20_000;
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
	 * A refusal's delay told the window's end (`precisionMs` before `at` at the earliest), answered at `answeredAt`:
	 * with a limit told, the next window begins after it (rounded-ends.ts's learnCount), and with no length stated it
	 * shows the window's length as an answer's end does (`X-RateLimit-*` without a reset tells its ends only there).
	 * Returns whether it told the length.
	 */
	onRefusalEnd(at: number, precisionMs: number, answeredAt: number): boolean {
		if (this.limit === undefined || this.exact) return false;
		this.rounded.refusedUntil(at - precisionMs);
		return !this.stated && this.learnLength(at, precisionMs, Infinity, answeredAt);
	}

	/** A count told without an end, for our call `ticket`: spent as rounded-ends.ts's learnCount says, once the window's length is known. */
	private learnCount(remaining: number | undefined, ticket: number): void {
		const [sentAt, q] = [this.sentAt(ticket), this.told];
		if (remaining !== undefined && q !== undefined && !this.exact && sentAt !== undefined) this.rounded.learnCount(remaining, ticket, sentAt, q);
	}

	/** A refused call (sent at `sentAt`) was not counted by the server. */
	onRefused(ticket: number, sentAt?: number): void {
		const kept = this.sends.remove(ticket, sentAt);
		if (kept !== undefined) this.burst.onRefused(kept, this.limit);
	}

	/**
	 * What the answer to our call `ticket` said; `answeredAt`, when it came (a length is learned from ends told to the
	 * second only with it); `refused`, the call was refused (429).
	 */
	learn(w: RateWindow, ticket: number, answeredAt?: number, refused = false): void {
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
		// A refusal's exact end, before any answer to a counted call told one: answered at once, its end is exact where
		// the others' (a duration read from a slow answer) are rough, and made exact, they were no longer read: each of
		// three processes probed every window of a minute, 10.1 % answered 429 (6.6-9.8 % as one reading more of the
		// window, as precise as two readings of one end, or the server clock's spread).
		const rough = w.resetExact === false || (refused && !this.exact);
		if (rough) {
			if (this.exact) return;
			const sentAt = this.sentAt(ticket);
			const precision = w.resetExact === false ? (w.resetPrecisionMs ?? DELAY_PRECISION_MS) : Math.max(SAME_WINDOW_MS, w.resetPrecisionMs ?? 0);
			// A refusal's length is the lane's to learn (onRefusalEnd): its call was not counted.
			if (!this.stated && !refused && w.resetSettled === true && answeredAt !== undefined && sentAt !== undefined) this.learnLength(w.resetAt, precision, sentAt, answeredAt);
			if (w.remaining === undefined || this.windowMs === undefined) return;
			this.rounded.learn(w.resetAt, precision, w.remaining, ticket, this.windowMs, this.told);
			return;
		}
		const length = this.ends.learn(w.resetAt, w.remaining, ticket, w.resetPrecisionMs, this.told);
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
	private learnLength(at: number, precisionMs: number, sentAt: number, answeredAt: number): boolean {
		const length = this.roundedLength.learn(at, precisionMs, sentAt, answeredAt);
		if (length === undefined || length === this.windowMs) return false;
		this.windowMs = length;
		const current = this.roundedLength.current;
		// Told by refusals alone, the current window began after the one before ended: at its earliest end, if not known closer.
		const start = current && current.firstSent < Infinity ? current.firstSent : (this.roundedLength.previous?.from ?? current?.from);
		if (start !== undefined) this.burst.startsAt(start, length + marginOf(length), this.limit);
		return true;
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

	/** The told rate (calls per second), when both the limit and the window's length are known: for a key shared without exact ends, SHARED_PACE times it, a window's limit in SHARED_SPREAD_MAX_MS at the least. */
	toldRate(): number | undefined {
		if (this.limit === undefined || this.windowMs === undefined) return undefined;
		// Alone with exact ends, the holds keep the margin (holdUntil): a rate under the limit only spread a window's calls past its end.
		if (this.exact && this.alone) return (this.limit * 1_000) / this.windowMs;
		const told = (this.limit * 1_000) / (this.windowMs + marginOf(this.windowMs));
		return !this.exact && this.burst.shared ? Math.max(SHARED_PACE * told, (this.limit * 1_000) / SHARED_SPREAD_MAX_MS) : told;
	}

	/** A told quota, with the span its calls are counted over (the window and its margin), when the limit and length are known. */
	private get told(): ToldQuota | undefined {
		return this.limit === undefined || this.windowMs === undefined ? undefined : { limit: this.limit, windowMs: this.windowMs, span: this.windowMs + marginOf(this.windowMs) };
	}

	/** Alone on the key within a window whose exact end was told: what its count leaves now, which may go at once (exact-ends.ts's leftAlone). */
	leftInToldAlone(now: number): number | undefined {
		const q = this.told;
		return q && this.ends.leftAlone(now, q, aloneStretch(q.windowMs));
	}

	/** At the exact end of the current window, `at`, a lone client's share of the next window, once (exact-ends.ts's shareOfNext). */
	shareOfNext(at: number, filledByOurs = false): number | undefined {
		const q = this.told;
		return q && this.ends.shareOfNext(at, q, filledByOurs);
	}

	/** This client is alone on the key in the current window whose exact end was told (exact-ends.ts's alone; false when unknown). */
	get alone(): boolean {
		const q = this.told;
		return q !== undefined && this.ends.alone(q);
	}

	/** Our calls since the current window's exact end reach the limit, or our share of it (shared): the next waits for their answers (exact-ends.ts). */
	spentUntilTold(now: number, latencyMs: number | undefined): boolean {
		return this.limit !== undefined && this.ends.spentUntilTold(now, this.limit, latencyMs, this.told);
	}

	/**
	 * Calls may not go before this time: the current window is spent and its exact end is known; or, before any
	 * answer told an exact window, our own calls of the last window's length already reach the limit (the calls sent
	 * before the first answer told the quota). Within a told window, and past its end with fewer of our calls than the
	 * limit, the counts are the server's own and nothing else holds: our own sliding count, kept there too, held a lone
	 * client to 10 calls per 1.05 s where 10 per 1 s were allowed (S1 1.13 ×, S3 1.14 × on the real sandbox). Past our
	 * share of a shared window, the count for it is waited for (exact-ends.ts's awaitsCount; `latencyMs`: the answers').
	 */
	holdUntil(now: number, latencyMs?: number): number | undefined {
		const c = this.ends.current;
		if (!c) {
			const own = this.ownLimit(now);
			const rounded = this.rounded.holdUntil(now, this.endIfOpenedByOurs(now), latencyMs);
			return rounded === undefined ? own : Math.max(rounded, own ?? -Infinity);
		}
		if (now < c.endsAt) {
			if (this.ends.awaitsCount(now, latencyMs)) return c.endsAt;
			if (this.ends.left(c, now) > 0) return undefined;
			// Spent only as the others' pace foretells: one call goes when none of ours is out, and its answer tells (held,
			// a window's last call was lost when the others had finished: 20 per 45 s, three processes, 1.091 × for 1.028 ×).
			// Not past our share: each of three processes sent one there, two were refused (exact-ends.ts's shareOf).
			return this.ends.left(c) > 0 && this.ends.noneOut() && this.ends.shareReachedAt(latencyMs) === undefined ? undefined : c.endsAt;
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
