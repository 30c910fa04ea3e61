/**
 * The reads behind the trigger events, through a client: the only part of the
 * polling logic that makes requests. The state they feed is polling.ts and
 * event-state.ts.
 *
 * Then each event's poll, once for both platforms (TRIGGER_EVENTS, keyed by
 * the trigger catalogue): how it reads, what is new since a kept state (n8n),
 * what the candidates are (Zapier, whose dedupe fires each id once), the
 * output of one event, the test event, and the warnings, as data that each
 * platform reports its own way. It lives here because this module alone may
 * import both the reads and the catalogue within the import depth of shared/.
 */
import { BRAND } from './brand';
import type { InputOf, OutputOf } from './catalogue';
import { ValidationError } from './errors';
import type { CreditsLowState, MilestoneConfig, MilestoneState, NewDraftState, Stamped } from './event-state';
import {
	MAX_MILESTONE_POSTS,
	creditThreshold,
	creditsLowHistory,
	creditsLowOutput,
	draftEvent,
	milestoneCandidates,
	milestoneConfig,
	milestoneEvent,
	newestFirst,
	selectCreditsLow,
	selectMilestones,
	selectNewDrafts,
	stampDraft,
	stampDrafts,
	windowStart,
} from './event-state';
import type { FetchOptions, NotifyUnit, PostOrder, PostWatermarkState, PostsRead, StampedItem, UnreadableRecord, UpcomingState } from './polling';
import {
	MAX_FIRED_KEYS,
	NOTIFY_UNITS,
	POSTS_MAX_PAGES,
	POSTS_PAGE_SIZE,
	calendarWindow,
	calendarWindowInZone,
	detectOrder,
	lookaheadMs,
	oldestFirst,
	selectNewPosts,
	selectUpcoming,
	stalledWarning,
	stampAll,
	stampPosts,
	truncationWarning,
	unreadableEntries,
	unreadableMessage,
	upcomingEntries,
	upcomingKey,
} from './polling';
import { newWalk, stallMessage, stepWalk } from './lists';
import type { RecordKind } from './records';
import type { TriggerKey, TriggerPlatform } from './triggers';
import type { UnreadableWarning } from './unreadable';
import { unreadableBalance, unreadableMetric } from './unreadable';
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

// ---------------------------------------------------------------------------
// Each event's poll, for both platforms

/** An event's fields as a platform gave them, under the catalogue's names (a field's `name`). */
export type EventInput = Readonly<Record<string, unknown>>;

/**
 * What a poll, a test event or the candidates met that someone should know,
 * in the order met. Each platform reports it its own way: n8n in its log (an
 * error for unreadable records on a first poll), Zapier in the Zap's log (an
 * error for unreadable records when it loads a sample or seeds its dedupe).
 */
export type TriggerWarning =
	/** Records the trigger cannot place or use: no id or time (see unreadableMessage), no value of the field the user chose (unreadable.ts); `count` of them. */
	| UnreadableWarning
	/** The read stopped while the service said more follow: n8n fires nothing and keeps its state (`message`); Zapier returns what was read. */
	| { kind: 'stalled'; message: string; read: PostsRead }
	/** The read was cut by its cap; `details` go to n8n's log with it. */
	| { kind: 'truncated'; message: string; details?: { order: PostOrder; requests: number } }
	/** A kept state reached its bound (n8n). */
	| { kind: 'overflow'; message: string };

/** When an event is polled, and how many pages of which size a read may take (each platform has its own). */
export interface EventRead {
	now: number;
	options: FetchOptions;
}

/** One poll against a kept state: the events to fire, oldest first, and the next state; no state when the read stalled (nothing fires, the state stays). */
export interface EventPoll {
	warnings: TriggerWarning[];
	events: Obj[];
	state?: unknown;
}

/** A test event that cannot be shown: what is missing, and what to do. */
export interface NothingToShow {
	message: string;
	description: string;
}

/** The latest event, or why there is none. */
export type EventTest = { warnings: TriggerWarning[] } & ({ event: Obj } | { nothing: NothingToShow });

/** Every current event, newest first, each with its dedupe `id`. */
export interface EventCandidates {
	warnings: TriggerWarning[];
	events: Array<Obj & { id: string }>;
}

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
function defineEvent<C, S>(logic: EventLogic<C, S>): TriggerEvent {
	return {
		config: (input, platform) => logic.config(input, platform),
		polled: (state) => (logic.polled ? logic.polled(state as S | undefined) : state !== undefined),
		poll: async (client, config, state, read) => await logic.poll(client, config as C, state as S | undefined, read),
		test: async (client, config, read) => await logic.test(client, config as C, read),
		candidates: async (client, config, read) => await logic.candidates(client, config as C, read),
	};
}

