/**
 * Every paging convention the sandbox speaks (sandbox/paging.ts), with the
 * sandbox's own records and with a social API's (sandbox/shapes.ts), pages
 * of 4 items, well below the 50 or 100 the clients ask for, through every
 * reader of a list: the SDK's list, n8n Get Many with Return All and with a
 * Limit, the n8n trigger (New Published Post and New Draft) after a burst of
 * 3 pages, the Zapier triggers and Zapier Find Draft. Each reads every item,
 * in the server's order, with no duplicate, in the number of requests the
 * pages take (no extra page past the end).
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, PAGING_SHAPES, startSandbox } from '../../sandbox';
import type { ErrorShape, ListShape, RecordShape, Sandbox } from '../../sandbox';
import { createStandaloneClient } from '../../sdk';
import type { Credentials } from '../n8n/helpers/context';
import { newTransport, poll, runNode } from '../n8n/helpers/context';
import { bundle, run } from '../zapier/helpers';
import { publishBurst as publishIn } from '../helpers/publish-burst';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const PAGE = 4;
const SEEDED_POSTS = 11;
const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE));
const BIG_QUOTA = { limit: 1_000_000, windowMs: 60_000 };

let sb = undefined as unknown as Sandbox;
let credentials: Credentials;

afterEach(async () => {
	if (sb) await sb.close();
});

async function start(listShape: ListShape, recordShape: RecordShape, errorShape: ErrorShape): Promise<void> {
	sb = await startSandbox({ listShape, recordShape, errorShape, listPageMax: PAGE, seedPosts: SEEDED_POSTS, quota: { default: BIG_QUOTA, generate: BIG_QUOTA } });
	credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
}

const postIds = () => sb.state.listPosts(DEFAULT_ACCOUNT_ID).map((p) => p.id);
const draftIds = () => sb.state.listDrafts(DEFAULT_ACCOUNT_ID).map((d) => d.id);
const requests = (route: string) => sb.stats.byRoute[route] ?? 0;

/** Creates `n` drafts, one a second; `word` in the text of every other one. */
function createDrafts(n: number, word?: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < n; i++) {
		sb.clock.advance(1_000);
		ids.push(sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Draft ${i}${word && i % 2 === 0 ? ` about ${word}` : ''}`, null).id);
	}
	return ids;
}

function expectOnce(ids: unknown[]): void {
	expect(new Set(ids).size).toBe(ids.length);
}

test('the table covers every convention of the sandbox', () => {
	expect(PAGING_SHAPES).toEqual(['data-cursor', 'items-offset', 'named', 'keyset', 'link', 'page-number', 'next-page-url', 'page-token', 'graphql']);
});

/** Each convention with the sandbox's own records, and with a social API's (metrics under `public_metrics`, errors as OAuth 2 bodies). */
const CASES = PAGING_SHAPES.flatMap((shape) => [[shape, 'native', 'nested'] as const, [shape, 'social', 'oauth'] as const]);

describe.each(CASES)('paging convention %s, pages of 4, records in the %s shape, errors in the %s shape', (shape, recordShape, errorShape) => {
	beforeEach(async () => await start(shape, recordShape, errorShape));

	test('SDK list: every post, in order, once, one request per page', async () => {
		const client = createStandaloneClient({ baseUrl: sb.baseUrl, apiKey: sb.keys.full });
		sb.resetStats();
		const read = await client.readList('listPosts', {});
		expect(read.items.map((p) => (p as { id: string }).id)).toEqual(postIds());
		expect(read).toMatchObject({ truncated: false, requests: pages(SEEDED_POSTS) });
		expect(requests('GET /posts')).toBe(pages(SEEDED_POSTS));
		const posts = await client.listPosts();
		expect(posts.map((p) => p.id)).toEqual(postIds());
		expect(posts.truncated).toBeUndefined();
	});

	test('n8n Get Many: Return All reads every page; Limit stops at it', async () => {
		const all = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', returnAll: true, simplify: false } });
		expect(all.output.map((i) => i.json.id)).toEqual(postIds());
		expect(all.transport.count('/posts')).toBe(pages(SEEDED_POSTS));
		const limited = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', returnAll: false, limit: 6, simplify: false } });
		expect(limited.output.map((i) => i.json.id)).toEqual(postIds().slice(0, 6));
		expect(limited.transport.count('/posts')).toBe(pages(6));
		const drafts = await runNode({ credentials, params: { resource: 'draft', operation: 'getMany', returnAll: true } });
		expect(drafts.output.map((i) => i.json.id)).toEqual(draftIds());
		expect(drafts.transport.count('/drafts')).toBe(pages(draftIds().length));
	});

	test('n8n trigger: a burst of 3 pages fires every post and draft once, oldest first, and reads back to the watermark only', async () => {
		const staticData: IDataObject = {};
		const params = { event: 'newPublishedPost' };
		const seed = await poll({ credentials, params, staticData });
		expect(seed.result).toBeNull();
		const burst = publishIn(sb, 3 * PAGE);
		const transport = newTransport();
		const fired = await poll({ credentials, params, staticData, transport });
		expect(fired.items.map((i) => i.id)).toEqual(burst);
		// 3 pages of new posts, then the page that reaches the watermark.
		expect(transport.count('/posts')).toBe(4);
		const quiet = await poll({ credentials, params, staticData, transport: newTransport() });
		expect(quiet.result).toBeNull();
		expect(quiet.transport.count('/posts')).toBe(1);

		const draftData: IDataObject = {};
		const draftEvent = { event: 'newDraft' };
		expect((await poll({ credentials, params: draftEvent, staticData: draftData })).result).toBeNull();
		const created = createDrafts(3 * PAGE);
		const draftPoll = await poll({ credentials, params: draftEvent, staticData: draftData, transport: newTransport() });
		expect(draftPoll.items.map((i) => i.draftId ?? i.id)).toEqual(created);
		expect(draftPoll.transport.count('/drafts')).toBe(4);
		expect(draftPoll.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});

	test('n8n trigger: Post Metric Milestone reads the whole watch window', async () => {
		const staticData: IDataObject = {};
		const params = { event: 'postMetricMilestone', metric: 'likes', threshold: 1000, watchDays: 30 };
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		const burst = publishIn(sb, 3 * PAGE);
		for (const id of burst) sb.state.setMetrics(DEFAULT_ACCOUNT_ID, id, { likes: 5000 });
		const fired = await poll({ credentials, params, staticData });
		expect(fired.items.map((i) => i.postId)).toEqual(burst);
	});

	test('Zapier triggers: the newest posts and drafts, every page read, once each', async () => {
		const burst = publishIn(sb, 3 * PAGE);
		const auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		sb.resetStats();
		const posts = (await run('triggers', 'newPublishedPost', bundle({}, {}, auth))) as Array<{ id: string }>;
		expect(posts.map((p) => p.id)).toEqual(postIds());
		expect(posts.slice(0, burst.length).map((p) => p.id)).toEqual([...burst].reverse());
		expect(requests('GET /posts')).toBe(pages(postIds().length));
		const created = createDrafts(3 * PAGE);
		sb.resetStats();
		const drafts = (await run('triggers', 'newDraft', bundle({}, {}, auth))) as Array<{ id: string }>;
		expect(drafts.map((d) => d.id)).toEqual(draftIds());
		expect(drafts.slice(0, created.length).map((d) => d.id)).toEqual([...created].reverse());
		expectOnce(drafts.map((d) => d.id));
		expect(requests('GET /drafts')).toBe(pages(draftIds().length));
	});

	test('Zapier Find Draft: the matching drafts past the first page are found', async () => {
		const created = createDrafts(3 * PAGE, 'zebra');
		const matching = draftIds().filter((id) => created.indexOf(id) % 2 === 0 && created.includes(id));
		const auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		sb.resetStats();
		const found = (await run('searches', 'listDrafts', bundle({ search: 'zebra' }, {}, auth))) as Array<{ id: string }>;
		expect(found.map((d) => d.id)).toEqual(matching);
		expect(found).toHaveLength(6);
		expect(requests('GET /drafts')).toBe(pages(draftIds().length));
	});
});
