import nock from 'nock';
import { LIST_HARD_CAP, newWalk, stallMessage, stepWalk, normaliseCalendar, normaliseList } from '../../../shared/lists';
import { readCalendarEntry } from '../../../shared/records';
import { nockClient } from '../../helpers/fake';

describe('normaliseList accepts every plausible shape', () => {
	const items = [{ id: 'a' }, { id: 'b' }];
	test.each([
		['bare array', items, { items }],
		['data', { data: items }, { items }],
		['items', { items }, { items }],
		['named key', { drafts: items }, { items }],
		['data + nextCursor', { data: items, nextCursor: 'c2' }, { items, nextCursor: 'c2', next: { convention: 'cursor', query: { cursor: 'c2' } } }],
		['data + null cursor', { data: items, nextCursor: null }, { items }],
		['snake cursor in meta', { results: items, meta: { next_cursor: 'c9' } }, { items, nextCursor: 'c9', next: { convention: 'cursor', query: { cursor: 'c9' } } }],
		['next URL, followed as given', { data: items, next: 'https://x/api/v1/posts?cursor=abc%3D&limit=2' }, { items, next: { convention: 'next-url', url: 'https://x/api/v1/posts?cursor=abc%3D&limit=2' } }],
		['offset + total', { items, offset: 0, limit: 2, total: 5 }, { items, nextOffset: 2, total: 5, next: { convention: 'offset', query: { offset: '2' } } }],
		['offset at end', { items, offset: 3, limit: 2, total: 5 }, { items, total: 5 }],
		['hasMore false', { data: items, nextCursor: 'x', hasMore: false }, { items }],
		['nested data.items', { data: { items } }, { items }],
		['nothing', null, { items: [] }],
	])('%s', (_n, body, expected) => {
		expect(normaliseList(body, ['drafts'])).toEqual(expected);
	});
});

describe('paginator', () => {
	afterEach(() => nock.cleanAll());
	const H = 'https://api.test.example';
	test('follows a cursor', async () => {
		nock(H).get('/api/v1/drafts').query({ limit: '100' }).reply(200, { data: [{ id: '1' }], nextCursor: 'c2' });
		nock(H).get('/api/v1/drafts').query({ limit: '100', cursor: 'c2' }).reply(200, { data: [{ id: '2' }], nextCursor: null });
		const { client } = nockClient();
		expect((await client.listDrafts()).map((d) => d.id)).toEqual(['1', '2']);
	});
	test('follows an offset', async () => {
		nock(H).get('/api/v1/posts').query({ limit: '2' }).reply(200, { items: [{ id: '1' }, { id: '2' }], offset: 0, total: 3 });
		nock(H).get('/api/v1/posts').query({ limit: '2', offset: '2' }).reply(200, { items: [{ id: '3' }], offset: 2, total: 3 });
		const { client } = nockClient();
		expect((await client.listPosts({}, { pageSize: 2 })).map((d) => d.id)).toEqual(['1', '2', '3']);
	});
	test('stops at the limit', async () => {
		nock(H).get('/api/v1/posts').query(true).reply(200, { data: [{ id: '1' }, { id: '2' }, { id: '3' }], nextCursor: 'more' });
		const { client } = nockClient();
		expect(await client.listPosts({}, { limit: 2 })).toHaveLength(2);
	});
	test('a repeated page cannot loop, and the page cap holds', async () => {
		nock(H).get('/api/v1/posts').query(true).times(2).reply(200, { data: [{ id: 'x' }], nextCursor: 'same' });
		const { client } = nockClient();
		const posts = await client.listPosts({});
		expect(posts.map((p) => p.id)).toEqual(['x']);
		expect(posts.truncated).toBe(true);
		expect(posts.truncatedReason).toMatch(/^GET \/posts: the service said more follow \(cursor=same\), but it sent the same 1 items as the page before/);
		let n = 0;
		nock(H).get('/api/v1/drafts').query(true).times(LIST_HARD_CAP.pages + 5).reply(() => [200, { data: [{ id: String(n) }], nextCursor: `c${n++}` }]);
		expect(await client.listDrafts({}, { maxPages: 1000 })).toHaveLength(LIST_HARD_CAP.pages);
	});
});

