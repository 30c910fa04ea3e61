/**
 * The windows whose exact ends (to the millisecond) the answers told, for quota-window.ts: the current one, with
 * the count left in it, the one before, and the window's length the ends show. What our own calls leave in the
 * current window is counted here, against our calls not refused (own-sends.ts), and so is whether this client is
 * alone in it, and what it may then send at once. Pure: the caller gives the times.
 */
import { LearnedLength, SAME_WINDOW_MS } from './learned-length';
import type { OwnSends } from './own-sends';

/** A window told: its end, and the count left in it told for our call `asOf`. */
export interface ToldEnd {
	endsAt: number;
	remaining: number;
	asOf: number;
}

/** A told quota: calls per window, the window's length, and the span its calls are counted over (the window and its margin: quota-window.ts). */
export interface ToldQuota {
	limit: number;
	windowMs: number;
	span: number;
}

/** Others' pace is read from counts told for our calls at least this far apart (ms): calls sent closer reach the server in any order. */
const MIN_PACE_SPAN_MS = 200;

export class ExactEnds {
	/** An answer told an exact end. */
	seen = false;
	/** The current window. */
	current?: ToldEnd;
	/** The exact end of the window before the current one (our calls after it were counted in the current one). */
	private previousEnd?: number;
	/** The counts told for our calls in the current window, by ticket: a later call told more left was counted before. */
	private readonly toldLeft = new Map<number, number>();
	/** The window's length as exact ends show it (taken when no answer states it). */
	private readonly learned = new LearnedLength();
	/** Our calls the window just before the current one let through, when others spent it and it refused one of ours (shareOf). */
	private shareBefore?: number;
	/** The end of the window whose successor's share was given (shareOfNext). */
	private sharedFor?: number;
	/** The end of the window whose count was given at once, the key alone (leftAlone). */
	private aloneGivenFor?: number;

	/**
	 * @param sends our calls not refused.
	 * @param unansweredBefore our calls sent before the call `ticket` that are still unanswered (InFlight.before).
	 * @param sameWindowMs two ends closer than this are one window's: SAME_WINDOW_MS for ends told to the millisecond
	 * (rounded-ends.ts gives a wider one for ends told to the second).
	 */
	constructor(
		private readonly sends: OwnSends,
		private readonly unansweredBefore: (ticket: number, since: number) => number,
		private readonly sameWindowMs: () => number = () => SAME_WINDOW_MS,
	) {}

	/** About the least a window can last (LearnedLength.leastLength). */
	get leastLength(): number {
		return this.learned.leastLength;
	}

	/** An exact end told for our call `ticket` (`precisionMs`: how late it may be read), with the count left if told; returns the window's length the ends show, if any. */
	learn(resetAt: number, remaining: number | undefined, ticket: number, precisionMs?: number, q?: ToldQuota): number | undefined {
		this.seen = true;
		const length = this.learned.learn(resetAt, this.sends.sentAt(ticket), precisionMs);
		// Kept also when the window has ended by the time its answer comes (an answer as slow as a window): its end
		// anchors the count of our calls since (holdUntil); without it a lone client fell back to its own sliding count
		// (S1 on the real sandbox, 1 s answers for 1 s windows: 1.10 × -> 1.05 ×).
		if (remaining === undefined) return length;
		const told = { endsAt: resetAt, remaining, asOf: ticket };
		const c = this.current;
		const same = this.sameWindowMs();
		if (!c || resetAt > c.endsAt + same) {
			// Of the window just before only (shareOf reads `current` and `previousEnd` as they were in it).
			this.shareBefore = c && q && resetAt - c.endsAt < 2 * q.windowMs ? this.shareOf(c, q) : undefined;
			this.previousEnd = c?.endsAt;
			this.current = told;
			this.toldLeft.clear();
		}
		else if (resetAt >= c.endsAt - same && this.left(told) < this.left(c)) this.current = told;
		if (this.current && Math.abs(resetAt - this.current.endsAt) <= same) this.toldLeft.set(ticket, remaining);
		return length;
	}

	/**
	 * Calls left in a told window: the count told, less our calls sent after the one it was told for, and less our
	 * calls sent before it that are still unanswered: the calls of one burst reach the server out of order, and one of
	 * them may be counted after the call told for (on virtual time, a lone client's burst: 2 calls left where none
	 * were, 12 calls sent into the next window for 10, and the client went back to spreading its calls). At `now`,
	 * less the others' calls since, at their pace (othersPace).
	 */
	left(c: ToldEnd, now?: number): number {
		// Only those sent within a moment of it may reach the server after it: counting every call still out (those sent
		// a second before, in 1 s answers) held a lone client a window early, 29 calls of 30 sent (1.24 × in 1 run of 4).
		const sentAt = this.sends.sentAt(c.asOf);
		// A call sent after it whose own count told more left reached the server first: it is in the count already.
		const countedAfter = this.sends.count((_at, t) => t > c.asOf && !((this.toldLeft.get(t) ?? -1) > c.remaining));
		// Others' calls since it was counted, at the pace the counts showed them (three processes on 10 s windows, 1 s answers:
		// each sent a call the others had spent, 10 % → 8 % answered 429; on 1 s windows, 1.21 × → 1.13 ×).
		const others = now === undefined || sentAt === undefined ? 0 : this.othersPace() * Math.max(0, now - sentAt);
		return c.remaining - countedAfter - this.unansweredBefore(c.asOf, sentAt === undefined ? -Infinity : sentAt - SAME_WINDOW_MS) - others;
	}

