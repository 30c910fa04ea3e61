/**
 * Polling state for the two trigger events: pure functions of what was read
 * and what was kept, shared by both platforms. The reads themselves are in
 * reads.ts.
 *
 * New Published Post keeps a Gmail-style watermark: the newest publication
 * time seen plus the ids published at exactly that time. The spec does not
 * say how /posts is sorted, so the reads find the order from the times they
 * see (see PostOrder in stamped-reads.ts): one request per quiet poll when the
 * list is newest first, the whole list (bounded) when it is not. Upcoming
 * Scheduled Draft keeps the (draft, scheduled time) pairs already fired that
 * still lie in the future (its calendar window is calendar-window.ts). Both
 * states are bounded whatever the history.
 */
import type { Obj, CalendarEntry } from '../base';
import { ValidationError } from '../errors';
import { stampPosts } from './stamped-reads';
import type { StampedItem } from './stamped-reads';
import { MAX_LOOKAHEAD_DAYS } from './field-options';
import type { NotifyUnit } from './field-options';
import type { PostWatermarkState } from './watermark';
import { MAX_IDS_AT_WATERMARK } from './watermark';
import { upcomingKey, upcomingTimed } from './calendar-window';


/**
 * New Published Post keeps at most MAX_IDS_AT_WATERMARK ids at one timestamp
 * (watermark.ts), and at most this many characters of them as JSON, so that
 * the state stays under 4 KB whatever the id shape (100 sandbox ids take
 * ~1.3 KB; 100 UUIDs would take ~3.9 KB, so the character bound applies
 * first). Beyond the bound, the oldest-recorded ids at that instant are
 * forgotten: a post published in the very same millisecond as more than that
 * many others may fire a second time. It is never missed.
 */
export const MAX_IDS_JSON_CHARS = 3_000;

/** The last ids of the list (the most recent additions) within both bounds. */
function boundIds(ids: string[]): string[] {
	const out: string[] = [];
	let chars = 0;
	for (let i = ids.length - 1; i >= 0 && out.length < MAX_IDS_AT_WATERMARK; i--) {
		chars += JSON.stringify(ids[i]).length + 1;
		if (chars > MAX_IDS_JSON_CHARS) break;
		out.push(ids[i]);
	}
	return out.reverse();
}

/** True when the item is newer than the watermark (or at it with an unseen id). */
function isNew(item: StampedItem, state: PostWatermarkState, seen: Set<string>): boolean {
	if (!state.watermark) return true;
	const w = Date.parse(state.watermark);
	return item.at > w || (item.at === w && !seen.has(item.id));
}

/**
 * Given the posts read (any order), returns those that must fire, newest
 * first, and the next state. The first call only records the watermark.
 */
export function selectNewPosts(records: Obj[], state: PostWatermarkState): { fresh: Obj[]; state: PostWatermarkState } {
	const items = stampPosts(records);
	if (!state.initialised) {
		const top = items[0];
		if (!top) return { fresh: [], state: { initialised: true } };
		return {
			fresh: [],
			state: {
				initialised: true,
				watermark: new Date(top.at).toISOString(),
				idsAtWatermark: boundIds(items.filter((i) => i.at === top.at).map((i) => i.id)),
			},
		};
	}
	const seen = new Set(state.idsAtWatermark ?? []);
	const fresh = items.filter((i) => isNew(i, state, seen));
	if (fresh.length === 0) return { fresh: [], state };
	const newest = fresh[0].at;
	const previous = state.watermark ? Date.parse(state.watermark) : -Infinity;
	const ids =
		newest === previous
			? [...(state.idsAtWatermark ?? []), ...fresh.filter((i) => i.at === newest).map((i) => i.id)]
			: fresh.filter((i) => i.at === newest).map((i) => i.id);
	return {
		fresh: fresh.map((i) => i.record),
		state: {
			initialised: true,
			watermark: new Date(Math.max(newest, previous)).toISOString(),
			idsAtWatermark: boundIds([...new Set(ids)]),
		},
	};
}