/** The request each kind of record comes from, as the messages name it. */
const SOURCES = { post: 'GET /posts', draft: 'GET /drafts', calendarEntry: 'GET /calendar', credits: 'GET /credits' } as const satisfies Partial<Record<RecordKind, string>>;

function unreadableWarnings(kind: keyof typeof SOURCES, unreadable: UnreadableRecord[], total: number): TriggerWarning[] {
	const message = unreadableMessage(kind, unreadable, total, SOURCES[kind]);
	return message ? [{ kind: 'unreadable', message, count: unreadable.length }] : [];
}

function stalledWarnings(read: PostsRead): TriggerWarning[] {
	const message = stalledWarning(read);
	return message ? [{ kind: 'stalled', message, read }] : [];
}

/** The cap's warning; for drafts in their own words, as n8n's New Draft was published. */
function truncatedWarnings(read: PostsRead, kind: 'post' | 'draft'): TriggerWarning[] {
	const message = truncationWarning(read);
	if (!message) return [];
	if (kind === 'draft') return [{ kind: 'truncated', message: message.replace(/posts/g, 'drafts').replace(/published/g, 'created') }];
	return [{ kind: 'truncated', message, details: { order: read.order, requests: read.requests } }];
}

/**
 * A poll over a list read page by page: unreadable records first; a read
 * that stalled fires nothing and keeps the state; otherwise what `select`
 * found, then the cap's warning and those of the selection.
 */
