/**
 * The windows whose ends the answers tell only to the second (the IETF fields' `t`, a reset in whole seconds), for
 * quota-window.ts, once the window's length is known. A count told there is spent as exact-ends.ts counts it: by our
 * calls since, and by the others' at the pace the last two counts showed. Spent, it holds the calls until the
 * earliest the window can end, or until the end of the window our oldest call opened when that falls in between.
 * Sent on instead, each process's next call was refused, and the refusal told no more than the count: its delay is
 * in whole seconds too (three processes at 25 per 10 s, IETF fields: 3 refusals a window). Past our share of a
 * shared window (exact-ends.ts's shareOf), no call goes just to find out, as with exact ends. Pure: the caller gives
 * the times.
 */
import { ExactEnds, type ToldQuota } from './exact-ends';
import type { OwnSends } from './own-sends';

/**
 * Two ends told to the second are one window's when closer than this share of the window: the rounding and the
 * answers' time move one end by a second or more; two windows' ends are a window apart.
 */
const SAME_WINDOW_SHARE = 0.5;

export class RoundedEnds {
	/** The windows told, counted as exact ones are (the same count, the same others' pace). */
	private readonly ends: ExactEnds;
	/** The current window's end lies between these: the latest of its readings' earliest bounds, the earliest of its readings. */
	private bounds?: { from: number; until: number };
	private windowMs = 0;
	/** The earliest end a refusal told to the second, where the answers tell none (refusedUntil). */
	private refusedFrom?: number;

	/**
	 * @param sends our calls not refused.
	 * @param unansweredBefore our calls sent before the call `ticket` that are still unanswered (InFlight.before).
	 */
	constructor(
		private readonly sends: OwnSends,
		unansweredBefore: (ticket: number, since: number) => number,
	) {
		this.ends = new ExactEnds(sends, unansweredBefore, () => SAME_WINDOW_SHARE * this.windowMs);
	}

	/**
	 * The end told for our call `ticket` in a window of `windowMs`: at `resetAt` at the latest, `precisionMs` before it
	 * at the earliest (rate-fields.ts: the rounding and the answer's time), with the count left; `q`, the told quota
	 * (our share of a shared window is taken with it).
	 */
	learn(resetAt: number, precisionMs: number, remaining: number, ticket: number, windowMs: number, q?: ToldQuota): void {
		// Rounder than half the window, a reading cannot tell one window's end from the next's.
		if (precisionMs >= SAME_WINDOW_SHARE * windowMs) return;
		this.windowMs = windowMs;
		const before = this.ends.current;
		this.ends.learn(resetAt, remaining, ticket, undefined, q);
		const c = this.ends.current;
		if (!c) return;
		const same = SAME_WINDOW_SHARE * windowMs;
		if (!before || c.endsAt > before.endsAt + same) this.bounds = undefined;
		// A reading of an older window (its answer came late) bounds nothing of this one.
		if (Math.abs(resetAt - c.endsAt) > same) return;
		const b = this.bounds;
		this.bounds = { from: Math.max(b?.from ?? -Infinity, resetAt - precisionMs), until: Math.min(b?.until ?? Infinity, resetAt) };
	}

	/** A refusal told that the window ends after `from` (its delay to the second), where the answers tell no end. */
	refusedUntil(from: number): void {
		this.refusedFrom = from;
	}

	/**
	 * A count told without an end (`X-RateLimit-*` without a reset) for our call `ticket` sent at `sentAt`, for the told
	 * quota `q` (windows of `windowMs`; `span`: with its margin). After a refusal told its window's end to the second,
	 * the next window began after that end and by our first call since at the latest: it ends a window later, and the
	 * count is spent as one told with that end. Sent on instead, each of three processes was refused at every window's
	 * end (25 per 10 s: 10.8 % of requests answered 429).
	 */
	learnCount(remaining: number, ticket: number, sentAt: number, q: ToldQuota): void {
		const { windowMs, span } = q;
		const from = this.refusedFrom;
		if (from === undefined || sentAt < from || sentAt >= from + windowMs) return;
		const firstSince = this.sends.times((at) => at >= from)[0];
		if (firstSince === undefined) return;
		const until = firstSince + span;
		this.learn(until, until - (from + windowMs), remaining, ticket, windowMs, q);
	}

	/**
	 * Until when the calls wait at `now`: the current window spent (as the count and the others' pace tell), until the
	 * earliest it can end, or `opened` (when the window our oldest call opened ends) if that falls in its bounds.
	 * Spent only as the others' pace foretells, one call goes when none of ours is out (exact-ends.ts: its answer tells),
	 * unless our calls reached our share of a shared window (`latencyMs`: the answers'; three processes at 25 per 60 s,
	 * IETF fields, 1 s answers: one such call each a window, 7.7 % → 4.4 % answered 429).
	 */
	holdUntil(now: number, opened: number | undefined, latencyMs?: number): number | undefined {
		const c = this.ends.current;
		const b = this.bounds;
		if (!c || !b || now >= b.from || this.ends.left(c, now) > 0) return undefined;
		if (this.ends.left(c) > 0 && this.ends.noneOut() && this.ends.shareReachedAt(latencyMs) === undefined) return undefined;
		return opened !== undefined && opened > b.from && opened <= b.until ? opened : b.from;
	}
}
