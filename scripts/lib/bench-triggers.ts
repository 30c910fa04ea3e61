/**
 * The bench's section 2: what a trigger's poll costs (requests per poll, on both platforms, over 30 polls of quiet
 * and busy turns) and how big its state grows (10,000 posts in batches of 100 published at the same second), with
 * the section of the report and its targets.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { DEFAULT_ACCOUNT_ID } from '../../sandbox/state';
import { poll } from '../../test/n8n/helpers/context';
import { table, verdict, type BenchSection } from './bench-format';
import { POLL_TARGETS } from './bench-targets';

type Obj = Record<string, unknown>;

/** The Zapier test helpers (test/zapier/helpers.ts), loaded in main(): they register a jest afterAll, a no-op here. */
type ZapierHelpers = typeof import('../../test/zapier/helpers');
let App: ZapierHelpers['App'];
let bundle: ZapierHelpers['bundle'];
let appTester: (fn: unknown, b: unknown) => Promise<unknown>;

export async function loadZapierHelpers(): Promise<void> {
	const g = globalThis as unknown as { afterAll?: (fn: () => void) => void };
	g.afterAll ??= () => undefined;
	// As under jest: zapier-platform-core then skips its per-invocation memory printout.
	process.env.NODE_ENV ??= 'test';
	const helpers = await import('../../test/zapier/helpers');
	({ App, bundle } = helpers);
	appTester = helpers.appTester as unknown as typeof appTester;
}


export interface PollCost {
	trigger: string;
	polls: number;
	perPoll: { min: number; max: number; mean: number };
	fired: number;
	expected: number;
}

function stats(list: number[]) {
	return { min: Math.min(...list), max: Math.max(...list), mean: list.reduce((a, b) => a + b, 0) / list.length };
}

/** Publishes `count` posts at the sandbox clock's next second (drafts scheduled, clock advanced). */
function publish(sb: Sandbox, count: number): string[] {
	const at = new Date(sb.clock.now() + 1000).toISOString();
	const drafts = Array.from({ length: count }, (_, i) => sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Bench post ${i} at ${at}`, at));
	sb.clock.advance(1000);
	const ids = new Set(drafts.map((d) => d.id));
	return sb.state.account(DEFAULT_ACCOUNT_ID).posts.filter((p) => p.draftId && ids.has(p.draftId)).map((p) => p.id);
}

function schedule(sb: Sandbox, count: number): number {
	for (let i = 0; i < count; i++) {
		const at = new Date(Math.floor(sb.clock.now() / 1000) * 1000 + 20 * 60_000 + Math.random() * 30 * 60_000).toISOString();
		sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Bench scheduled ${i}`, at);
	}
	return count;
}

export const POLLS = 30;
/** New items between two polls, cycling: quiet polls and busy ones. */
const PATTERN = [0, 1, 0, 2, 0, 0, 3, 1, 0, 1];

export async function pollCostN8n(sb: Sandbox, event: 'newPublishedPost' | 'upcomingScheduledDraft'): Promise<PollCost> {
	const staticData: IDataObject = {};
	const params = event === 'newPublishedPost' ? { event } : { event, notifyAmount: 1, notifyUnit: 'hours' };
	const credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
	await poll({ credentials, params, staticData });
	const perPoll: number[] = [];
	let fired = 0;
	let expected = 0;
	for (let i = 0; i < POLLS; i++) {
		const n = PATTERN[i % PATTERN.length];
		expected += event === 'newPublishedPost' ? publish(sb, n).length : schedule(sb, n);
		const before = sb.stats.requests;
		const { items } = await poll({ credentials, params, staticData });
		perPoll.push(sb.stats.requests - before);
		fired += items.length;
	}
	return { trigger: `n8n ${event === 'newPublishedPost' ? 'New Published Post' : 'Upcoming Scheduled Draft'}`, polls: POLLS, perPoll: stats(perPoll), fired, expected };
}