/** Records oldest first: the order in which the triggers emit the posts that fire. */
export function oldestFirst(records: Obj[]): Obj[] {
	return stampPosts(records)
		.reverse()
		.map((i) => i.record);
}

// ---------------------------------------------------------------------------
// Upcoming Scheduled Draft

export interface UpcomingState {
	/** `${draftId}:${scheduledAt}` → scheduled time (ms) of pairs already fired. */
	fired?: Record<string, number>;
	/**
	 * Set only when `fired` overflowed: entries scheduled at or before this
	 * time count as fired. Dropped once that time has passed.
	 */
	firedThrough?: number;
}

/**
 * At most this many fired keys are kept (~55 KB of JSON). A key is kept only
 * while its time is still ahead, and a key is only made for a time within
 * the notice window (at most 31 days), so the keys are those of the drafts
 * scheduled within the window: 1000 is one every 45 minutes around the clock
 * for a month. Past the bound, the soonest keys are dropped and `firedThrough`
 * is moved up to the latest time dropped, so those entries never fire again;
 * the price is that a draft newly scheduled at or before that time (i.e.
 * among the very next ones) does not fire. No entry ever fires twice.
 */
export const MAX_FIRED_KEYS = 1000;

/**
 * Returns the entries that must fire (once per draft and scheduled time) and
 * the next state, pruned of times already past and bounded by MAX_FIRED_KEYS
 * (`overflowed` says when that bound was used).
 */
export function selectUpcoming(
	entries: CalendarEntry[],
	state: UpcomingState,
	now: number,
	lookaheadMs: number,
): { fresh: CalendarEntry[]; state: UpcomingState; overflowed: boolean } {
	const fired: Record<string, number> = {};
	for (const [k, t] of Object.entries(state.fired ?? {})) if (t > now) fired[k] = t;
	let firedThrough = state.firedThrough !== undefined && state.firedThrough > now ? state.firedThrough : undefined;
	const fresh: CalendarEntry[] = [];
	for (const { entry, at } of upcomingTimed(entries, now, lookaheadMs)) {
		if (firedThrough !== undefined && at <= firedThrough) continue;
		const key = upcomingKey(entry, at);
		if (key in fired) continue;
		fired[key] = at;
		fresh.push(entry);
	}
	const keys = Object.keys(fired);
	const overflowed = keys.length > MAX_FIRED_KEYS;
	if (overflowed) {
		// Drop the soonest: they pass first, and firedThrough keeps them from firing again meanwhile.
		keys.sort((a, b) => fired[a] - fired[b]);
		for (const k of keys.slice(0, keys.length - MAX_FIRED_KEYS)) {
			firedThrough = Math.max(firedThrough ?? -Infinity, fired[k]);
			delete fired[k];
		}
	}
	return { fresh, state: firedThrough === undefined ? { fired } : { fired, firedThrough }, overflowed };
}

/** Longest "notify me before" window, in ms. */
export const MAX_LOOKAHEAD_MS = MAX_LOOKAHEAD_DAYS * 86_400_000;

/** Converts "X minutes/hours/days before" to milliseconds; refuses windows over 31 days. */
export function lookaheadMs(amount: number, unit: NotifyUnit): number {
	const factor = unit === 'minutes' ? 60_000 : unit === 'hours' ? 3_600_000 : 86_400_000;
	if (!Number.isFinite(amount) || amount <= 0) {
		throw new ValidationError('notifyBefore', `must be a positive number of ${unit}, got ${amount}.`);
	}
	const ms = amount * factor;
	if (ms > MAX_LOOKAHEAD_MS) {
		throw new ValidationError('notifyBefore', `${amount} ${unit} is longer than the 31 days the trigger looks ahead; choose a shorter time.`);
	}
	return ms;
}
