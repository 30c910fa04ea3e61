/**
 * The polling of Post Writer Trigger, on the core's polling functions.
 *
 * State lives in the node's static data, one key per event. Each poll
 * computes the next state from what it read and writes it only once the
 * reading succeeded, so a failed poll never advances anything.
 * "Fetch Test Event" (manual mode) reads without touching the state.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PostWriterClient } from '../../shared/client';
import type { CreditsLowState, MilestoneConfig, MilestoneState, NewDraftState } from '../../shared/event-state';
import type { NotifyUnit, PostWatermarkState, PostsRead, UnreadableRecord, UpcomingState } from '../../shared/polling';
import type { CalendarEntry } from '../../shared/types';
import { BRAND } from '../../shared/brand';
import { PostWriterError } from '../../shared/errors';
import {
	MAX_MILESTONE_POSTS,
	creditThreshold,
	creditsLowHistory,
	creditsLowOutput,
	draftEvent,
	milestoneCandidates,
	milestoneConfig,
	milestoneEvent,
	selectCreditsLow,
	selectMilestones,
	selectNewDrafts,
} from '../../shared/event-state';
import { fetchCredits, fetchNewestDrafts, fetchNewestPosts, readDraftsSince, readPostsInWindow, readPostsSince, readUpcoming } from '../../shared/poll-reader';
import { MAX_FIRED_KEYS, lookaheadMs, oldestFirst, selectNewPosts, selectUpcoming, stalledWarning, truncationWarning, unreadableMessage } from '../../shared/polling';
import type { RecordKind } from '../../shared/records';
import type { TriggerKey } from '../../shared/triggers';
import { getTrigger } from '../../shared/triggers';
import { errorTexts, toNodeError } from '../PostWriter/helpers/errors';
import { createClient } from '../PostWriter/transport';

export type TriggerEvent = TriggerKey;

export interface TriggerStaticData {
	newPublishedPost?: PostWatermarkState;
	upcomingScheduledDraft?: UpcomingState;
	postMetricMilestone?: MilestoneState;
	newDraft?: NewDraftState;
	creditsLow?: CreditsLowState;
	[key: string]: unknown;
}

/**
 * Posts read per page. When /posts is newest first, a quiet poll is one
 * request of one page. When it is oldest first (the spec does not say), every
 * poll reads the whole list, one request per page, up to MAX_PAGES.
 */
export const PAGE_SIZE = 100;
/** Pages a poll reads at most: a burst newest first, or the whole list oldest first (10,000 posts). */
export const MAX_PAGES = 100;

/** Failures worth another try at the next poll without bothering anyone. */
const TRANSIENT = new Set(['network', 'timeout', 'server', 'rate_limited', 'workflow_busy', 'malformed']);

function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((json) => ({ json }));
}

function upcomingItem(entry: CalendarEntry, now: number): IDataObject {
	const at = Date.parse(entry.date);
	return {
		...entry,
		draftId: entry.draftId ?? entry.id,
		scheduledAt: new Date(at).toISOString(),
		minutesUntil: Math.round((at - now) / 60_000),
	} as IDataObject;
}

/** The notice window; the core refuses a non-positive or over-long one, naming "notifyBefore". */
function readLookahead(ctx: IPollFunctions): { ms: number; amount: number; unit: NotifyUnit } {
	const amount = Number(ctx.getNodeParameter('notifyAmount', 1));
	const unit = ctx.getNodeParameter('notifyUnit', 'hours') as NotifyUnit;
	return { ms: lookaheadMs(amount, unit), amount, unit };
}

/**
 * No silent misses: records the trigger cannot place (no id, or no time,
 * under any of their names) are an error on the first poll and in Fetch Test
 * Event, so that the workflow is not activated on a shape it cannot read,
 * and a warning on later polls, which go on with the records they can read.
 */
function reportUnreadable(
	ctx: IPollFunctions,
	first: boolean,
	what: { kind: RecordKind; unreadable: UnreadableRecord[]; total: number; source: string },
): void {
	const message = unreadableMessage(what.kind, what.unreadable, what.total, what.source);
	if (!message) return;
	if (first) {
		const { title, description } = errorTexts(message);
		throw new NodeOperationError(ctx.getNode(), title, { description });
	}
	ctx.logger.warn(`${BRAND.displayName} Trigger: ${message}`, { node: ctx.getNode().name, unreadable: what.unreadable.length });
}

/**
 * No silent stop: when the read stopped while the service said more follow
 * (a paging it cannot follow, a repeated page, a cycling cursor), the poll
 * warns, naming the list and what the service said, fires nothing and keeps
 * the state, so that the next good poll fires what this one could not read.
 */