	/** None of our calls is unanswered. */
	noneOut(): boolean {
		return this.unansweredBefore(Number.MAX_SAFE_INTEGER, -Infinity) === 0;
	}

	/** Others' calls a millisecond in the current window, lately: what the last two counts told fell by, less our calls between them, over the time between. */
	private othersPace(): number {
		let first: [number, number, number] | undefined;
		let last: [number, number, number] | undefined;
		const told: Array<[number, number, number]> = [];
		for (const [ticket, remaining] of this.toldLeft) {
			const at = this.sends.sentAt(ticket);
			if (at !== undefined) told.push([ticket, at, remaining]);
		}
		for (const t of told) if (!last || t[1] > last[1]) last = t;
		// The latest count at least MIN_PACE_SPAN_MS before the last: the pace now, so that others who stopped stop counting
		// (from the window's first count, a process held the last call of a window one that finished no longer took: 20
		// per 12 s, three processes, 1.099 × for 1.032 ×).
		for (const t of told) if (last && t[1] <= last[1] - MIN_PACE_SPAN_MS && (!first || t[1] > first[1])) first = t;
		if (!first || !last || last[1] - first[1] < MIN_PACE_SPAN_MS) return 0;
		const [a, aAt, aLeft] = first;
		const [b, bAt, bLeft] = last;
		const ours = this.sends.count((_at, t) => t > a && t <= b);
		return Math.max(0, aLeft - bLeft - ours) / (bAt - aAt);
	}

	/** Our calls counted in the window of `windowMs` ending at `endsAt` (`span`: the window and its margin). */
	ours(endsAt: number, windowMs: number, span: number): number {
		const start = this.startOf(endsAt, windowMs, span);
		return this.sends.count((at) => at >= start && at < endsAt);
	}

	/** When the latest of our calls with a count told in the current window went (undefined: none kept). */
	lastToldAt(): number | undefined {
		let last: number | undefined;
		for (const ticket of this.toldLeft.keys()) {
			const at = this.sends.sentAt(ticket);
			if (at !== undefined && (last === undefined || at > last)) last = at;
		}
		return last;
	}

	/** When the first of our calls counted in that window went (undefined: none kept). */
	firstOurs(endsAt: number, windowMs: number, span: number): number | undefined {
		const start = this.startOf(endsAt, windowMs, span);
		return this.sends.times((at) => at >= start && at < endsAt)[0];
	}

	/**
	 * The calls counted in the current window (the count told, and our calls since) are no more than our own calls in
	 * it: this client is alone on the key (false when unknown). One test for both the burst of a window's calls and
	 * shareOfNext (a second one, on the count told alone, missed answers that came out of order: S2 on the real
	 * sandbox went spread again, 21.3 s).
	 */
	alone(q: ToldQuota): boolean {
		const c = this.current;
		if (!c) return false;
		const ours = this.ours(c.endsAt, q.windowMs, q.span);
		// Left at its end: our calls sent after it are another window's (the window ended with room, not spent by others).
		const leftAtEnd = c.remaining - this.sends.count((at, t) => t > c.asOf && at < c.endsAt);
		return q.limit - Math.max(0, leftAtEnd) <= ours;
	}

