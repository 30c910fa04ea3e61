/**
 * The integration tests once more with the sandbox serving its records in
 * another service's shape (option recordShape, see sandbox/shapes.ts):
 * snake_case with epoch-second dates, nested with synonyms and
 * epoch-millisecond dates, and a social API's style (metrics as
 * `<metric>_count` under `public_metrics`); each with its errors in another
 * shape too (option errorShape: flat, problem details, OAuth 2). The main
 * operations through the core client, the n8n node and the Zapier app must
 * give what they give on the sandbox's own shape (and may add the fields the
 * shape adds); the triggers on both platforms must fire exactly once per
 * event; the 403 and the revoked and expired keys keep their words.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../sandbox';
import type { ErrorShape, RecordShape, Sandbox } from '../../sandbox';
import { runGuided } from '../../shared/client';
import { createStandaloneClient } from '../../sdk';
import type { Credentials } from '../n8n/helpers/context';
import { newTransport, poll, runNode } from '../n8n/helpers/context';
import { bundle, run, runAuthTest } from '../zapier/helpers';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

type Obj = Record<string, unknown>;

const T0 = Date.parse('2026-11-21T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
const QUOTA = { default: { limit: 1_000_000, windowMs: 60_000 }, generate: { limit: 1_000_000, windowMs: 60_000 } };
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function sandbox(recordShape: RecordShape, errorShape: ErrorShape = 'nested'): Promise<Sandbox> {
	return await startSandbox({ now: T0, keySeed: 'record-shapes', quota: QUOTA, recordShape, errorShape });
}

/** What each shape's answer shows that the sandbox's own does not. */
const LOOKS: Readonly<Record<Exclude<RecordShape, 'native'>, RegExp>> = {
	snake: /"published_at":\d{10},/,
	nested: /"publishDate":\d{13},.*"reposts":/,
	social: /"created_at":"[^"]+","public_metrics":\{"like_count":\d+,"reply_count"/,
};

const credentialsOf = (sb: Sandbox): Credentials => ({ apiKey: sb.keys.full, baseUrl: sb.baseUrl });
const zapierOf = (sb: Sandbox) => (inputData: Obj = {}, meta: Obj = {}) => bundle(inputData, meta, { apiKey: sb.keys.full, baseUrl: sb.baseUrl });

/** The same steps against the native sandbox and the shaped one, each at its own clock (both start at T0 and move alike). */
async function both<T>(native: Sandbox, shaped: Sandbox, steps: (sb: Sandbox) => Promise<T>): Promise<{ native: T; shaped: T }> {
	const spy = jest.spyOn(Date, 'now');
	spy.mockImplementation(() => native.clock.now());
	const a = await steps(native);
	spy.mockImplementation(() => shaped.clock.now());
	const b = await steps(shaped);
	return { native: a, shaped: b };
}

async function coreSteps(sb: Sandbox): Promise<Obj> {
	const c = createStandaloneClient({ baseUrl: sb.baseUrl, apiKey: sb.keys.full });
	const generated = await c.generatePost({ prompt: 'Remote work lessons', numProposals: 2, scheduledAt: new Date(T0 + DAY).toISOString() });
	return {
		generated,
		analyzed: await c.analyzePost({ text: generated.proposals[0] }),
		rewritten: await c.rewritePost({ text: generated.proposals[0], instruction: 'Make it shorter' }),
		virality: await c.predictVirality({ text: generated.proposals[0] }),
		draft: await c.createDraft({ text: 'A plain draft' }),
		drafts: await c.listDrafts(),
		posts: await c.listPosts({}, { pageSize: 5 }),
		calendar: await c.getCalendar({ from: day(T0 - 3 * DAY), to: day(T0 + 3 * DAY) }),
		inspirations: await c.searchInspirations({ minLikes: 0 }),
		profile: await c.getAccountProfile({}),
		credits: await c.getCredits({}),
		profiles: await c.listWritingProfiles(),
		activated: await c.activateWritingProfile({ id: 'wp_analyst' }),
		guided: await runGuided(c, { topic: 'Hiring juniors' }),
	};
}

