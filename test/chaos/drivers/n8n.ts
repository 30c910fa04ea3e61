/**
 * The n8n driver: the Post Writer node's execute() and the trigger's poll(),
 * on the fake n8n contexts of test/n8n/helpers/context.ts (real HTTP to the
 * sandbox, the credential's Bearer header, static data persisted between
 * polls), with n8n-workflow's real sleep.
 *
 * One change for bounded runs: the transport caps each request's timeout
 * (30 s in the node) to the context's timeoutMs. A held connection then ends
 * in the same timeout error, sooner.
 */
import type { IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { newTransport, poll, runNode } from '../../n8n/helpers/context';
import type { Credentials, Transport } from '../../n8n/helpers/context';
import { record } from '../harness';
import type { ActionRun, Driver, DriverContext, Outcome, PollResult, TriggerPoller } from './types';
import { upcomingFireKey } from './types';
import { MAX_CONCURRENCY } from '../../../n8n/nodes/PostWriter/helpers/options';

type Send = (credentials: Credentials, options: IHttpRequestOptions) => Promise<unknown>;

/** The helper's transport with the timeout capped (and, with `events`, each send and answer logged in order). */
export function cappedTransport(timeoutMs: number, events?: string[]): Transport {
	const base = newTransport() as Transport & { send: Send };
	const send: Send = async (credentials, options) => {
		events?.push(`send ${options.method ?? 'GET'} ${new URL(options.url).pathname.replace(/^.*\/api\/v1/, '')}`);
		let answer: unknown;
		try {
			answer = await base.send(credentials, { ...options, timeout: Math.min(options.timeout ?? timeoutMs, timeoutMs) });
		} catch (e) {
			events?.push('answer none');
			throw e;
		}
		events?.push(`answer ${String((answer as { statusCode?: number }).statusCode)}`);
		return answer;
	};
	return Object.assign(Object.create(base) as Transport, { send, requests: base.requests, count: base.count.bind(base), reset: base.reset.bind(base) });
}

function credentials(ctx: DriverContext): Credentials {
	return { apiKey: ctx.key(), baseUrl: ctx.baseUrl };
}

/** One execution of the node over all items; per-item outcomes from the output (continueOnFail) or the thrown error. */
export async function execute(ctx: DriverContext, params: IDataObject, items: INodeExecutionData[], continueOnFail = true): Promise<ActionRun> {
	try {
		const { output, logs } = await runNode({ credentials: credentials(ctx), params, items, continueOnFail, transport: cappedTransport(ctx.timeoutMs, ctx.events) });
		for (const l of logs) record('n8n-log', l);
		const outcomes: Outcome[] = [];
		for (const item of output) {
			record('output', item);
			const index = (item.pairedItem as { item: number }).item;
			const error = item.json.error;
			const outcome: Outcome = typeof error === 'string' ? { ok: false, error } : { ok: true, json: item.json };
			// List operations give several items per input item: the first one stands for the input.
			if (outcomes[index] === undefined) outcomes[index] = outcome;
		}
		return { outcomes };
	} catch (e) {
		record('error(execution)', e);
		return { outcomes: [], thrown: describeMessage(e) };
	}
}

function describeMessage(e: unknown): string {
	if (!(e instanceof Error)) return String(e);
	const description = (e as { description?: unknown }).description;
	return typeof description === 'string' && description ? `${e.message} (${description})` : e.message;
}

function poller(ctx: DriverContext, params: IDataObject, keyOf: (json: IDataObject) => string): TriggerPoller {
	const staticData: IDataObject = {};
	return {
		async poll(): Promise<PollResult> {
			try {
				const { items, logs } = await poll({ credentials: credentials(ctx), params, staticData, transport: cappedTransport(ctx.timeoutMs) });
				for (const l of logs) record('n8n-log', l);
				for (const i of items) record('fire', i);
				return { fired: items.map(keyOf) };
			} catch (e) {
				record('error(poll)', e);
				return { error: describeMessage(e) };
			}
		},
		stateBytes: () => Buffer.byteLength(JSON.stringify(staticData)),
	};
}

export const n8nDriver: Driver = {
	name: 'n8n',
	skipReason: () => undefined,
	oneClientPerRun: true,
	maxConcurrency: MAX_CONCURRENCY,
	generate: (ctx, prompts, options) =>
		execute(
			ctx,
			{
				resource: 'post',
				operation: 'generate',
				prompt: '={{ $json.prompt }}',
				options: {
					// Concurrency 1 unless asked: the matrix's per-item expectations assume one item after the other.
					concurrency: options?.concurrency ?? 1,
					...(options?.minCreditsToKeep !== undefined ? { minCreditsToKeep: options.minCreditsToKeep } : {}),
				},
			},
			prompts.map((prompt) => ({ json: { prompt } })),
			options?.continueOnFail ?? true,
		),
	listDrafts: (ctx, count) =>
		execute(
			ctx,
			{ resource: 'draft', operation: 'getMany', returnAll: false, limit: 5 },
			Array.from({ length: count }, () => ({ json: {} })),
		),
	guided: (ctx, topics) =>
		execute(
			ctx,
			{ resource: 'creation', operation: 'createGuided', topic: '={{ $json.topic }}' },
			topics.map((topic) => ({ json: { topic } })),
		),
	newPostTrigger: (ctx) => poller(ctx, { event: 'newPublishedPost' }, (json) => String(json.id)),
	upcomingTrigger: (ctx, lookaheadMinutes) =>
		poller(ctx, { event: 'upcomingScheduledDraft', notifyAmount: lookaheadMinutes, notifyUnit: 'minutes' }, (json) => upcomingFireKey(json)),
	milestoneTrigger: (ctx, threshold) => poller(ctx, { event: 'postMetricMilestone', metric: 'likes', threshold, watchDays: 7 }, (json) => String(json.id)),
	newDraftTrigger: (ctx) => poller(ctx, { event: 'newDraft' }, (json) => String(json.id)),
	creditsLowTrigger: (ctx, threshold) => poller(ctx, { event: 'creditsLow', threshold }, (json) => String(json.id)),
};
