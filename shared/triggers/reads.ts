/**
 * The reads behind the trigger events, through a client: the only part of
 * the polling logic that makes requests. Each reads what one event needs, in
 * as few requests as the list's order allows; what is new in it is the
 * state's (published-upcoming-state.ts and each event's state module), what fires is the event's
 * (events.ts). Last, the shape of an event's logic (EventLogic,
 * TriggerEvent), which takes the client the reads take (PollClient) and so
 * sits beside it.
 */
import type { InputOf, OutputOf } from '../catalogue';
import { newWalk, stallMessage, stepWalk } from '../lists';
import type { FetchOptions, PostsRead, StampedItem, UnreadableRecord } from './stamped-reads';
import { POSTS_MAX_PAGES, POSTS_PAGE_SIZE, detectOrder, unreadableEntries, stampAll, stampDraft, stampDrafts, stampPosts } from './stamped-reads';
import { calendarWindow, calendarWindowInZone, upcomingEntries } from './calendar-window';
import type { MilestoneConfig, TriggerPlatform } from './field-options';
import { windowStart } from './field-options';
import type { EventCandidates, EventInput, EventPoll, EventRead, EventTest } from './event-result';
import { selectFromList } from './event-result';
import type { CalendarEntry, ListPage, NextPage, Obj } from '../base';
import type { PostWatermarkState, Stamped, WatermarkState } from './watermark';
import { newestFirst } from './watermark';

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

/**
 * Reads the calendar over the window: the upcoming scheduled entries, and
 * those that could not be read. With a zone, the days asked for cover the
 * window in that zone as well as in UTC (see calendarWindowInZone).
 */
export async function readUpcoming(client: PollClient, now: number, lookaheadMs: number, zone?: string): Promise<UpcomingRead> {
	const { from, to } = zone === undefined ? calendarWindow(now, lookaheadMs) : calendarWindowInZone(now, lookaheadMs, zone);
	const calendar = await client.getCalendar({ from, to });
	const unreadable = unreadableEntries(calendar.unreadable ?? []);
	return { entries: upcomingEntries(calendar.entries, now, lookaheadMs), unreadable, total: calendar.entries.length + unreadable.length };
}

/** Reads the calendar over the window and returns the upcoming scheduled entries. */
export async function fetchUpcoming(client: PollClient, now: number, lookaheadMs: number): Promise<CalendarEntry[]> {
	return (await readUpcoming(client, now, lookaheadMs)).entries;
}

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
 * newest first, the whole list (bounded) otherwise. The state is New Draft's
 * (new-draft-state.ts's NewDraftState, a WatermarkState).
 */
export async function readDraftsSince(client: PollClient, state: WatermarkState, options: FetchOptions = {}): Promise<PostsRead> {
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

// ---------------------------------------------------------------------------
// The logic an event defines over these reads (its client is PollClient, hence here)

/**
 * One event's logic. `C` is its options (from its fields, checked: errors
 * name the field), `S` the state n8n keeps for it in the node's static data,
 * under the event's key (stored in workflows: its shape stays).
 */
export interface EventLogic<C, S> {
	config(input: EventInput, platform: TriggerPlatform): C;
	/** The state shows an earlier poll (default: there is one). */
	polled?(state: S | undefined): boolean;
	/** n8n: reads, and selects what is new since the state. */
	poll(client: PollClient, config: C, state: S | undefined, read: EventRead): Promise<EventPoll & { state?: S }>;
	/** n8n's Fetch Test Event: the latest event, the state untouched. */
	test(client: PollClient, config: C, read: EventRead): Promise<EventTest>;
	/** Zapier: the current events; `count` is how many the poll returns of a list, `zone` the user's (some outputs name it). */
	candidates(client: PollClient, config: C, read: EventRead & { count: number; zone: string }): Promise<EventCandidates>;
}

/** An event's logic as the platforms hold it: they give back to poll, test and candidates what config gave them. */
export interface TriggerEvent {
	config(input: EventInput, platform: TriggerPlatform): unknown;
	polled(state: unknown): boolean;
	poll(client: PollClient, config: unknown, state: unknown, read: EventRead): Promise<EventPoll>;
	test(client: PollClient, config: unknown, read: EventRead): Promise<EventTest>;
	candidates(client: PollClient, config: unknown, read: EventRead & { count: number; zone: string }): Promise<EventCandidates>;
}

/** Hides an event's own types behind TriggerEvent; each adapter passes back only what the event gave it. */
export function defineEvent<C, S>(logic: EventLogic<C, S>): TriggerEvent {
	return {
		config: (input, platform) => logic.config(input, platform),
		polled: (state) => (logic.polled ? logic.polled(state as S | undefined) : state !== undefined),
		poll: async (client, config, state, read) => await logic.poll(client, config as C, state as S | undefined, read),
		test: async (client, config, read) => await logic.test(client, config as C, read),
		candidates: async (client, config, read) => await logic.candidates(client, config as C, read),
	};
}

/** What the two watermark events share: no options, and a state that shows an earlier poll once it is initialised. */
export const WATERMARK = { config: () => undefined, polled: (state: { initialised?: boolean } | undefined) => Boolean(state?.initialised) };

/** The poll of a watermark event: what was published or created since the kept watermark (the first poll only records it). */
export function sinceWatermark<S extends object, F>(
	readSince: (client: PollClient, state: S, options: FetchOptions) => Promise<PostsRead>,
	kind: 'post' | 'draft',
	select: (records: Obj[], state: S) => { fresh: F[]; state: S },
	emit: (fresh: F[]) => Obj[],
): EventLogic<undefined, S>['poll'] {
	return async (client, _config, kept, { options }) => {
		// Every field of a watermark state is optional: none kept is an empty one.
		const state = kept ?? ({} as S);
		const read = await readSince(client, state, options);
		return selectFromList(read, kind, () => {
			const { fresh, state: next } = select(read.records, state);
			return { events: emit(fresh), state: next };
		});
	};
}
