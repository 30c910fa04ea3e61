/**
 * The generated blocks of n8n/README.md (the page npm and n8n show users):
 * every default, bound and message it states comes from the node descriptions
 * and the code they are built from, never from a copy.
 *   n8n-operations  the resources and operations of the action node
 *   n8n-options     Options › … : left out, bounds, where, what (the node's own help text)
 *   n8n-lists       Return All / Limit of the Get Many operations, and the trigger's page bounds
 *   n8n-trigger     every event, its parameters with their defaults and bounds
 *   n8n-errors      what the node shows for the common failures, made by the node's error mapping
 * `npm run docs` writes them; test/docs/generated.test.ts fails when the file holds others.
 */
import type { IExecuteFunctions, INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PostWriter } from '../../n8n/nodes/PostWriter/PostWriter.node';
import { toNodeError } from '../../n8n/nodes/PostWriter/helpers/node-errors';
import { readConcurrency, readQuotaBudget } from '../../n8n/nodes/PostWriter/helpers/execute';
import { QUOTA_BUDGET_SETTING } from '../../n8n/nodes/PostWriter/transport';
import { UNCLEAR_ADVICE } from '../../n8n/nodes/PostWriter/helpers/paid';
import { PostWriterTrigger } from '../../n8n/nodes/PostWriterTrigger/PostWriterTrigger.node';
import { BRAND } from '../../shared/base';
import { getOperation } from '../../shared/catalogue';
import { LIST_HARD_CAP, newWalk, stallMessage, stepWalk, normaliseList } from '../../shared/lists';
import { RateLimitedError, errorFromResponse, networkErrorFrom } from '../../shared/errors';
import { floorError } from '../../shared/paid';
import { POSTS_MAX_PAGES, POSTS_PAGE_SIZE, getTrigger } from '../../shared/triggers';
import { redirectError, buildRequest, DEFAULT_RETRY_POLICY } from '../../shared/client';

const ACTION = new PostWriter().description.properties;
const TRIGGER = new PostWriterTrigger().description.properties;

const choices = (p: INodeProperties | undefined): INodePropertyOptions[] => (p?.options ?? []) as INodePropertyOptions[];
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const period = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

export interface NodeOperation {
	resource: string;
	operation: string;
	/** "Post › Generate" */
	label: string;
}

/** Every resource › operation of the action node, in the pickers' order. */
export function nodeOperations(): NodeOperation[] {
	return choices(ACTION.find((p) => p.name === 'resource')).flatMap((r) =>
		choices(ACTION.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value as string))).map((o) => ({
			resource: String(r.value),
			operation: String(o.value),
			label: `${r.name} › ${o.name}`,
		})),
	);
}

/** The parameter `name` shown for an operation (the first match in the description). */
export function propertyOf(op: NodeOperation, name: string): INodeProperties | undefined {
	return ACTION.find((p) => p.name === name && p.displayOptions?.show?.resource?.includes(op.resource) && p.displayOptions.show.operation?.includes(op.operation));
}

export function operationsBlock(): string {
	const rows = ['| Resource | Operations |', '|---|---|'];
	const byResource = new Map<string, string[]>();
	for (const op of nodeOperations()) {
		const [resource, operation] = op.label.split(' › ');
		byResource.set(resource, [...(byResource.get(resource) ?? []), operation]);
	}
	for (const [resource, operations] of byResource) rows.push(`| ${resource} | ${operations.join(' · ')} |`);
	return rows.join('\n');
}

/** A stand-in n8n context whose Options collection is empty: what the node reads when an option is left out. */
const nothingSet = { getNodeParameter: () => ({}) } as unknown as IExecuteFunctions;

/** What the node does with an option left out, read through the node's own readers. */
const LEFT_OUT: Record<string, () => string> = {
	concurrency: () => (readConcurrency(nothingSet) === 'auto' ? '**Auto**' : String(readConcurrency(nothingSet))),
	maxQuotaWait: () => `${(readQuotaBudget(nothingSet) ?? DEFAULT_RETRY_POLICY.maxQuotaWaitMs / 60_000).toString()} minutes`,
};

