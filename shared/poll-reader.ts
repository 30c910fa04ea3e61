/**
 * The reads behind the trigger events, through a client: the only part of the
 * polling logic that makes requests. The state they feed is polling.ts.
 */
import type { InputOf, OutputOf } from './catalogue';
import type { MilestoneConfig, NewDraftState, Stamped } from './event-state';
import { newestFirst, stampDraft, stampDrafts, windowStart } from './event-state';
import type { FetchOptions, PostWatermarkState, PostsRead, StampedItem, UnreadableRecord } from './polling';
import { POSTS_MAX_PAGES, POSTS_PAGE_SIZE, calendarWindow, detectOrder, stampAll, stampPosts, unreadableEntries, upcomingEntries } from './polling';
import { newWalk, stallMessage, stepWalk } from './lists';
import type { CalendarEntry, ListPage, NextPage } from './types';
import type { Obj } from './values';

/** What the reads need of a client; the core client has it (a structural type, so this module does not import the client). */
export interface PollClient {
	page(
		key: 'listPosts' | 'listDrafts',
		input: InputOf<'listPosts'>,
		options: { pageSize?: number; query?: Record<string, string | number>; next?: NextPage },
	): Promise<ListPage<Obj>>;
	getCalendar(input: InputOf<'getCalendar'>): Promise<OutputOf<'getCalendar'>>;
	getCredits(input: InputOf<'getCredits'>): Promise<OutputOf<'getCredits'>>;
}

/** The list a walk reads, and how its records are stamped with an id and a time (those that cannot be, apart). */
interface Walked {
	key: 'listPosts' | 'listDrafts';
	/** The path, for the messages. */
	path: string;
	stamp: (records: Obj[]) => { stamped: StampedItem[]; unreadable: UnreadableRecord[] };
}
const POSTS: Walked = { key: 'listPosts', path: '/posts', stamp: stampAll };
const DRAFTS: Walked = {
	key: 'listDrafts',
	path: '/drafts',
	stamp: (records) => ({
		stamped: stampDrafts(records).stamped,
		unreadable: records.filter((r) => stampDraft(r) === undefined).map((record) => ({ record, missing: ['id', 'createdAt'] })),
	}),
};

/**
 * Reads /posts page by page. A list seen to be newest first stops as soon as
 * `enough` says so (in steady state: after the first page, one request).
 * Any other order, or one not known yet, is read to its end, bounded by
 * maxPages: the newest posts may be on the last page.
 */
async function walkPosts(
	client: PollClient,
	options: FetchOptions,
	enough: (stamped: StampedItem[], page: StampedItem[]) => boolean,
	list: Walked = POSTS,
): Promise<PostsRead> {
	const pageSize = options.pageSize ?? POSTS_PAGE_SIZE;
	const maxPages = Math.max(1, options.maxPages ?? POSTS_MAX_PAGES);
	const records: Obj[] = [];
	const stamped: StampedItem[] = [];
	const unreadable: UnreadableRecord[] = [];
	const walk = newWalk();
	let next: NextPage | undefined;
	let requests = 0;
	for (;;) {
		const result = await client.page(list.key, {}, { pageSize, next });
		requests++;
		const step = stepWalk(walk, result);
		const { stamped: page, unreadable: lost } = step.keep ? list.stamp(result.items) : { stamped: [], unreadable: [] };
		if (step.keep) records.push(...result.items);
		stamped.push(...page);
		unreadable.push(...lost);
		const order = detectOrder(stamped);
		const read = { records, order, requests, truncated: false, unreadable };
		if (order === 'newest-first' && enough(stamped, page)) return read;
		if (step.stall) return { ...read, stalled: stallMessage(`GET ${list.path}`, step.stall, records.length, requests) };
		if (!step.next) return read;
		if (requests >= maxPages) return { ...read, truncated: true };
		next = step.next;
	}
}

/**
 * Reads what the New Published Post poll needs: the posts newer than the
 * watermark. Newest first, it stops at the first page that reaches the
 * watermark, so a quiet poll is one request; the first poll (which only
 * records the newest post) also reads one page. Oldest first, it reads the
 * whole list, up to maxPages.
 */