function stalled(ctx: IPollFunctions, read: PostsRead, event: TriggerEvent): boolean {
	const warning = stalledWarning(read);
	if (!warning) return false;
	ctx.logger.warn(`${BRAND.displayName} Trigger (${event}): ${warning}`, { node: ctx.getNode().name, requests: read.requests });
	return true;
}

async function pollNewPosts(ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const state = data.newPublishedPost ?? {};
	const read = await readPostsSince(client, state, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(ctx, !state.initialised, { kind: 'post', unreadable: read.unreadable, total: read.records.length, source: 'GET /posts' });
	if (stalled(ctx, read, 'newPublishedPost')) return null;
	const { fresh, state: next } = selectNewPosts(read.records, state);
	const warning = truncationWarning(read);
	if (warning) ctx.logger.warn(`${BRAND.displayName} Trigger: ${warning}`, { node: ctx.getNode().name, order: read.order, requests: read.requests });
	if (next !== state) data.newPublishedPost = next;
	return fresh.length > 0 ? [toItems(oldestFirst(fresh) as IDataObject[])] : null;
}

async function pollUpcoming(ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const { ms } = readLookahead(ctx);
	const now = Date.now();
	const { entries, unreadable, total } = await readUpcoming(client, now, ms);
	reportUnreadable(ctx, data.upcomingScheduledDraft === undefined, { kind: 'calendarEntry', unreadable, total, source: 'GET /calendar' });
	const { fresh, state: next, overflowed } = selectUpcoming(entries, data.upcomingScheduledDraft ?? {}, now, ms);
	if (overflowed) {
		ctx.logger.warn(
			`${BRAND.displayName} Trigger: more than ${MAX_FIRED_KEYS} drafts are scheduled within the notice; the trigger remembers the latest ${MAX_FIRED_KEYS}, and a draft newly scheduled before them will not fire. Shorten "Notify Me Before".`,
			{ node: ctx.getNode().name },
		);
	}
	// Written only when it changed, so that a quiet poll does not save the workflow.
	if (JSON.stringify(next) !== JSON.stringify(data.upcomingScheduledDraft)) data.upcomingScheduledDraft = next;
	return fresh.length > 0 ? [fresh.map((entry) => ({ json: upcomingItem(entry, now) }))] : null;
}

/** Post Metric Milestone's options; the core refuses bad ones, naming the field. */
function readMilestoneConfig(ctx: IPollFunctions): MilestoneConfig {
	return milestoneConfig({
		metric: ctx.getNodeParameter('metric', 'likes'),
		metricName: ctx.getNodeParameter('metricName', ''),
		threshold: ctx.getNodeParameter('threshold', 100),
		watchDays: ctx.getNodeParameter('watchDays', 7),
	});
}

/** Writes a state only when it changed, so that a quiet poll does not save the workflow. */
function store<K extends 'postMetricMilestone' | 'newDraft' | 'creditsLow'>(data: TriggerStaticData, key: K, next: TriggerStaticData[K]): void {
	if (JSON.stringify(next) !== JSON.stringify(data[key])) data[key] = next;
}

async function pollMilestones(ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const config = readMilestoneConfig(ctx);
	const now = Date.now();
	const read = await readPostsInWindow(client, config, now, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(ctx, data.postMetricMilestone === undefined, { kind: 'post', unreadable: read.unreadable, total: read.records.length, source: 'GET /posts' });
	if (stalled(ctx, read, 'postMetricMilestone')) return null;
	const { fresh, state: next, overflowed } = selectMilestones(read.records, data.postMetricMilestone ?? {}, config, now);
	const warning = truncationWarning(read);
	if (warning) ctx.logger.warn(`${BRAND.displayName} Trigger: ${warning}`, { node: ctx.getNode().name, order: read.order, requests: read.requests });
	if (overflowed) {
		ctx.logger.warn(
			`${BRAND.displayName} Trigger: more than ${MAX_MILESTONE_POSTS} posts of the watch window reached the threshold; the oldest are remembered only by their date, and an older post reaching it later will not fire. Shorten the watch window.`,
			{ node: ctx.getNode().name },
		);
	}
	store(data, 'postMetricMilestone', next);
	// Oldest post first, as New Published Post emits.
	return fresh.length > 0 ? [[...fresh].reverse().map((c) => ({ json: milestoneEvent(c, config) as IDataObject }))] : null;
}

async function pollNewDrafts(ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const state = data.newDraft ?? {};
	const read = await readDraftsSince(client, state, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(ctx, !state.initialised, { kind: 'draft', unreadable: read.unreadable, total: read.records.length, source: 'GET /drafts' });
	if (stalled(ctx, read, 'newDraft')) return null;
	const { fresh, state: next } = selectNewDrafts(read.records, state);
	const warning = truncationWarning(read);
	if (warning) ctx.logger.warn(`${BRAND.displayName} Trigger: ${warning.replace(/posts/g, 'drafts').replace(/published/g, 'created')}`, { node: ctx.getNode().name });
	store(data, 'newDraft', next);
	return fresh.length > 0 ? [[...fresh].reverse().map((d) => ({ json: draftEvent(d) as IDataObject }))] : null;
}

async function pollCreditsLow(ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const threshold = creditThreshold(ctx.getNodeParameter('threshold', 10));
	const now = Date.now();
	const credits = await fetchCredits(client);
	const { fresh, state: next } = selectCreditsLow(credits, data.creditsLow ?? {}, threshold, now);
	store(data, 'creditsLow', next);
	return fresh.length > 0 ? [[...fresh].reverse().map((e) => ({ json: creditsLowOutput(e, credits, threshold, now) as IDataObject }))] : null;
}

/** A test event that cannot be shown: what is missing and what to do. */
function nothingToShow(ctx: IPollFunctions, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${message}: there is nothing to show as a test event`, { description });
}

async function testNewPost(ctx: IPollFunctions, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const read = await fetchNewestPosts(client, 1, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(ctx, true, { kind: 'post', unreadable: read.unreadable, total: read.records.length, source: 'GET /posts' });
	const latest = read.newest[0];
	if (!latest) {
		throw nothingToShow(
			ctx,
			'No published post yet',
			`Publish a post with ${BRAND.displayName} (or schedule a draft and wait for it), then fetch a test event again. The active workflow will start on posts published after its activation.`,
		);
	}
	return [toItems([latest.record as IDataObject])];
}

async function testUpcoming(ctx: IPollFunctions, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const { ms, amount, unit } = readLookahead(ctx);
	const now = Date.now();
	const upcoming = await readUpcoming(client, now, ms);
	reportUnreadable(ctx, true, { kind: 'calendarEntry', unreadable: upcoming.unreadable, total: upcoming.total, source: 'GET /calendar' });
	const soonest = upcoming.entries[0];
	if (!soonest) {
		const window = `${amount} ${amount === 1 ? unit.replace(/s$/, '') : unit}`;
		throw nothingToShow(
			ctx,
			`No draft is scheduled in the next ${window}`,
			`Schedule a draft within that window (${BRAND.displayName} › Draft › Create, with 'Schedule At'), or raise 'Notify Me Before', then fetch a test event again.`,
		);
	}
	return [[{ json: upcomingItem(soonest, now) }]];
}

async function testMilestone(ctx: IPollFunctions, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const now = Date.now();
	const config = readMilestoneConfig(ctx);
	const read = await readPostsInWindow(client, config, now, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	const latest = milestoneCandidates(read.records, config, now)[0];
	if (!latest) {
		throw nothingToShow(
			ctx,
			`No post of the last ${config.watchDays} day${config.watchDays === 1 ? '' : 's'} has ${config.threshold} ${config.metric} or more`,
			`Lower 'Threshold' or widen the watch window to see a test event. The active workflow starts when a post reaches the threshold after its activation; posts already there never start it.`,
		);
	}
	return [[{ json: milestoneEvent(latest, config) as IDataObject }]];
}

async function testNewDraft(ctx: IPollFunctions, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const latest = (await fetchNewestDrafts(client, 1, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES })).newest[0];
	if (!latest) {
		throw nothingToShow(ctx, 'No draft yet', `Create a draft (${BRAND.displayName} › Draft › Create, or Generate with 'Save as Draft'), then fetch a test event again.`);
	}
	return [[{ json: draftEvent(latest) as IDataObject }]];
}

async function testCreditsLow(ctx: IPollFunctions, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const now = Date.now();
	const threshold = creditThreshold(ctx.getNodeParameter('threshold', 10));
	const credits = await fetchCredits(client);
	const latest = creditsLowHistory(credits, threshold)[0];
	if (latest) return [[{ json: creditsLowOutput(latest, credits, threshold, now) as IDataObject }]];
	if (typeof credits.balance === 'number' && credits.balance < threshold) {
		return [[{ json: creditsLowOutput({ id: `balance:${threshold}:${new Date(now).toISOString()}` }, credits, threshold, now) as IDataObject }]];
	}
	throw nothingToShow(
		ctx,
		`The balance (${String(credits.balance)} credits) is not below ${threshold}, and the history shows no fall below it`,
		`Raise 'Threshold' above the balance to see a test event. The active workflow starts when the balance falls below the threshold after its activation.`,
	);
}

type EventPoll = (ctx: IPollFunctions, client: PostWriterClient, data: TriggerStaticData) => Promise<INodeExecutionData[][] | null>;
/** Fetch Test Event: the latest matching item, state untouched. */
type EventTest = (ctx: IPollFunctions, client: PostWriterClient) => Promise<INodeExecutionData[][]>;

/** How each event of the trigger catalogue polls and shows a test event: keyed by it, so that an event left out does not compile. */
const EVENTS: Readonly<Record<TriggerEvent, { poll: EventPoll; test: EventTest }>> = {
	newPublishedPost: { poll: pollNewPosts, test: testNewPost },
	upcomingScheduledDraft: { poll: pollUpcoming, test: testUpcoming },
	postMetricMilestone: { poll: pollMilestones, test: testMilestone },
	newDraft: { poll: pollNewDrafts, test: testNewDraft },
	creditsLow: { poll: pollCreditsLow, test: testCreditsLow },
};

/**
 * What n8n 2.36+ adds to a poll's context (n8n-workflow's IPollFunctions from
 * 2.36 on; absent from the n8n-workflow 2.8 this package compiles against).
 */
interface DurablePollHooks {
	/** Milliseconds this poll may spend before the engine abandons it. */
	getPollBudgetMs?: () => number;
	/** Persists a cursor staged by a poll that emitted nothing (the durable poller's engines). */
	__commitCursor?: () => Promise<void>;
}

/**
 * When the poll must be done: n8n 2.36+ gives a poll a budget
 * (`getPollBudgetMs`; on the durable poller, 45 s less a margin, after which
 * n8n abandons the poll and backs off). No request starts, and no retry waits,
 * past it: the poll ends with a passing "time allowed" failure, its state
 * unchanged, and the next poll reads the same window again. Older n8n has no
 * budget.
 */
function pollDeadline(ctx: IPollFunctions): number | undefined {
	const budget = (ctx as IPollFunctions & DurablePollHooks).getPollBudgetMs;
	if (typeof budget !== 'function') return undefined;
	const ms = Number(budget.call(ctx));
	return Number.isFinite(ms) && ms > 0 ? Date.now() + ms : undefined;
}

/**
 * Keeps what the first poll learnt (the newest post, the posts already over a
 * milestone…). n8n runs a poll when it activates the workflow; the classic
 * poller keeps its state in the workflow's static data, but n8n's durable
 * poller (opt-in in 2.41: N8N_POLLER_DURABLE_CURSORS_ENABLED with the
 * scheduler flags) treats that poll as a test and drops the cursor it staged.
 * The first scheduled poll would then start over, up to one interval later,
 * and silently miss what happened in between. Committing the seed closes that
 * gap. It writes the cursor only (no execution, no items); n8n's classic
 * poller and n8n before 2.36 have no such hook, and n8n ignores a cursor that
 * did not change.
 */
async function keepSeed(ctx: IPollFunctions): Promise<void> {
	const hooks = ctx as IPollFunctions & DurablePollHooks;
	if (typeof hooks.__commitCursor !== 'function') return;
	try {
		await hooks.__commitCursor();
	} catch (error) {
		// The poll itself went well: it is not failed for this. n8n commits the state after a later poll.
		ctx.logger.warn(`${BRAND.displayName} Trigger: n8n could not save where the trigger starts (${error instanceof Error ? error.message : String(error)}); its next poll starts from then.`, {
			node: ctx.getNode().name,
		});
	}
}

export async function pollTrigger(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event', 'newPublishedPost') as TriggerEvent;
	const handlers = (EVENTS as Partial<Record<string, (typeof EVENTS)[TriggerEvent]>>)[event];
	if (!handlers) throw new NodeOperationError(this.getNode(), `Unknown event "${String(event)}"`, { description: 'Pick the event again in Trigger On.' });
	const data = this.getWorkflowStaticData('node') as TriggerStaticData;
	const manual = this.getMode() === 'manual';
	const polledBefore = event === 'newPublishedPost' ? Boolean(data.newPublishedPost?.initialised) : data[event] !== undefined;
	let failure: unknown;
	try {
		const client = await createClient(this, { deadline: pollDeadline(this) });
		if (manual) return await handlers.test(this, client);
		const result = await handlers.poll(this, client, data);
		if (!polledBefore && result === null) await keepSeed(this);
		return result;
	} catch (error) {
		failure = error;
	}
	// The state was not written: the next poll reads the same window again, so nothing is skipped.
	if (!manual && polledBefore && failure instanceof PostWriterError && TRANSIENT.has(failure.kind)) {
		this.logger.warn(`${BRAND.displayName} Trigger (${event}): ${failure.message} The next poll tries again; nothing was skipped.`, {
			node: this.getNode().name,
			kind: failure.kind,
		});
		return null;
	}
	// The operation the event reads names the error.
	throw toNodeError(this.getNode(), failure, 0, getTrigger(event).reads);
}
