/**
 * The polling of Post Writer Trigger: one poll and one test event for every
 * event of the trigger catalogue, over the core's logic of each
 * (TRIGGER_EVENTS in shared/triggers/events.ts).
 *
 * State lives in the node's static data, one key per event. Each poll
 * computes the next state from what it read and writes it only once the
 * reading succeeded, so a failed poll never advances anything.
 * "Fetch Test Event" (manual mode) reads without touching the state.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PostWriterClient } from '../../shared/client';
import type { EventInput, TriggerEvent, TriggerWarning, TriggerKey } from '../../shared/triggers';
import { TRIGGER_EVENTS, TRIGGER_KEYS, getTrigger, platformField } from '../../shared/triggers';
import { BRAND } from '../../shared/base';
import { PostWriterError } from '../../shared/errors';
import { errorTexts, toNodeError } from '../PostWriter/helpers/node-errors';
import { createClient } from '../PostWriter/transport';

/** The node's static data: each event's state under its key (see TRIGGER_EVENTS), as saved in workflows. */
export type TriggerStaticData = Partial<Record<TriggerKey, unknown>> & Record<string, unknown>;

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

/** The event's fields, read under the names and with the defaults n8n was published with. */
function eventInput(ctx: IPollFunctions, event: TriggerKey): EventInput {
	const input: Record<string, unknown> = {};
	for (const field of getTrigger(event).fields) {
		const shown = platformField(field, 'n8n');
		input[field.name] = ctx.getNodeParameter(shown.name, shown.default ?? '');
	}
	return input;
}

/**
 * Says what the event met, in the order met. No silent misses: records the
 * trigger cannot place (no id, or no time, under any of their names) are an
 * error on the first poll and in Fetch Test Event, so that the workflow is
 * not activated on a shape it cannot read, and a warning on later polls,
 * which go on with the records they can read. No silent stop: a read that
 * stalled is a warning naming the list and what the service said (the poll
 * then fires nothing and keeps the state, so the next good poll fires what
 * this one could not read).
 */
function report(ctx: IPollFunctions, event: TriggerKey, warnings: TriggerWarning[], first: boolean): void {
	const node = ctx.getNode().name;
	for (const warning of warnings) {
		if (warning.kind === 'unreadable') {
			if (first) {
				const { title, description } = errorTexts(warning.message);
				throw new NodeOperationError(ctx.getNode(), title, { description });
			}
			ctx.logger.warn(`${BRAND.displayName} Trigger: ${warning.message}`, { node, unreadable: warning.count });
		} else if (warning.kind === 'stalled') {
			ctx.logger.warn(`${BRAND.displayName} Trigger (${event}): ${warning.message}`, { node, requests: warning.read.requests });
		} else {
			ctx.logger.warn(`${BRAND.displayName} Trigger: ${warning.message}`, { node, ...(warning.kind === 'truncated' ? warning.details : undefined) });
		}
	}
}

/**
 * One poll: the state is written only once the reading succeeded, so a failed
 * poll never advances anything, and only when it changed, so that a quiet
 * poll does not save the workflow.
 */
async function pollEvent(ctx: IPollFunctions, event: TriggerKey, logic: TriggerEvent, client: PostWriterClient, data: TriggerStaticData): Promise<INodeExecutionData[][] | null> {
	const config = logic.config(eventInput(ctx, event), 'n8n');
	const kept = data[event];
	const step = await logic.poll(client, config, kept, { now: Date.now(), options: { pageSize: PAGE_SIZE, maxPages: MAX_PAGES } });
	report(ctx, event, step.warnings, !logic.polled(kept));
	if (step.state === undefined) return null;
	if (JSON.stringify(step.state) !== JSON.stringify(kept)) data[event] = step.state;
	return step.events.length > 0 ? [step.events.map((json) => ({ json: json as IDataObject }))] : null;
}

/** Fetch Test Event: the latest matching item, state untouched, or what is missing and what to do. */
async function testEvent(ctx: IPollFunctions, event: TriggerKey, logic: TriggerEvent, client: PostWriterClient): Promise<INodeExecutionData[][]> {
	const config = logic.config(eventInput(ctx, event), 'n8n');
	const shown = await logic.test(client, config, { now: Date.now(), options: { pageSize: PAGE_SIZE, maxPages: MAX_PAGES } });
	report(ctx, event, shown.warnings, true);
	if ('nothing' in shown) {
		throw new NodeOperationError(ctx.getNode(), `${shown.nothing.message}: there is nothing to show as a test event`, { description: shown.nothing.description });
	}
	return [[{ json: shown.event as IDataObject }]];
}

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
	const event = this.getNodeParameter('event', TRIGGER_KEYS[0]) as TriggerKey;
	const logic = (TRIGGER_EVENTS as Partial<Record<string, TriggerEvent>>)[event];
	if (!logic) throw new NodeOperationError(this.getNode(), `Unknown event "${String(event)}"`, { description: 'Pick the event again in Trigger On.' });
	const data = this.getWorkflowStaticData('node') as TriggerStaticData;
	const manual = this.getMode() === 'manual';
	const polledBefore = logic.polled(data[event]);
	let failure: unknown;
	try {
		const client = await createClient(this, { deadline: pollDeadline(this) });
		if (manual) return await testEvent(this, event, logic, client);
		const result = await pollEvent(this, event, logic, client, data);
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