export async function readPostsSince(client: PollClient, state: PostWatermarkState, options: FetchOptions = {}): Promise<PostsRead> {
	const watermark = state.watermark ? Date.parse(state.watermark) : undefined;
	return await walkPosts(client, options, (_stamped, page) => {
		if (!state.initialised) return true;
		if (watermark === undefined) return false; // nothing existed at activation: every post is new
		return page.some((item) => item.at <= watermark);
	});
}

/**
 * The newest `count` posts, newest first, whatever the API's order: the
 * Zapier trigger and n8n's "Fetch Test Event" both use it. Newest first,
 * that is one request when count <= pageSize; oldest first, the whole list
 * up to maxPages.
 */
export async function fetchNewestPosts(
	client: PollClient,
	count: number,
	options: FetchOptions = {},
): Promise<PostsRead & { newest: StampedItem[] }> {
	const read = await walkPosts(client, options, (stamped) => stamped.length >= count);
	return { ...read, newest: stampPosts(read.records).slice(0, Math.max(0, count)) };
}

export interface UpcomingRead {
	/** The scheduled entries within the window, soonest first. */
	entries: CalendarEntry[];
	/** Entries the calendar gave without an id or a date (see unreadableMessage). */
	unreadable: UnreadableRecord[];
	/** Entries the calendar gave over the days read. */
	total: number;
}

/** Reads the calendar over the window: the upcoming scheduled entries, and those that could not be read. */
export async function readUpcoming(client: PollClient, now: number, lookaheadMs: number): Promise<UpcomingRead> {
	const { from, to } = calendarWindow(now, lookaheadMs);
	const calendar = await client.getCalendar({ from, to });
	const unreadable = unreadableEntries(calendar.unreadable ?? []);
	return { entries: upcomingEntries(calendar.entries, now, lookaheadMs), unreadable, total: calendar.entries.length + unreadable.length };
}

/** Reads the calendar over the window and returns the upcoming scheduled entries. */
export async function fetchUpcoming(client: PollClient, now: number, lookaheadMs: number): Promise<CalendarEntry[]> {
	return (await readUpcoming(client, now, lookaheadMs)).entries;
}

// ---------------------------------------------------------------------------
// The later events (state in event-state.ts)

/**
 * Reads the posts of a milestone's watch window. Newest first, it stops at
 * the first page that reaches a post older than the window; any other order
 * is read to its end (up to maxPages). Records are returned as read; the
 * window is applied by the state functions.
 */
export async function readPostsInWindow(client: PollClient, config: MilestoneConfig, now: number, options: FetchOptions = {}): Promise<PostsRead> {
	const since = windowStart(now, config);
	return await walkPosts(client, options, (_stamped, page) => page.some((item) => item.at < since));
}

/**
 * Reads the drafts created since the watermark (by creation time), as
 * readPostsSince does for posts: one request in steady state when /drafts is
 * newest first, the whole list (bounded) otherwise.
 */
export async function readDraftsSince(client: PollClient, state: NewDraftState, options: FetchOptions = {}): Promise<PostsRead> {
	const watermark = state.watermark ? Date.parse(state.watermark) : undefined;
	return await walkPosts(
		client,
		options,
		(_stamped, page) => {
			if (!state.initialised) return true;
			if (watermark === undefined) return false;
			return page.some((item) => item.at <= watermark);
		},
		DRAFTS,
	);
}

/** The newest `count` drafts by creation time, newest first, whatever the API's order (Zapier's New Draft, n8n's Fetch Test Event). */
export async function fetchNewestDrafts(client: PollClient, count: number, options: FetchOptions = {}): Promise<PostsRead & { newest: Stamped[] }> {
	const read = await walkPosts(client, options, (stamped) => stamped.length >= count, DRAFTS);
	return { ...read, newest: newestFirst(stampDrafts(read.records).stamped).slice(0, Math.max(0, count)) };
}

/** The balance and the history of transactions, for Credits Low. */
export async function fetchCredits(client: PollClient): Promise<OutputOf<'getCredits'>> {
	return await client.getCredits({});
}