	/**
	 * Alone on the key within the current window: what its count leaves at `now`, which may go at once, once a window
	 * and over a stretch (`stretch`) of our calls in it. Undefined otherwise. A key the others left mid-run (their items
	 * done) had its last windows' calls spread at the told pace until a window's end gave the next window's share:
	 * three processes at 25 per 60 s, one left with 15 calls spread over 34 s (1.064 × where `Retry-After` alone took
	 * 1.004 ×).
	 */
	leftAlone(now: number, q: ToldQuota, stretch: number): number | undefined {
		const c = this.current;
		if (!c || now >= c.endsAt || !this.alone(q)) return undefined;
		// Once a window: one end read twice, a little apart, is one window (SAME_WINDOW_MS).
		if (this.aloneGivenFor !== undefined && Math.abs(this.aloneGivenFor - c.endsAt) <= SAME_WINDOW_MS) return undefined;
		// Over a stretch of our calls in the window (told-burst.ts's ALONE_STRETCH): at a window's start, the count for our
		// first calls shows no one else before the others' first calls came (three processes: 7 % → 12-20 % answered 429).
		const first = this.firstOurs(c.endsAt, q.windowMs, q.span);
		const toldFor = this.lastToldAt();
		if (first === undefined || toldFor === undefined || toldFor - first < stretch) return undefined;
		this.aloneGivenFor = c.endsAt;
		return Math.max(0, Math.floor(this.left(c)));
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
	shareOfNext(at: number, q: ToldQuota, filledByOurs: boolean): number | undefined {
		const c = this.current;
		if (!c || at < c.endsAt || this.sharedFor === c.endsAt) return undefined;
		if (filledByOurs && this.ours(c.endsAt, q.windowMs, q.span) < q.limit) return undefined;
		this.sharedFor = c.endsAt;
		if (!this.alone(q)) return undefined;
		return Math.max(0, q.limit - this.sends.count((sentAt) => sentAt >= c.endsAt));
	}

	/**
	 * Our calls since the told end of the current window already reach the limit, or our share when others spent that
	 * window and it refused one of ours (`q`: shareOf): the calls beyond wait for the answers to those calls, which tell
	 * the new window's exact end and what it has left. Without them, a new window's length unknown, the
	 * calls beyond went at the slow start's rate (S2's first window turn: 5 to 16 refused); with the length known, they
	 * waited a window and its margin from the first call, foretold before any answer came (S3, instant answers: 30 ms
	 * lost at each window, 1.039 × the quota-bound limit).
	 */
	spentUntilTold(now: number, limit: number, latencyMs: number | undefined, q?: ToldQuota): boolean {
		const c = this.current;
		if (!c || now < c.endsAt) return false;
		// Only when the answers come back within a window: waiting a 5 s answer for a 1 s window lost more than refusals.
		if (latencyMs === undefined || !(latencyMs < this.leastLength)) return false;
		const share = q === undefined ? undefined : this.shareOf(c, q);
		return this.sends.count((at) => at >= c.endsAt) >= Math.min(limit, share ?? limit);
	}

	/**
	 * Within the window after a shared one was spent, our calls in it reach our share of that one and the count for
	 * the last call of that share is not told yet: the next call waits for it.
	 */
	awaitsCount(now: number, latencyMs: number | undefined): boolean {
		const c = this.current;
		const reached = this.shareReachedAt(latencyMs);
		if (!c || now >= c.endsAt || reached === undefined || this.noneOut()) return false;
		const told = this.lastToldAt();
		return told === undefined || told < reached;
	}

	/**
	 * When the last call of our share of the window just before went, once our calls in the current window reach it
	 * (shareBefore); only when the answers come back within a window (`latencyMs`), as spentUntilTold.
	 */
	shareReachedAt(latencyMs: number | undefined): number | undefined {
		const [c, share, start] = [this.current, this.shareBefore, this.previousEnd];
		if (!c || share === undefined || start === undefined) return undefined;
		if (latencyMs === undefined || !(latencyMs < this.leastLength)) return undefined;
		const ours = this.sends.times((at) => at >= start && at < c.endsAt);
		return ours.length >= share ? ours[share - 1] : undefined;
	}

	/**
	 * Our calls the window `c` let through, when others spent it and it refused one of ours: our share of the key,
	 * which the next window's first calls keep to until its answers tell what is left; one call when it let none of
	 * ours through. Not for a window shorter than half the told one (an end read twice a little apart, on a server's
	 * clock not yet known: a lone client was held to one call).
	 */
	private shareOf(c: ToldEnd, q: ToldQuota): number | undefined {
		const start = this.startOf(c.endsAt, q.windowMs, q.span);
		if (c.endsAt - start < q.windowMs / 2 || !this.sends.refusedWithin(start, c.endsAt)) return undefined;
		if (this.alone(q) || this.left(c) > 0) return undefined;
		return Math.max(1, this.ours(c.endsAt, q.windowMs, q.span));
	}

	/**
	 * From when our calls count in the window ending at `endsAt`: the previous window's end, when that window is the
	 * one just before (it ended less than two windows before this one); else a window (and its margin) before the
	 * end. A burst sent at the previous end reaches the server over some 100 ms, and a window that starts with its
	 * first call then starts after the calls were sent (S2 on the real sandbox: half of the 50 calls sent at the end
	 * counted as others', the windows after went spread, 1.34 ×).
	 */
	private startOf(endsAt: number, windowMs: number, span: number): number {
		const justBefore = this.previousEnd !== undefined && this.previousEnd > endsAt - 2 * windowMs;
		return justBefore ? (this.previousEnd as number) : endsAt - span;
	}
}
