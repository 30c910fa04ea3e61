/**
 * Polling logic for the two trigger events, pure and shared by both platforms.
 *
 * New Published Post keeps a Gmail-style watermark: the newest publication
 * time seen plus the ids published at exactly that time. Upcoming Scheduled
 * Draft keeps the (draft, scheduled time) pairs already fired that still lie
 * in the future. Both states are bounded whatever the history.
 */
import type { PostWriterClient } from './client';
import { ValidationError } from './errors';
import type { CalendarEntry } from './types';

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

/** At most this many ids kept at one timestamp. */
export const MAX_IDS_AT_WATERMARK = 100;

function publishedAtOf(record: Obj): string | undefined {
	for (const k of ['publishedAt', 'published_at', 'date', 'createdAt']) {
		const v = record[k];
		if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return v;
	}
	return undefined;
}

/** Stamps records with id and time; drops those without; newest first. */
export function stampPosts(records: Obj[]): StampedItem[] {
	const out: StampedItem[] = [];
	for (const record of records) {
		const id = record.id ?? record.postId;
		const at = publishedAtOf(record);
		if ((typeof id !== 'string' && typeof id !== 'number') || at === undefined) continue;
		out.push({ id: String(id), at: Date.parse(at), record });
	}
	return out.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** True when the item is newer than the watermark (or at it with an unseen id). */
function isNew(item: StampedItem, state: PostWatermarkState, seen: Set<string>): boolean {
	if (!state.watermark) return true;
	const w = Date.parse(state.watermark);
	return item.at > w || (item.at === w && !seen.has(item.id));
}

/**
 * Given the newest posts (any order), returns those that must fire, newest
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
				idsAtWatermark: items.filter((i) => i.at === top.at).slice(0, MAX_IDS_AT_WATERMARK).map((i) => i.id),
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
			idsAtWatermark: [...new Set(ids)].slice(-MAX_IDS_AT_WATERMARK),
		},
	};
}

export interface FetchOptions {
	pageSize?: number;
	/** Pages followed at most in one poll (a burst beyond this is caught up on the next polls). */
	maxPages?: number;
}

/**
 * Reads /posts newest first, page by page, until a page reaches the
 * watermark. In steady state that is exactly one request.
 */
export async function fetchPostsSince(client: PostWriterClient, state: PostWatermarkState, options: FetchOptions = {}): Promise<Obj[]> {
	const pageSize = options.pageSize ?? 50;
	const maxPages = options.maxPages ?? 20;
	const watermark = state.watermark ? Date.parse(state.watermark) : undefined;
	const out: Obj[] = [];
	let cursor: string | undefined;
	let offset: number | undefined;
	for (let page = 0; page < maxPages; page++) {
		const query = cursor !== undefined ? { cursor } : offset !== undefined ? { offset } : {};
		const result = await client.page('listPosts', {}, { pageSize, query });
		out.push(...result.items);
		// The first poll only needs the newest post; a page that reaches the watermark ends the walk.
		if (!state.initialised) break;
		const stamped = stampPosts(result.items);
		const oldest = stamped[stamped.length - 1];
		if (watermark === undefined && state.initialised && result.items.length === 0) break;
		if (oldest && watermark !== undefined && oldest.at <= watermark) break;
		if (result.nextCursor !== undefined) cursor = result.nextCursor;
		else if (result.nextOffset !== undefined) offset = result.nextOffset;
		else break;
	}
	return out;
}

/** When a bounded catch-up could not reach the watermark, emit oldest first so that nothing is skipped. */
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
}

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
 * the next state, pruned of times already past.
 */
export function selectUpcoming(
	entries: CalendarEntry[],
	state: UpcomingState,
	now: number,
	lookaheadMs: number,
): { fresh: CalendarEntry[]; state: UpcomingState } {
	const fired: Record<string, number> = {};
	for (const [k, t] of Object.entries(state.fired ?? {})) if (t > now) fired[k] = t;
	const fresh: CalendarEntry[] = [];
	for (const entry of upcomingEntries(entries, now, lookaheadMs)) {
		const key = upcomingKey(entry);
		if (key in fired) continue;
		fired[key] = Date.parse(entry.date);
		fresh.push(entry);
	}
	const keys = Object.keys(fired);
	if (keys.length > MAX_FIRED_KEYS) {
		keys.sort((a, b) => fired[a] - fired[b]);
		for (const k of keys.slice(MAX_FIRED_KEYS)) delete fired[k];
	}
	return { fresh, state: { fired } };
}

/** Reads the calendar over the window and returns the upcoming scheduled entries. */
export async function fetchUpcoming(client: PostWriterClient, now: number, lookaheadMs: number): Promise<CalendarEntry[]> {
	const { from, to } = calendarWindow(now, lookaheadMs);
	const calendar = await client.calendar({ from, to });
	return upcomingEntries(calendar.entries, now, lookaheadMs);
}

/** Longest "notify me before" window: a month keeps the calendar request small. */
export const MAX_LOOKAHEAD_MS = 31 * 86_400_000;

/** Converts "X minutes/hours/days before" to milliseconds; refuses windows over 31 days. */
export function lookaheadMs(amount: number, unit: 'minutes' | 'hours' | 'days'): number {
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
