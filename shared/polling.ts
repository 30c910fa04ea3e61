/**
 * Polling state for the two trigger events: pure functions of what was read
 * and what was kept, shared by both platforms. The reads themselves are in
 * poll-reader.ts.
 *
 * New Published Post keeps a Gmail-style watermark: the newest publication
 * time seen plus the ids published at exactly that time. The spec does not
 * say how /posts is sorted, so the reads find the order from the times they
 * see (see PostOrder): one request per quiet poll when the list is newest
 * first, the whole list (bounded) when it is not. Upcoming Scheduled
 * Draft keeps the (draft, scheduled time) pairs already fired that still lie
 * in the future. Both states are bounded whatever the history.
 */
import { ymdInZone } from './dates';
import { ValidationError } from './errors';
import { fieldsLookedFor, nounOf, readPost } from './records';
import type { RecordKind } from './records';
import type { CalendarEntry } from './types';
import { MAX_LOOKAHEAD_DAYS } from './trigger-options';
import type { NotifyUnit } from './trigger-options';

// The notice's choices and bound, where they were first exported.
export { MAX_LOOKAHEAD_DAYS, NOTIFY_UNITS } from './trigger-options';
export type { NotifyUnit } from './trigger-options';

type Obj = Record<string, unknown>;

/** A post reduced to what the watermark needs, plus the full record. */
export interface StampedItem {
	id: string;
	at: number;
	record: Obj;
}

export interface PostWatermarkState {
	/** Set once the first poll has run: posts that existed then never fire. */
	initialised?: boolean;
	/** ISO time of the newest publication seen. */
	watermark?: string;
	/** Ids published at exactly `watermark`. */
	idsAtWatermark?: string[];
}

/**
 * At most this many ids kept at one timestamp, and at most MAX_IDS_JSON_CHARS
 * of them as JSON, so that the state stays under 4 KB whatever the id shape
 * (100 sandbox ids take ~1.3 KB; 100 UUIDs would take ~3.9 KB, so the
 * character bound applies first). Beyond the bound, the oldest-recorded ids
 * at that instant are forgotten: a post published in the very same
 * millisecond as more than that many others may fire a second time. It is
 * never missed.
 */
export const MAX_IDS_AT_WATERMARK = 100;
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

/** A record a trigger cannot place: the labelled fields it lacks (`id`, `publishedAt`, `date`). */
export interface UnreadableRecord {
	record: Obj;
	missing: string[];
}

/**
 * Stamps posts with id and publication time (read by records.ts's readPost,
 * whatever their shape), in the order given. Those without either are
 * returned apart, with what they lack, so that the triggers can say so.
 */
export function stampAll(records: Obj[]): { stamped: StampedItem[]; unreadable: UnreadableRecord[] } {
	const stamped: StampedItem[] = [];
	const unreadable: UnreadableRecord[] = [];
	for (const raw of records) {
		const record = readPost(raw) as Obj;
		const missing = [typeof record.id === 'string' ? undefined : 'id', typeof record.publishedAt === 'string' ? undefined : 'publishedAt'].filter(
			(f): f is string => f !== undefined,
		);
		if (missing.length > 0) unreadable.push({ record, missing });
		else stamped.push({ id: record.id as string, at: Date.parse(record.publishedAt as string), record });
	}
	return { stamped, unreadable };
}

/** Stamps records with id and time, in the order given; leaves out those without (see stampAll). */
export function stampInOrder(records: Obj[]): StampedItem[] {
	return stampAll(records).stamped;
}

/** Calendar entries a trigger cannot place, with what they lack. */
export function unreadableEntries(entries: readonly Obj[]): UnreadableRecord[] {
	return entries.map((record) => ({
		record,
		missing: [typeof record.id === 'string' ? undefined : 'id', typeof record.date === 'string' ? undefined : 'date'].filter((f): f is string => f !== undefined),
	}));
}

/** What a field means, for the messages below. */
const FIELD_MEANING: Readonly<Record<string, string>> = { id: 'id', publishedAt: 'publication time', date: 'date' };

/**
 * A message that says which records a trigger could not read, which field
 * it looked for under which names, and what to do; undefined when there are
 * none. `total` is how many records were read; `source` the request
 * (`GET /posts`).
 */
export function unreadableMessage(kind: RecordKind, unreadable: readonly UnreadableRecord[], total: number, source: string): string | undefined {
	if (unreadable.length === 0) return undefined;
	const noun = nounOf(kind, total);
	const fields = [...new Set(unreadable.flatMap((u) => u.missing))];
	const lacks = fields.map((f) => `no ${FIELD_MEANING[f] ?? f} (looked for ${fieldsLookedFor(kind, f)})`).join(' or ');
	const keys = Object.keys(unreadable[0].record).slice(0, 12).join(', ') || 'none';
	return (
		`${unreadable.length} of ${total} ${noun} returned by ${source} ${unreadable.length === 1 ? 'has' : 'have'} ${lacks}, so the trigger cannot tell whether they are new and skips them. ` +
		`The first one has the fields: ${keys}. Check that the Base URL points to API v1 of the service, and report this shape to its support.`
	);
}