export async function pollCostZapier(sb: Sandbox, key: 'newPublishedPost' | 'upcomingScheduledDraft'): Promise<PollCost> {
	const inputData = key === 'upcomingScheduledDraft' ? { notifyBefore: '60', notifyBeforeUnit: 'minutes' } : {};
	const auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
	const perform = (App.triggers as Record<string, { operation: { perform: unknown } }>)[key].operation.perform;
	const seen = new Set<string>();
	for (const item of (await appTester(perform, bundle(inputData, { isPopulatingDedupe: true }, auth))) as Obj[]) seen.add(String(item.id));
	const perPoll: number[] = [];
	let fired = 0;
	let expected = 0;
	for (let i = 0; i < POLLS; i++) {
		const n = PATTERN[i % PATTERN.length];
		expected += key === 'newPublishedPost' ? publish(sb, n).length : schedule(sb, n);
		const before = sb.stats.requests;
		const items = (await appTester(perform, bundle(inputData, {}, auth))) as Obj[];
		perPoll.push(sb.stats.requests - before);
		for (const item of items) {
			if (!seen.has(String(item.id))) fired++;
			seen.add(String(item.id));
		}
	}
	return { trigger: `Zapier ${key === 'newPublishedPost' ? 'New Published Post' : 'Upcoming Scheduled Draft'}`, polls: POLLS, perPoll: stats(perPoll), fired, expected };
}

export interface StateSize {
	posts: number;
	bytes: number;
	fired: number;
	unique: number;
	polls: number;
	requests: number;
	shape: string;
}

/** 10,000 posts go by in batches of 100 (all of a batch at the same second: the worst case for the ids kept at the watermark). */
export async function triggerState(total = 10_000, batch = 100): Promise<StateSize> {
	const sb = await startSandbox({ keySeed: 'chaos-bench', quota: { default: { limit: 1_000_000, windowMs: 60_000 } } });
	try {
		const staticData: IDataObject = {};
		const credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		const params = { event: 'newPublishedPost' };
		await poll({ credentials, params, staticData });
		sb.resetStats();
		const firedIds: string[] = [];
		let polls = 0;
		for (let published = 0; published < total; published += batch) {
			publish(sb, batch);
			const { items } = await poll({ credentials, params, staticData });
			polls++;
			firedIds.push(...items.map((i) => String(i.id)));
		}
		const json = JSON.stringify(staticData);
		const state = (staticData.newPublishedPost ?? {}) as { idsAtWatermark?: string[] };
		return {
			posts: total,
			bytes: Buffer.byteLength(json),
			fired: firedIds.length,
			unique: new Set(firedIds).size,
			polls,
			requests: sb.stats.requests,
			shape: `watermark + ${state.idsAtWatermark?.length ?? 0} ids at the watermark`,
		};
	} finally {
		await sb.close();
	}
}

/** Section 2: every trigger's poll cost on both platforms, each on a sandbox of its own, and the n8n trigger's state. */
export async function measurePolls(log: (line: string) => void): Promise<BenchSection> {
	log('2. poll cost');
	const costs: PollCost[] = [];
	for (const f of [
		(sb: Sandbox) => pollCostN8n(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostN8n(sb, 'upcomingScheduledDraft'),
		(sb: Sandbox) => pollCostZapier(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostZapier(sb, 'upcomingScheduledDraft'),
	]) {
		const sb = await startSandbox({ keySeed: 'chaos-bench', quota: { default: { limit: 1_000_000, windowMs: 60_000 } } });
		try {
			costs.push(await f(sb));
		} finally {
			await sb.close();
		}
	}
	log('2b. n8n trigger state after 10,000 posts');
	const state = await triggerState();
	const section =
		`### 2. Poll cost (${POLLS} steady-state polls after activation; 0–3 new items between polls)\n\n` +
		table(
			['trigger', 'requests per poll (min–max)', 'mean', 'fired', 'expected'],
			costs.map((c) => [c.trigger, `${c.perPoll.min}–${c.perPoll.max}`, c.perPoll.mean.toFixed(2), c.fired, c.expected]),
		) +
		`\n\nn8n New Published Post, static data after ${state.posts.toLocaleString('en-US')} posts (batches of 100 published at the same second, polled after each batch): **${state.bytes} bytes** of JSON (${state.shape}); ${state.fired.toLocaleString('en-US')} fired, ${state.unique.toLocaleString('en-US')} unique, in ${state.polls} polls and ${state.requests} requests.`;
	const targets = [
		...costs.map((c) => [
			`${c.trigger}: exactly ${POLL_TARGETS.requestsPerPoll} request per steady-state poll`,
			`${c.perPoll.min}–${c.perPoll.max} (mean ${c.perPoll.mean.toFixed(2)})`,
			verdict(c.perPoll.min === POLL_TARGETS.requestsPerPoll && c.perPoll.max === POLL_TARGETS.requestsPerPoll),
		]),
		[`n8n trigger state ≤ ${POLL_TARGETS.stateBytes / 1024} KB after ${POLL_TARGETS.statePosts.toLocaleString('en-US')} posts`, `${state.bytes} B`, verdict(state.bytes <= POLL_TARGETS.stateBytes)],
	];
	return { section, targets };
}