function selectFromList<S>(
	read: PostsRead,
	kind: 'post' | 'draft',
	select: () => { events: Obj[]; state: S; warnings?: TriggerWarning[] },
): EventPoll & { state?: S } {
	const warnings = unreadableWarnings(kind, read.unreadable, read.records.length);
	const stalled = stalledWarnings(read);
	if (stalled.length > 0) return { warnings: [...warnings, ...stalled], events: [] };
	const { events, state, warnings: more = [] } = select();
	return { warnings: [...warnings, ...truncatedWarnings(read, kind), ...more], events, state };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the two watermark events share: no options, and a state that shows an earlier poll once it is initialised. */
const WATERMARK = { config: () => undefined, polled: (state: { initialised?: boolean } | undefined) => Boolean(state?.initialised) };

/** The poll of a watermark event: what was published or created since the kept watermark (the first poll only records it). */
function sinceWatermark<S extends object, F>(
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

/** New Published Post: a watermark on publication times; Zapier gets the newest posts, each with its id. */
const newPublishedPost = defineEvent<undefined, PostWatermarkState>({
	...WATERMARK,
	poll: sinceWatermark(readPostsSince, 'post', selectNewPosts, oldestFirst),
	async test(client, _config, { options }) {
		const read = await fetchNewestPosts(client, 1, options);
		const warnings = unreadableWarnings('post', read.unreadable, read.records.length);
		const latest = read.newest[0];
		if (latest) return { warnings, event: latest.record };
		return {
			warnings,
			nothing: {
				message: 'No published post yet',
				description: `Publish a post with ${BRAND.displayName} (or schedule a draft and wait for it), then fetch a test event again. The active workflow will start on posts published after its activation.`,
			},
		};
	},
	async candidates(client, _config, { options, count }) {
		const read = await fetchNewestPosts(client, count, options);
		return {
			warnings: [...unreadableWarnings('post', read.unreadable, read.records.length), ...truncatedWarnings(read, 'post'), ...stalledWarnings(read)],
			events: read.newest.map(({ id, at, record }) => ({ ...record, id, publishedAt: new Date(at).toISOString() })),
		};
	},
});

/** "Notify Me Before", checked; the window's amount and unit name it in the test event's message. */
interface Notice {
	ms: number;
	amount: number;
	unit: NotifyUnit;
}

const UNITS: readonly string[] = NOTIFY_UNITS.map((unit) => unit.value);

/**
 * The notice as each platform was published: n8n reads any number and its
 * unit as given (the core refuses a non-positive or over-long window, naming
 * "notifyBefore"); Zapier, whose fields are free text, wants a whole number
 * and one of the units, and defaults to 60 minutes.
 */
function noticeOf(input: EventInput, platform: TriggerPlatform): Notice {
	if (platform === 'n8n') {
		const amount = Number(input.notifyBefore);
		const unit = input.notifyBeforeUnit as NotifyUnit;
		return { ms: lookaheadMs(amount, unit), amount, unit };
	}
	const raw = input.notifyBefore ?? 60;
	const amount = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	const unit = (typeof input.notifyBeforeUnit === 'string' && input.notifyBeforeUnit !== '' ? input.notifyBeforeUnit : 'minutes') as NotifyUnit;
	if (!UNITS.includes(unit)) throw new ValidationError('notifyBeforeUnit', `must be one of ${UNITS.join(', ')}, got "${unit}".`);
	if (!Number.isInteger(amount) || amount < 1) {
		throw new ValidationError('notifyBefore', `must be a whole number of ${unit} of at least 1, got ${JSON.stringify(raw)}.`);
	}
	return { ms: lookaheadMs(amount, unit), amount, unit }; // the core bounds it (MAX_LOOKAHEAD_MS)
}

/** n8n's item for an upcoming entry: the entry, its draft, its time as ISO and the minutes left. */
function upcomingItem(entry: CalendarEntry, now: number): Obj {
	const at = Date.parse(entry.date);
	return { ...entry, draftId: entry.draftId ?? entry.id, scheduledAt: new Date(at).toISOString(), minutesUntil: Math.round((at - now) / 60_000) };
}

/**
 * Zapier's order: the times that entered the notice window last come first
 * (ties: by event id, for a stable order). The order does not touch the
 * dedupe, which reads only the ids.
 */
export function latestScheduledFirst(entries: CalendarEntry[]): CalendarEntry[] {
	return [...entries].sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || upcomingKey(b).localeCompare(upcomingKey(a)));
}

/**
 * Upcoming Scheduled Draft: once per draft and scheduled time within the
 * notice (`${draftId}:${scheduledAt}`, so a rescheduled draft fires again).
 * Zapier reads the days of the window in the user's zone as well as in UTC.
 */
const upcomingScheduledDraft = defineEvent<Notice, UpcomingState>({
	config: noticeOf,
	async poll(client, notice, kept, { now }) {
		const read = await readUpcoming(client, now, notice.ms);
		const warnings = unreadableWarnings('calendarEntry', read.unreadable, read.total);
		const { fresh, state, overflowed } = selectUpcoming(read.entries, kept ?? {}, now, notice.ms);
		if (overflowed) {
			warnings.push({
				kind: 'overflow',
				message: `more than ${MAX_FIRED_KEYS} drafts are scheduled within the notice; the trigger remembers the latest ${MAX_FIRED_KEYS}, and a draft newly scheduled before them will not fire. Shorten "Notify Me Before".`,
			});
		}
		return { warnings, events: fresh.map((entry) => upcomingItem(entry, now)), state };
	},
	async test(client, notice, { now }) {
		const read = await readUpcoming(client, now, notice.ms);
		const warnings = unreadableWarnings('calendarEntry', read.unreadable, read.total);
		const soonest = read.entries[0];
		if (soonest) return { warnings, event: upcomingItem(soonest, now) };
		const window = `${notice.amount} ${notice.amount === 1 ? notice.unit.replace(/s$/, '') : notice.unit}`;
		return {
			warnings,
			nothing: {
				message: `No draft is scheduled in the next ${window}`,
				description: `Schedule a draft within that window (${BRAND.displayName} › Draft › Create, with 'Schedule At'), or raise 'Notify Me Before', then fetch a test event again.`,
			},
		};
	},
	async candidates(client, notice, { now, zone }) {
		const read = await readUpcoming(client, now, notice.ms, zone);
		return {
			warnings: unreadableWarnings('calendarEntry', read.unreadable, read.total),
			events: latestScheduledFirst(read.entries).map((entry) => {
				const at = Date.parse(entry.date);
				return {
					id: upcomingKey(entry),
					draftId: entry.draftId ?? entry.id,
					text: entry.text ?? '',
					scheduledAt: new Date(at).toISOString(),
					// Its place in the output: Zapier fills in the time in the user's zone (the declaration's zapier.localTimes).
					scheduledAtLocal: null,
					timezone: zone,
					minutesUntil: Math.max(0, Math.round((at - now) / 60_000)),
				};
			}),
		};
	},
});

/** What a milestone's read met that the user should know: posts without an id or a time, a metric no post carries. */
function milestoneWarnings(read: PostsRead, config: MilestoneConfig): TriggerWarning[] {
	return [...unreadableWarnings('post', read.unreadable, read.records.length), ...unreadableMetric(config.metric, read.records, SOURCES.post)];
}

/** Post Metric Milestone: once per post, metric and threshold, for the posts of the watch window. */
const postMetricMilestone = defineEvent<MilestoneConfig, MilestoneState>({
	config: (input) => milestoneConfig(input),
	async poll(client, config, kept, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		return selectFromList(read, 'post', () => {
			const { fresh, state, overflowed } = selectMilestones(read.records, kept ?? {}, config, now);
			const warnings: TriggerWarning[] = unreadableMetric(config.metric, read.records, SOURCES.post);
			if (overflowed) {
				warnings.push({
					kind: 'overflow',
					message: `more than ${MAX_MILESTONE_POSTS} posts of the watch window reached the threshold; the oldest are remembered only by their date, and an older post reaching it later will not fire. Shorten the watch window.`,
				});
			}
			// Oldest post first, as New Published Post emits.
			return { events: [...fresh].reverse().map((c) => milestoneEvent(c, config)), state, warnings };
		});
	},
	async test(client, config, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		const warnings = milestoneWarnings(read, config);
		const latest = milestoneCandidates(read.records, config, now)[0];
		if (latest) return { warnings, event: milestoneEvent(latest, config) };
		return {
			warnings,
			nothing: {
				message: `No post of the last ${plural(config.watchDays, 'day')} has ${config.threshold} ${config.metric} or more`,
				description: `Lower 'Threshold' or widen the watch window to see a test event. The active workflow starts when a post reaches the threshold after its activation; posts already there never start it.`,
			},
		};
	},
	async candidates(client, config, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		return {
			warnings: [...milestoneWarnings(read, config), ...truncatedWarnings(read, 'post'), ...stalledWarnings(read)],
			events: milestoneCandidates(read.records, config, now).map((c) => milestoneEvent(c, config)),
		};
	},
});

/** New Draft: a watermark on creation times, whichever route created the draft. */
const newDraft = defineEvent<undefined, NewDraftState>({
	...WATERMARK,
	poll: sinceWatermark(readDraftsSince, 'draft', selectNewDrafts, (fresh) => [...fresh].reverse().map(draftEvent)),
	async test(client, _config, { options }) {
		const read = await fetchNewestDrafts(client, 1, options);
		const warnings = unreadableWarnings('draft', read.unreadable, read.records.length);
		const latest = read.newest[0];
		if (latest) return { warnings, event: draftEvent(latest) };
		return {
			warnings,
			nothing: {
				message: 'No draft yet',
				description: `Create a draft (${BRAND.displayName} › Draft › Create, or Generate with 'Save as Draft'), then fetch a test event again.`,
			},
		};
	},
	async candidates(client, _config, { options, count }) {
		const read = await fetchNewestDrafts(client, count, options);
		return { warnings: [...unreadableWarnings('draft', read.unreadable, read.records.length), ...stalledWarnings(read)], events: read.newest.map(draftEvent) };
	},
});

/** Credits Low events returned to Zapier per poll at most (the newest). */
export const CREDITS_LOW_POLL_COUNT = 100;

/**
 * Credits Low: each transaction that took the balance from at least the
 * threshold to below it (`${transactionId}:${threshold}`); when the history
 * does not show the fall, the balance below the threshold is one event.
 */
const creditsLow = defineEvent<number, CreditsLowState>({
	config: (input) => creditThreshold(input.threshold),
	async poll(client, threshold, kept, { now }) {
		const credits = await fetchCredits(client);
		const { fresh, state } = selectCreditsLow(credits, kept ?? {}, threshold, now);
		return { warnings: unreadableBalance(credits, SOURCES.credits), events: [...fresh].reverse().map((e) => creditsLowOutput(e, credits, threshold, now)), state };
	},
	async test(client, threshold, { now }) {
		const credits = await fetchCredits(client);
		const warnings = unreadableBalance(credits, SOURCES.credits);
		const latest = creditsLowHistory(credits, threshold)[0];
		if (latest) return { warnings, event: creditsLowOutput(latest, credits, threshold, now) };
		if (typeof credits.balance === 'number' && credits.balance < threshold) {
			return { warnings, event: creditsLowOutput({ id: `balance:${threshold}:${new Date(now).toISOString()}` }, credits, threshold, now) };
		}
		return {
			warnings,
			nothing: {
				message: `The balance (${String(credits.balance)} credits) is not below ${threshold}, and the history shows no fall below it`,
				description: `Raise 'Threshold' above the balance to see a test event. The active workflow starts when the balance falls below the threshold after its activation.`,
			},
		};
	},
	async candidates(client, threshold, { now }) {
		const credits = await fetchCredits(client);
		let events = creditsLowHistory(credits, threshold).slice(0, CREDITS_LOW_POLL_COUNT);
		if (events.length === 0 && typeof credits.balance === 'number' && credits.balance < threshold) events = [{ id: `below:${threshold}` }];
		return { warnings: unreadableBalance(credits, SOURCES.credits), events: events.map((e) => creditsLowOutput(e, credits, threshold, now)) };
	},
});

/** Each event of the trigger catalogue, keyed by it: an event left out does not compile. */
export const TRIGGER_EVENTS: Readonly<Record<TriggerKey, TriggerEvent>> = { newPublishedPost, upcomingScheduledDraft, postMetricMilestone, newDraft, creditsLow };