/** Stamps records with id and time; drops those without; newest first. */
export function stampPosts(records: Obj[]): StampedItem[] {
	return stampInOrder(records).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
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

// ---------------------------------------------------------------------------
// Reading /posts, whatever its order

/**
 * Order of /posts by publication time, judged from what was read (the spec
 * does not say how lists are sorted):
 * - `newest-first`: the times never rise, and fall at least once;
 * - `oldest-first`: they never fall, and rise at least once;
 * - `unsorted`: they do both;
 * - `unknown`: fewer than two distinct times were read (0 or 1 post, or all
 *   at one instant), so nothing can be told yet.
 */
export type PostOrder = 'newest-first' | 'oldest-first' | 'unsorted' | 'unknown';

export function detectOrder(items: readonly StampedItem[]): PostOrder {
	let rises = false;
	let falls = false;
	for (let i = 1; i < items.length; i++) {
		if (items[i].at > items[i - 1].at) rises = true;
		else if (items[i].at < items[i - 1].at) falls = true;
	}
	return rises && falls ? 'unsorted' : falls ? 'newest-first' : rises ? 'oldest-first' : 'unknown';
}

export interface FetchOptions {
	/** Posts asked per page (`limit`). */
	pageSize?: number;
	/**
	 * Requests made at most in one read. When the list goes on past this cap
	 * the read says so (`truncated`) and the posts past it are not read in
	 * this poll. Newest first, those are the oldest posts of a burst: the
	 * watermark then moves to the newest post, so they never fire. Oldest
	 * first, those are the newest posts, which are then not seen until the
	 * history fits in the cap. Either way the platforms log a warning; nothing
	 * claims that a later poll catches up.
	 */
	maxPages?: number;
}

export interface PostsRead {
	/** Every post read, in the API's order. */
	records: Obj[];
	/** The order seen (see PostOrder). */
	order: PostOrder;
	/** Requests made (one per page). */
	requests: number;
	/** The cap on pages stopped the read while the list went on. */
	truncated: boolean;
	/** Posts read without an id or a publication time (see unreadableMessage). */
	unreadable: UnreadableRecord[];
	/**
	 * Set when the read stopped while the service said more follow (a paging
	 * convention the client cannot follow, a page repeated, a cursor that
	 * cycles): which list, what the service said, what was read. A trigger
	 * then warns, fires nothing and keeps its state (see stalledWarning).
	 */
	stalled?: string;
}

/** Default page size and cap of a read. */
export const POSTS_PAGE_SIZE = 100;
export const POSTS_MAX_PAGES = 100;

/** A warning for the logs when a read was cut by its cap; undefined when it was not. */
export function truncationWarning(read: PostsRead): string | undefined {
	if (!read.truncated) return undefined;
	const seen = `${read.records.length} posts in ${read.requests} requests`;
	if (read.order === 'newest-first') {
		return `more posts were published since the last poll than one poll reads (${seen}); the oldest of them were not read and will not fire. Poll more often.`;
	}
	return `the service lists posts ${read.order === 'oldest-first' ? 'oldest first' : 'in no time order'} and this account has more of them than one poll reads (${seen}); the newest posts, past that cap, were not read.`;
}

/**
 * The warning of a trigger whose read stalled (PostsRead.stalled); undefined
 * when it did not. The trigger fires nothing in that poll and keeps its
 * state, so the next poll that can read the list fires what this one could
 * not: nothing is skipped for good and nothing fires twice.
 */
export function stalledWarning(read: PostsRead): string | undefined {
	if (read.stalled === undefined) return undefined;
	return `${read.stalled} The trigger fired nothing in this poll and kept its place, so nothing is skipped: the next poll that can read the whole list fires what is new.`;
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

export function ymdUtc(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The calendar takes whole UTC days; the window [now, now + lookahead] is
 * covered by the days from now's UTC date to the end's UTC date.
 */
export function calendarWindow(now: number, lookaheadMs: number): { from: string; to: string } {
	return { from: ymdUtc(now), to: ymdUtc(now + lookaheadMs) };
}

/**
 * The calendar days to ask for so that [now, now + lookahead] is covered in
 * a zone as well as in UTC. The spec does not say in which zone /calendar
 * reads its dates: the window is the union of the UTC days and the days in
 * that zone, and the exact instants are filtered afterwards.
 */
export function calendarWindowInZone(now: number, lookaheadMs: number, zone: string): { from: string; to: string } {
	const utc = calendarWindow(now, lookaheadMs);
	const fromLocal = ymdInZone(now, zone);
	const toLocal = ymdInZone(now + lookaheadMs, zone);
	return {
		from: fromLocal < utc.from ? fromLocal : utc.from,
		to: toLocal > utc.to ? toLocal : utc.to,
	};
}

export function upcomingKey(entry: CalendarEntry): string {
	return `${entry.draftId ?? entry.id}:${new Date(Date.parse(entry.date)).toISOString()}`;
}

/** Scheduled entries whose time lies in (now, now + lookahead], soonest first. */
export function upcomingEntries(entries: CalendarEntry[], now: number, lookaheadMs: number): CalendarEntry[] {
	return entries
		.filter((e) => e.type === 'scheduled')
		.filter((e) => {
			const t = Date.parse(e.date);
			return !Number.isNaN(t) && t > now && t <= now + lookaheadMs;
		})
		.sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
}

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
	for (const entry of upcomingEntries(entries, now, lookaheadMs)) {
		const key = upcomingKey(entry);
		const at = Date.parse(entry.date);
		if (key in fired || (firedThrough !== undefined && at <= firedThrough)) continue;
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