async function n8nSteps(sb: Sandbox): Promise<Obj> {
	const credentials = credentialsOf(sb);
	const node = async (params: IDataObject) => (await runNode({ credentials, params })).output.map((i) => i.json);
	return {
		simplified: await node({ resource: 'post', operation: 'getMany', returnAll: true }),
		raw: await node({ resource: 'post', operation: 'getMany', returnAll: true, simplify: false }),
		draft: await node({ resource: 'draft', operation: 'create', text: 'From n8n' }),
		drafts: await node({ resource: 'draft', operation: 'getMany', returnAll: true }),
		calendar: await node({ resource: 'calendar', operation: 'get', from: day(T0 - 2 * DAY), to: day(T0 + 4 * DAY) }),
		inspirations: await node({ resource: 'inspiration', operation: 'search', minLikes: 1000 }),
		profile: await node({ resource: 'account', operation: 'getProfile' }),
		credits: await node({ resource: 'account', operation: 'getCredits' }),
		profiles: await node({ resource: 'writingProfile', operation: 'getMany', returnAll: true }),
		activated: await node({ resource: 'writingProfile', operation: 'activate', id: 'wp_storyteller' }),
		guided: await node({ resource: 'creation', operation: 'createGuided', topic: 'Remote onboarding' }),
	};
}

async function zapierSteps(sb: Sandbox): Promise<Obj> {
	const z = zapierOf(sb);
	return {
		auth: await runAuthTest(z()),
		posts: await run('triggers', 'newPublishedPost', z({}, { timezone: 'Europe/Paris' })),
		upcoming: await run('triggers', 'upcomingScheduledDraft', z({ notifyBefore: 4, notifyBeforeUnit: 'days' })),
		dropdown: await run('triggers', 'listDrafts', z({}, { isFillingDynamicDropdown: true })),
		draft: await run('creates', 'createDraft', z({ text: 'From Zapier' })),
		found: await run('searches', 'listDrafts', z({ status: 'scheduled' })),
		profiles: await run('searches', 'listWritingProfiles', z({ name: 'voice' })),
		inspirations: await run('searches', 'searchInspirations', z({ minLikes: 1000 })),
		credits: await run('searches', 'getCredits', z()),
		guided: await run('creates', 'createPostGuided', z({ topic: 'Pricing pages' })),
	};
}