const onOff = (value: unknown): string => (value ? 'on' : 'off');

function bounds(p: INodeProperties): string {
	if (p.type === 'boolean') return 'on or off';
	const { minValue, maxValue } = (p.typeOptions ?? {}) as { minValue?: number; maxValue?: number };
	if (minValue !== undefined && maxValue !== undefined) return `${minValue} to ${maxValue}`;
	if (minValue !== undefined) return `${minValue} or more`;
	return maxValue !== undefined ? `at most ${maxValue}` : 'any';
}

/** "every operation", "every operation but A, B", or the list. */
function where(labels: string[], all: NodeOperation[]): string {
	if (labels.length === all.length) return 'every operation';
	const missing = all.filter((o) => !labels.includes(o.label)).map((o) => o.label);
	return missing.length < labels.length ? `every operation but ${missing.join(', ')}` : labels.join(', ');
}

export function optionsBlock(): string {
	const all = nodeOperations();
	const found = new Map<string, { option: INodeProperties; on: string[] }>();
	for (const op of all) {
		for (const option of (propertyOf(op, 'options')?.options ?? []) as INodeProperties[]) {
			const entry = found.get(option.name) ?? { option, on: [] };
			entry.on.push(op.label);
			found.set(option.name, entry);
		}
	}
	const rows = ['| Options › | left out | when set | on | what it does |', '|---|---|---|---|---|'];
	for (const [name, { option, on }] of found) {
		const leftOut = LEFT_OUT[name]?.() ?? (option.type === 'boolean' ? onOff(option.default) : String(option.default));
		const set = `${bounds(option)} (${option.type === 'boolean' ? `starts ${onOff(option.default)}` : `starts at ${String(option.default)}`} when added)`;
		rows.push(`| **${option.displayName}** | ${leftOut} | ${set} | ${where(on, all)} | ${cell(period(option.description ?? ''))} |`);
	}
	return rows.join('\n');
}

export function listsBlock(): string {
	const lists = nodeOperations().filter((op) => propertyOf(op, 'returnAll'));
	const limits = [...new Set(lists.map((op) => String(propertyOf(op, 'limit')?.default)))];
	return [
		`- ${lists.map((op) => `**${op.label}**`).join(', ')}: **Return All** follows the pages, one after the other, up to ${LIST_HARD_CAP.items.toLocaleString('en-US')} records or ${LIST_HARD_CAP.pages} pages; otherwise **Limit** (default ${limits.join(' or ')}) stops there without fetching another page.`,
		`- The trigger reads posts back to the last one it saw, ${POSTS_PAGE_SIZE} a page, at most ${POSTS_MAX_PAGES} pages a poll.`,
	].join('\n');
}

function triggerField(p: INodeProperties): string {
	const kind = p.type === 'options' ? `one of ${choices(p).map((o) => o.name).join(', ')}` : p.type === 'number' ? bounds(p) : 'text';
	const shownWith = Object.entries(p.displayOptions?.show ?? {}).filter(([k]) => k !== 'event');
	const shownAs = ([name, values]: [string, unknown]) => {
		const gate = TRIGGER.find((q) => q.name === name);
		const labels = ((values ?? []) as unknown[]).map((v) => choices(gate).find((o) => o.value === v)?.name ?? String(v));
		return `${gate?.displayName ?? name} = ${labels.join(', ')}`;
	};
	const gate = shownWith.length ? `, shown with ${shownWith.map(shownAs).join('; ')}` : '';
	const shown = choices(p).find((o) => o.value === p.default)?.name ?? String(p.default);
	const dflt = p.default === '' ? '' : `, default ${shown}`;
	return `**${p.displayName}** (${kind}${dflt}${gate})${p.description ? `: ${period(p.description)}` : ''}`;
}

