import nock from 'nock';
import { LIST_HARD_CAP } from '../../shared/client';
import { normaliseCalendar, normaliseList } from '../../shared/lists';
import { readCalendarEntry } from '../../shared/records';
import { nockClient } from '../helpers/fake';

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