describe.each<[Exclude<RecordShape, 'native'>, ErrorShape]>([
	['snake', 'flat'],
	['nested', 'problem'],
	['social', 'oauth'],
])('the sandbox serving its records in the %s shape, its errors in the %s shape', (recordShape, errorShape) => {
	let native: Sandbox;
	let shaped: Sandbox;

	beforeEach(async () => {
		[native, shaped] = await Promise.all([sandbox('native'), sandbox(recordShape, errorShape)]);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await Promise.all([native.close(), shaped.close()]);
	});

	test('the shape is really another one', async () => {
		const res = await fetch(`${shaped.baseUrl}/posts?limit=1`, { headers: { Authorization: `Bearer ${shaped.keys.full}` } });
		const text = await res.text();
		expect(text).not.toMatch(/"publishedAt"/);
		expect(text).toMatch(LOOKS[recordShape]);
	});

	test('errors: the 403 names its scope, a revoked or expired key says so, on the core, n8n and Zapier', async () => {
		const refused = await fetch(`${shaped.baseUrl}/generate`, { method: 'POST', headers: { Authorization: `Bearer ${shaped.keys.readonly}` }, body: '{"prompt":"x"}' });
		expect(JSON.stringify(await refused.json())).not.toMatch(/"error":\{"code"/);
		const core = createStandaloneClient({ baseUrl: shaped.baseUrl, apiKey: shaped.keys.readonly });
		await expect(core.generatePost({ prompt: 'x' })).rejects.toMatchObject({ kind: 'missing_scope', scope: 'posts:generate' });
		const n8n = await runNode({ credentials: { ...credentialsOf(shaped), apiKey: shaped.keys.readonly }, params: { resource: 'post', operation: 'generate', prompt: 'x' } }).catch((e: unknown) => e);
		expect(n8n).toMatchObject({ httpCode: '403', message: expect.stringMatching(/lacks the scope "posts:generate"/) });
		for (const key of ['revoked', 'expired'] as const) {
			const client = createStandaloneClient({ baseUrl: shaped.baseUrl, apiKey: shaped.keys[key] });
			await expect(client.getCredits({})).rejects.toMatchObject({ kind: 'authentication', reason: key });
			const zapier = await run('searches', 'getCredits', bundle({}, {}, { apiKey: shaped.keys[key], baseUrl: shaped.baseUrl })).catch((e: Error) => e);
			expect(zapier).toMatchObject({ name: 'ExpiredAuthError', message: expect.stringMatching(key === 'revoked' ? /^API key has been revoked\./ : /^API key has expired\./) });
		}
	});

	test('Post Metric Milestone fires once on n8n and is a candidate on Zapier when a post reaches the threshold', async () => {
		jest.spyOn(Date, 'now').mockImplementation(() => shaped.clock.now());
		const credentials = credentialsOf(shaped);
		const params = { event: 'postMetricMilestone', metric: 'likes', threshold: 100_000, watchDays: 30 };
		const staticData: IDataObject = {};
		expect(await poll({ credentials, params, staticData })).toMatchObject({ result: null, logs: [] });
		const post = shaped.state.listPosts(DEFAULT_ACCOUNT_ID)[0];
		shaped.state.setMetrics(DEFAULT_ACCOUNT_ID, post.id, { likes: 100_001 });
		const fired = await poll({ credentials, params, staticData });
		expect(fired.logs).toEqual([]);
		expect(fired.items).toEqual([expect.objectContaining({ postId: post.id, metric: 'likes', value: 100_001 })]);
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		const candidates = await run('triggers', 'postMetricMilestone', zapierOf(shaped)({ metric: 'likes', threshold: 100_000, watchDays: 30 }));
		expect(candidates).toEqual([expect.objectContaining({ id: `${post.id}:likes:100000`, value: 100_001 })]);
	});

	test('every operation through the core client gives what it gives on the native shape', async () => {
		const { native: a, shaped: b } = await both(native, shaped, coreSteps);
		expect(b).toMatchObject(a);
		expect((b.posts as unknown[]).length).toBe(12);
	});

	test('the n8n node: the main operations give what they give on the native shape; Simplify keeps shares (reposts)', async () => {
		const { native: a, shaped: b } = await both(native, shaped, n8nSteps);
		expect(b).toMatchObject(a);
		expect((b.simplified as Obj[])[0]).toMatchObject({ likes: expect.any(Number), shares: expect.any(Number), impressions: expect.any(Number) });
	});

	test('the Zapier app: connection label, triggers, searches and creates give what they give on the native shape', async () => {
		const { native: a, shaped: b } = await both(native, shaped, zapierSteps);
		expect(b).toMatchObject(a);
		expect((b.auth as Obj).connectionLabel).toBe('Sandbox User (sandbox.user@example.com)');
		expect((b.posts as Obj[]).length).toBe(12);
		expect((b.upcoming as Obj[]).length).toBe(1);
	});

	test('n8n New Published Post: 10 posts published over 6 polls fire exactly once each, with nothing logged', async () => {
		jest.spyOn(Date, 'now').mockImplementation(() => shaped.clock.now());
		const credentials = credentialsOf(shaped);
		const staticData: IDataObject = {};
		const transport = newTransport();
		const first = await poll({ credentials, params: { event: 'newPublishedPost' }, staticData, transport });
		expect(first.result).toBeNull();
		expect(first.logs).toEqual([]);
		const fired: string[] = [];
		const published: string[] = [];
		// Two posts in the same second on two sides of a poll: epoch seconds cannot tell them apart, the ids can.
		const plan = [[1], [2, 2.5], [], [3, 3.25, 3.5], [4.2], [4.7, 5, 6]];
		for (const minutes of plan) {
			shaped.clock.advance(2 * MINUTE);
			for (const m of minutes) published.push(shaped.state.createDraft(DEFAULT_ACCOUNT_ID, `Post ${m}`, new Date(T0 + m * 1000 + (m % 1) * 400).toISOString()).id);
			shaped.publishDue();
			const { items, logs } = await poll({ credentials, params: { event: 'newPublishedPost' }, staticData, transport });
			expect(logs).toEqual([]);
			fired.push(...items.map((i) => String(i.draftId)));
		}
		expect(published).toHaveLength(10);
		expect(fired).toHaveLength(10);
		expect([...fired].sort()).toEqual([...published].sort());
	});

	test('n8n Upcoming Scheduled Draft fires once for a draft coming within the notice', async () => {
		jest.spyOn(Date, 'now').mockImplementation(() => shaped.clock.now());
		const credentials = credentialsOf(shaped);
		const params = { event: 'upcomingScheduledDraft', notifyAmount: 1, notifyUnit: 'hours' };
		const staticData: IDataObject = {};
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		const draft = shaped.state.createDraft(DEFAULT_ACCOUNT_ID, 'Soon', new Date(T0 + 90 * MINUTE).toISOString());
		shaped.clock.advance(45 * MINUTE);
		const fired = await poll({ credentials, params, staticData });
		expect(fired.items).toMatchObject([{ draftId: draft.id, text: 'Soon', scheduledAt: draft.scheduledAt }]);
		expect(fired.logs).toEqual([]);
		shaped.clock.advance(10 * MINUTE);
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
	});
});
