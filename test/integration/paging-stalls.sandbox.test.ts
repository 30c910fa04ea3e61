/**
 * No silent stop: a server that says more follow but cannot be followed (an
 * unknown convention, a page repeated, a cursor that cycles). The SDK says
 * `truncated` with the reason, n8n Get Many returns what it read plus an
 * execution hint, Zapier Find Draft and the Zapier trigger log it, and the
 * n8n trigger warns, fires nothing, keeps its state, and on the next good
 * poll fires every post of the burst exactly once.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../sandbox';
import type { ListShape, Sandbox } from '../../sandbox';
import { createStandaloneClient } from '../../sdk';
import type { Credentials } from '../n8n/helpers/context';
import { poll, runNode } from '../n8n/helpers/context';
import { bundle, run } from '../zapier/helpers';
import { publishBurst as publishIn } from '../helpers/publish-burst';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const PAGE = 4;
const BIG_QUOTA = { limit: 1_000_000, windowMs: 60_000 };

let sb: Sandbox;
let credentials: Credentials;

beforeEach(async () => {
	sb = await startSandbox({ listShape: 'data-cursor', listPageMax: PAGE, seedPosts: 11, quota: { default: BIG_QUOTA, generate: BIG_QUOTA } });
	credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
});
afterEach(async () => {
	jest.restoreAllMocks();
	await sb.close();
});

const postIds = () => sb.state.listPosts(DEFAULT_ACCOUNT_ID).map((p) => p.id);

/** What each broken server says, as the messages quote it. */
const BROKEN: Array<[ListShape, RegExp, number]> = [
	// An unknown convention: `more_items: true` and a total, nothing to ask the next page with.
	['unknown-more', /^GET \/posts: the service said "total": 11, but only 4 were read and the response gives no cursor, offset, page number or next link for the rest\. 4 items were read in 1 request\./, 1],
	// `has_more: true` and starting_after ignored: the same page again.
	['repeat-page', /^GET \/posts: the service said more follow \(starting_after=pst_\w+\), but it sent the same 4 items as the page before, so asking again would read them again\. 4 items were read in 2 requests\./, 2],
	// The third page points back to the second.
	['cycle-cursor', /^GET \/posts: the service said more follow \(cursor=[^)]+\), but that page was already read: the cursor cycles\. 12 items were read in 3 requests\./, 3],
];

describe.each(BROKEN)('a server that cannot be followed: %s', (shape, message, requests) => {
	beforeEach(() => sb.configure({ listShape: shape }));

	test('SDK: what was read, truncated: true with the reason', async () => {
		if (shape === 'cycle-cursor') publishIn(sb, 3); // 14 posts: the third page says more follow
		const client = createStandaloneClient({ baseUrl: sb.baseUrl, apiKey: sb.keys.full });
		sb.resetStats();
		const read = await client.readList('listPosts', {});
		expect(read.truncated).toBe(true);
		expect(read.reason).toMatch(message);
		expect(read.requests).toBe(requests);
		expect(sb.stats.byRoute['GET /posts']).toBe(requests);
		expect(new Set(read.items.map((p) => (p as { id: string }).id)).size).toBe(read.items.length);
		const posts = await client.listPosts();
		expect(posts.truncated).toBe(true);
		expect(posts.truncatedReason).toMatch(message);
		expect(read.reason).not.toContain(sb.keys.full);
	});

	test('n8n Get Many: the items read, and an execution hint', async () => {
		if (shape === 'cycle-cursor') publishIn(sb, 3);
		const { output, hints } = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', returnAll: true, simplify: false } });
		expect(output.length).toBeGreaterThan(0);
		expect(hints).toHaveLength(1);
		expect(hints[0].message).toMatch(/^Item 1: GET \/posts: the service said/);
		expect(hints[0].message).toMatch(new RegExp(`The ${output.length} records read are returned\\.$`));
	});

	test('Zapier: Find Draft and New Published Post log it', async () => {
		if (shape === 'cycle-cursor') publishIn(sb, 3);
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		const auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		await run('triggers', 'newPublishedPost', bundle({}, {}, auth));
		const logged = log.mock.calls.map((c) => String(c[0]));
		expect(logged.some((l) => /New Published Post: GET \/posts: the service said/.test(l) && /Zapier remembers which fired/.test(l))).toBe(true);
		for (let i = 0; i < 13; i++) sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Draft ${i}`, null);
		await run('searches', 'listDrafts', bundle({ search: 'draft' }, {}, auth));
		const found = log.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('Find Draft: GET /drafts: the service said'));
		expect(found).toHaveLength(1);
		expect(found[0]).toMatch(/Only the \d+ drafts read were searched/);
	});

	test('n8n trigger: a warning, nothing fired, the state kept; the next good poll fires the burst once', async () => {
		sb.configure({ listShape: 'data-cursor' });
		const staticData: IDataObject = {};
		const params = { event: 'newPublishedPost' };
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		const kept = JSON.stringify(staticData);
		const burst = publishIn(sb, 3 * PAGE);
		sb.configure({ listShape: shape });
		const stalled = await poll({ credentials, params, staticData });
		expect(stalled.result).toBeNull();
		expect(JSON.stringify(staticData)).toBe(kept);
		const warnings = stalled.logs.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^Post Writer Trigger \(newPublishedPost\): GET \/posts: the service said .+ The trigger fired nothing in this poll and kept its place/);
		sb.configure({ listShape: 'data-cursor' });
		const good = await poll({ credentials, params, staticData });
		expect(good.items.map((i) => i.id)).toEqual(burst);
		expect(good.logs.filter((l) => l.level === 'warn')).toEqual([]);
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		expect(postIds().slice(0, burst.length)).toEqual([...burst].reverse());
	});
});