describe('calendar normaliser', () => {
	test('flat entries and day groups, with field variants', () => {
		const flat = normaliseCalendar({ entries: [{ type: 'scheduled', id: 'd1', draftId: 'd1', date: '2026-12-01T09:00:00Z' }] }, 'a', 'b', readCalendarEntry);
		expect(flat.entries[0]).toMatchObject({ type: 'scheduled', id: 'd1', draftId: 'd1' });
		const grouped = normaliseCalendar(
			[
				{ date: '2026-12-01', items: [{ draft_id: 'd2', scheduled_at: '2026-12-01T10:00:00Z', status: 'scheduled' }] },
				{ date: '2026-12-02', items: [{ postId: 'p1', publishedAt: '2026-12-02T08:00:00Z' }] },
			],
			'2026-12-01',
			'2026-12-02',
			readCalendarEntry,
		);
		expect(grouped.entries.map((e) => [e.type, e.id, e.date])).toEqual([
			['scheduled', 'd2', '2026-12-01T10:00:00.000Z'],
			['published', 'p1', '2026-12-02T08:00:00.000Z'],
		]);
	});

	test('an entry without an id or a date is kept apart, not dropped', () => {
		const out = normaliseCalendar({ entries: [{ type: 'scheduled', id: 'd1', date: 1764579600 }, { type: 'scheduled', text: 'no id, no date' }] }, 'a', 'b', readCalendarEntry);
		expect(out.entries.map((e) => [e.id, e.date])).toEqual([['d1', '2025-12-01T09:00:00.000Z']]);
		expect(out.unreadable).toEqual([{ type: 'scheduled', text: 'no id, no date' }]);
	});
});

