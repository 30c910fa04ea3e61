/**
 * Whether a told window's calls may go together, for a quota told without exact window ends (IETF fields, counts
 * with a reset in whole seconds): a fixed window lets its limit go when it opens, and spreading its calls evenly
 * lost most of a window each time (IETF fields, 25 per 60 s, one process: 1.35 × the quota-bound limit). Only a
 * client alone on the key may: the counts told show it (quota-window.ts asks, for each count). While it may, our
 * calls are counted in windows of our own, each opened by our first call after the last one ended, so that the
 * next window's calls go together when ours ends, not one by one as each of ours leaves a sliding count (which
 * replayed the first window's slow start in every window: 1.07 × for 1.03 × with `Retry-After` alone). Pure.
 */
import { SAME_WINDOW_MS } from './learned-length';
import { OwnSends } from './own-sends';

/** The stretch of our calls a count must cover to show the key alone: a second, or half a shorter window. */
export const ALONE_STRETCH = { ms: 1_000, ofWindow: 0.5 };
export const aloneStretch = (windowMs: number) => Math.min(ALONE_STRETCH.ms, ALONE_STRETCH.ofWindow * windowMs);

export class ToldBurst {
	/** @param sends our calls not refused (the lane's, which quota-window.ts keeps). */
	constructor(private readonly sends: OwnSends = new OwnSends()) {}

	/** A count told was below the limit less our own calls: others share the key. Sticky: a key once shared keeps its calls spread. */
	private sharedSeen = false;
	/** A count told for an answered call of ours, over a stretch of our calls, showed no call but ours. */
	private aloneSeen = false;
	/** Our window: when our first call in it went, and our calls in it (not refused). */
	private group?: { start: number; calls: number; span: number };
	/** Our calls before this went in a window that ended (startsAt): a count told since does not cover them. */
	private countsFrom = -Infinity;

	/**
	 * A count told (`remaining` of `limit`) for our call sent at `sentAt`: `oursWithin` our calls of the window's span
	 * up to it and those sent just after it (they may have reached the server first), `oursUpTo` our calls of the span
	 * up to it, `firstOfSpan` when the first of those went; `windowMs` the told window.
	 */
	noteCount(remaining: number, limit: number, sentAt: number, oursWithin: number, oursUpTo: number, firstOfSpan: number | undefined, windowMs: number): void {
		if (this.sharedSeen) return;
		if (remaining < limit - oursWithin) this.sharedSeen = true;
		// Over a stretch of our calls (ALONE_STRETCH): calls sent within a moment are counted before anyone else's
		// could be. Three processes each took its first burst's counts for the key alone and sent a window's calls
		// (1.20 × → 1.24 ×); with the second starting 0.5 s after the first, 1.21 × → 1.40 × over 0.45 s of calls.
		else if (firstOfSpan !== undefined && sentAt - firstOfSpan >= aloneStretch(windowMs) && remaining >= limit - oursUpTo) this.aloneSeen = true;
	}

	/** A count told for our call sent at `sentAt`: our calls of the window's span (`span`: the window and its margin) around it. */
	noteCountFor(remaining: number, limit: number, sentAt: number, windowMs: number, span: number): void {
		// A call before the window our calls are counted from (startsAt) went in an earlier one, whose calls are not known.
		if (sentAt < this.countsFrom) return;
		const within = this.sends.times((at) => at > sentAt - span && at >= this.countsFrom && at <= sentAt + SAME_WINDOW_MS);
		const upTo = within.filter((at) => at <= sentAt);
		this.noteCount(remaining, limit, sentAt, within.length, upTo.length, upTo[0], windowMs);
	}

	/** A count showed others' calls on the key. */
	get shared(): boolean {
		return this.sharedSeen;
	}

	/** The counts showed this client alone on the key, and never others. */
	get alone(): boolean {
		return this.aloneSeen && !this.sharedSeen;
	}

	/**
	 * The window's length was learned late, from ends told to the second: our windows start with our first call
	 * counted in the current one (sent at `start`), as anchor's; a count told since covers only our calls since
	 * (counted with our calls of the window before, three processes each took its count for the key alone and sent
	 * 13 calls at once). A call of ours refused in it showed it full (`limit`), as onRefused does.
	 */
	startsAt(start: number, span: number, limit: number | undefined): void {
		this.countsFrom = start;
		this.anchor(start, span);
		if (this.group && this.sends.refusedWithin(this.group.start, Infinity)) this.fill(limit);
	}

	/** Once the window's length is known (`span`: with its margin), our windows begin with our calls of the last span (sent before it was). */
	seedFrom(now: number, span: number): void {
		if (this.group) return;
		const recent = this.sends.times((at) => at > now - span);
		if (recent.length > 0) this.group = { start: recent[0], calls: recent.length, span };
	}

	/**
	 * A window's exact end was told: our windows since are chained from it, each opened by our first call after the
	 * last one ended, as the server opens them (`span`: the window and its margin).
	 */
	anchor(end: number, span: number): void {
		let group: { start: number; calls: number; span: number } | undefined;
		for (const at of this.sends.times((t) => t >= end)) {
			if (!group || at >= group.start + group.span) group = { start: at, calls: 0, span };
			group.calls++;
		}
		this.group = group;
	}

	/** Our call went at `at`; `span`: the told window and its margin. */
	onSend(at: number, span: number | undefined): void {
		if (span === undefined) return;
		if (!this.group || at >= this.group.start + this.group.span) this.group = { start: at, calls: 0, span };
		this.group.calls++;
	}

	/**
	 * Our call sent at `sentAt` was refused: the server's window was spent, and ours is out of step with it (our
	 * windows begin with our calls, the server's may begin earlier). Ours is full: the refusal's pause ends at the
	 * server's end, and our next window begins with the first call after it. Counting the refused call out instead
	 * sent it again at once, into the same spent window (1 s windows, 1 s answers: 40 % answered 429).
	 */
	onRefused(sentAt: number, limit: number | undefined): void {
		if (sentAt >= (this.group?.start ?? Infinity)) this.fill(limit);
	}

	/** Our window is full: the server counted its window spent (a refusal in it). */
	private fill(limit: number | undefined): void {
		if (this.group && limit !== undefined) this.group.calls = Math.max(this.group.calls, limit);
	}

	/** Until when our window, full (`limit` calls), holds the next call; undefined when it has room or has ended. */
	holdUntil(now: number, limit: number): number | undefined {
		const g = this.group;
		if (!g || now >= g.start + g.span || g.calls < limit) return undefined;
		return g.start + g.span;
	}

	/** The calls our window leaves (the limit less ours in it); the whole limit once it has ended. */
	left(now: number, limit: number): number {
		const g = this.group;
		return !g || now >= g.start + g.span ? limit : Math.max(0, limit - g.calls);
	}
}