export function triggerBlock(): string {
	const picker = TRIGGER.find((p) => p.name === 'event');
	return choices(picker)
		.map((event) => {
			const key = String(event.value);
			const fields = TRIGGER.filter((p) => p.name !== 'event' && p.displayOptions?.show?.event?.includes(key));
			const params = fields.length ? ` Parameters: ${fields.map(triggerField).join(' ')}` : '';
			return `- **${getTrigger(key as Parameters<typeof getTrigger>[0]).name}**${key === picker?.default ? ' (the default event)' : ''}: ${period(event.description ?? '')}${params}`;
		})
		.join('\n');
}

const NODE: INode = { id: 'docs', name: 'Post Writer', type: 'n8n-nodes-post-writer.postWriter', typeVersion: 1, position: [0, 0], parameters: {} };

export interface ShownError {
	/** What happened, in the docs' words. */
	what: string;
	/** The node's error: its title (red) and description (what to do). */
	message: string;
	description: string;
}

/** An ambiguous failure of a paid call as the node reports it: the memory of paid calls adds its advice (shared/paid/paid-call.ts). */
function unclear(error: Error): Error {
	error.message = `${error.message} ${UNCLEAR_ADVICE}`;
	return error;
}

/** The common failures, each through the node's error mapping as a run on Post › Generate meets it. */
export function shownErrors(): ShownError[] {
	const op = getOperation('generatePost');
	const answer = (status: number, message: string) => errorFromResponse(op, { status, value: { error: { message } }, jsonOk: true });
	const budgetMs = DEFAULT_RETRY_POLICY.maxQuotaWaitMs;
	const cases: [string, unknown][] = [
		['The key was revoked (401)', answer(401, 'API key has been revoked')],
		['The key lacks a scope (403)', answer(403, 'Missing required scope: posts:generate')],
		[
			'The quota stays taken past Options › Maximum Wait for the Quota (429)',
			new RateLimitedError(1_000, { operationName: op.name, budget: { budgetMs, waitedMs: budgetMs - 12_000, refusals: 14, quota: '10 calls per 1 s', setting: QUOTA_BUDGET_SETTING } }),
		],
		['A paid call failed after it may have been carried out (5xx)', unclear(errorFromResponse(op, { status: 502, value: {}, jsonOk: true }))],
		['A paid call got no answer in time (timeout)', unclear(networkErrorFrom(Object.assign(new Error('timeout of 60000ms exceeded'), { code: 'ECONNABORTED' }), op))],
		['Options › Minimum Credits to Keep stops a paid call', floorError('generatePost', 10, 10, 0)],
		['The Base URL names no server that answers', networkErrorFrom(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), op)],
		['The Base URL redirects to another address (3xx)', redirectError(op, buildRequest('generatePost', { prompt: 'p' }, BRAND.defaultBaseUrl), { status: 301, headers: { location: 'https://moved.example.com/api/v1/generate' }, body: '' }, BRAND.defaultBaseUrl)],
	];
	return cases.map(([what, error]) => {
		const shown = toNodeError(NODE, error, 0, 'generatePost');
		return { what, message: shown.message, description: shown.description ?? '' };
	});
}

/** The hint of a list the node cannot page to its end: a page that says 50 in all and gives no way to the rest. */
export function pagingStallHint(): string {
	const step = stepWalk(newWalk(), normaliseList({ data: [{ id: 'p1' }, { id: 'p2' }], total: 50 }));
	return step.stall ? stallMessage('GET /posts', step.stall, 2, 1) : '';
}

export function errorsBlock(): string {
	const rows = ['| what happened | the node says | and what to do |', '|---|---|---|', ...shownErrors().map((e) => `| ${e.what} | ${cell(e.message)} | ${cell(e.description)} |`)];
	return `${rows.join('\n')}\n\nA list the node cannot page to its end is not cut silently: Get Many returns what it read, with a hint in the output pane such as\n\n> ${pagingStallHint()}`;
}

export const N8N_README_BLOCKS: Record<string, () => string> = {
	'n8n-operations': operationsBlock,
	'n8n-options': optionsBlock,
	'n8n-lists': listsBlock,
	'n8n-trigger': triggerBlock,
	'n8n-errors': errorsBlock,
};