describe('paging conventions, recognised from the response', () => {
	const items = [{ id: 'a' }, { id: 'b' }];
	const url = 'https://api.test.example/api/v1/posts?limit=100';
	const baseUrl = 'https://api.test.example/api/v1';
	const next = (body: unknown, headers: Record<string, string> = {}) => normaliseList(body, ['posts'], { headers, url, baseUrl });
	test.each([
		['Link header, relative', items, { Link: '</api/v1/posts?page=2&per_page=2>; rel="next", </api/v1/posts?page=9>; rel="last"' }, { convention: 'link', url: 'https://api.test.example/api/v1/posts?page=2&per_page=2' }],
		['Link header, absolute, several rels', items, { link: '<https://api.test.example/api/v1/posts?after=x>; rel="prefetch next"' }, { convention: 'link', url: 'https://api.test.example/api/v1/posts?after=x' }],
		['next_page_url', { data: items, current_page: 1, last_page: 3, next_page_url: 'https://api.test.example/api/v1/posts?page=2' }, {}, { convention: 'next-url', url: 'https://api.test.example/api/v1/posts?page=2' }],
		['links.next (JSON:API)', { data: items, links: { next: '/api/v1/posts?page[number]=2' } }, {}, { convention: 'next-url', url: 'https://api.test.example/api/v1/posts?page[number]=2' }],
		['next_page_token', { items, next_page_token: 'tok' }, {}, { convention: 'cursor', query: { page_token: 'tok' } }],
		['nextPageToken', { items, nextPageToken: 'tok' }, {}, { convention: 'cursor', query: { pageToken: 'tok' } }],
		['after (paging.cursors)', { data: items, paging: { cursors: { after: 'QVFI' } } }, {}, { convention: 'cursor', query: { after: 'QVFI' } }],
		['GraphQL pageInfo', { data: { posts: { nodes: items, pageInfo: { endCursor: 'Y3Vy', hasNextPage: true } } } }, {}, { convention: 'graphql', query: { after: 'Y3Vy' } }],
		['keyset: has_more, no cursor', { object: 'list', data: items, has_more: true }, {}, { convention: 'keyset', query: { starting_after: 'b' } }],
		['keyset: after_id echoed', { data: items, hasMore: true, after_id: null }, {}, { convention: 'keyset', query: { after_id: 'b' } }],
		['page numbers: total_pages', { results: items, page: 1, per_page: 2, total_pages: 3 }, {}, { convention: 'page-number', query: { page: '2', per_page: '2' } }],
		['page numbers: next_page', { data: items, meta: { current_page: 2, next_page: 3 } }, {}, { convention: 'page-number', query: { page: '3' } }],
		['page numbers: has_more', { data: items, page: 4, has_more: true }, {}, { convention: 'page-number', query: { page: '5' } }],
		['offset: a short page is not the end', { items, offset: 0, limit: 100, total: 5 }, {}, { convention: 'offset', query: { offset: '2' } }],
		['offset: has_more', { items, skip: 10, has_more: true }, {}, { convention: 'offset', query: { skip: '12' } }],
	])('%s', (_n, body, headers, expected) => {
		expect(next(body, headers).next).toEqual(expected);
	});

	test.each([
		['has_more: false', { data: items, has_more: false, nextCursor: 'x' }],
		['last page number', { results: items, page: 3, per_page: 2, total_pages: 3 }],
		['next_page: null', { data: items, current_page: 3, next_page: null }],
		['GraphQL hasNextPage: false', { nodes: items, pageInfo: { endCursor: 'c', hasNextPage: false } }],
		['offset at the total', { items, offset: 3, total: 5 }],
		['empty next_page_token', { items, next_page_token: '' }],
	])('the end: %s', (_n, body) => {
		const page = next(body);
		expect(page.next).toBeUndefined();
		expect(page.more).toBeUndefined();
	});

	test('more follow but cannot be followed: has_more without ids, a link to another host', () => {
		expect(next({ data: [{ text: 'no id' }], has_more: true }).more).toBe('"has_more": true but no id on the last item to ask for the page after it');
		const away = next(items, { Link: '<https://elsewhere.example/api/v1/posts?page=2>; rel="next"' });
		expect(away.next).toBeUndefined();
		expect(away.more).toMatch(/^a Link header with rel="next" \(a next page at https:\/\/elsewhere\.example\/api\/v1\/posts, another address than the Base URL/);
		// http on the same host is another origin too: the key is never sent in clear.
		expect(next({ data: items, next_page_url: 'http://api.test.example/api/v1/posts?page=2' }).more).toMatch(/another address than the Base URL/);
	});

	test('a base64 cursor that starts with a slash is a cursor', () => {
		expect(next({ data: items, nextCursor: '/b2Zm+c2V0' }).next).toEqual({ convention: 'cursor', query: { cursor: '/b2Zm+c2V0' } });
	});
});

describe('the walk and its loop guards', () => {
	test('a total above what was read, with no way on, is a stall; a cycle and a repeat too', () => {
		let walk = newWalk();
		expect(stepWalk(walk, { items: [1, 2], total: 5 }).stall).toEqual({
			said: '"total": 5',
			problem: 'only 2 were read and the response gives no cursor, offset, page number or next link for the rest',
		});
		walk = newWalk();
		const next = { convention: 'cursor' as const, query: { cursor: 'c1' } };
		expect(stepWalk(walk, { items: [1], next })).toEqual({ keep: true, next });
		expect(stepWalk(walk, { items: [2], next }).stall?.problem).toBe('that page was already read: the cursor cycles');
		walk = newWalk();
		stepWalk(walk, { items: [1, 2], next });
		expect(stepWalk(walk, { items: [1, 2], next: { convention: 'cursor', query: { cursor: 'c2' } } })).toMatchObject({ keep: false, stall: { said: 'more follow (cursor=c2)' } });
		expect(stallMessage('GET /posts', { said: '"has_more": true', problem: 'x' }, 1, 1)).toMatch(/^GET \/posts: the service said "has_more": true, but x\. 1 item was read in 1 request\./);
	});
});
