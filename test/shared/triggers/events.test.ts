/**
 * Reading /posts whatever its order (the spec does not say how lists are
 * sorted): order detection, the walk to the end of an oldest-first list, the
 * one-request steady state of a newest-first list, the cap and its flag, and
 * many successive polls with no duplicate and no miss in both orders.
 */
import type { HttpRequest, Send } from '../../../shared/base';
import { PostWriterClient } from '../../../shared/client';
import { fetchNewestPosts, readPostsSince, detectOrder, selectNewPosts, stampInOrder, truncationWarning, type PostWatermarkState } from '../../../shared/triggers';
import { mulberry32 } from '../../../sandbox';

type Order = 'newest-first' | 'oldest-first';
type Post = { id: string; text: string; publishedAt: string };

const T0 = Date.parse('2026-11-21T09:00:00.000Z');
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An in-memory /posts with cursor paging, in the order asked; counts the requests. */
function fakePosts(order: Order) {
	const posts: Post[] = [];
	const requests: string[] = [];
	/** The list in its order, sorted again only after a publish (a poll reads up to 30 pages of it). */
	let sorted: Post[] | undefined;
	const send: Send = async (req: HttpRequest) => {
		requests.push(req.url);
		const url = new URL(req.url);
		const limit = Number(url.searchParams.get('limit') ?? 20);
		const offset = Number(url.searchParams.get('cursor') ?? 0);
		if (sorted === undefined) {
			// Plain comparisons: ISO dates and padded ids sort as strings, and localeCompare made this fake most of the file's 40 s.
			sorted = [...posts].sort((a, b) => cmp(b.publishedAt, a.publishedAt) || cmp(a.id, b.id));
			if (order === 'oldest-first') sorted.reverse();
		}
		const page = sorted.slice(offset, offset + limit);
		const next = offset + limit < sorted.length ? String(offset + limit) : null;
		return { status: 200, headers: {}, body: JSON.stringify({ data: page, nextCursor: next }) };
	};
	let n = 0;
	return {
		posts,
		requests,
		client: new PostWriterClient({ baseUrl: 'https://api.test.example/api/v1', send, sleep: async () => undefined }),
		publish(at: number): string {
			const id = `pst_${String(++n).padStart(6, '0')}`;
			posts.push({ id, text: `post ${n}`, publishedAt: new Date(at).toISOString() });
			sorted = undefined;
			return id;
		},
	};
}

/** A seeded pseudo-random source, so that runs repeat. */
const random = mulberry32;

const stamp = (times: number[]) => stampInOrder(times.map((t, i) => ({ id: `p${i}`, publishedAt: new Date(t).toISOString() })));

describe('detectOrder', () => {
	test('descending, ascending, mixed, and nothing to tell', () => {
		expect(detectOrder(stamp([3, 2, 2, 1]))).toBe('newest-first');
		expect(detectOrder(stamp([1, 1, 2, 3]))).toBe('oldest-first');
		expect(detectOrder(stamp([1, 3, 2]))).toBe('unsorted');
		expect(detectOrder(stamp([]))).toBe('unknown');
		expect(detectOrder(stamp([5]))).toBe('unknown');
		expect(detectOrder(stamp([5, 5, 5]))).toBe('unknown');
	});
});

describe('reading /posts', () => {
	test('newest first: a quiet poll and the first poll are one request, whatever the history', async () => {
		const api = fakePosts('newest-first');
		for (let i = 0; i < 450; i++) api.publish(T0 - i * 60_000);
		const first = await readPostsSince(api.client, {}, { pageSize: 100 });
		expect(first).toMatchObject({ order: 'newest-first', requests: 1, truncated: false });
		const state = selectNewPosts(first.records, {}).state;
		expect(state.watermark).toBe(new Date(T0).toISOString());
		const quiet = await readPostsSince(api.client, state, { pageSize: 100 });
		expect(quiet).toMatchObject({ order: 'newest-first', requests: 1, truncated: false });
		expect(selectNewPosts(quiet.records, state).fresh).toEqual([]);
	});

	test('oldest first: the first poll reads to the end, so the watermark is the newest post and no old post fires', async () => {
		const api = fakePosts('oldest-first');
		for (let i = 0; i < 450; i++) api.publish(T0 - i * 60_000);
		const first = await readPostsSince(api.client, {}, { pageSize: 100 });
		expect(first).toMatchObject({ order: 'oldest-first', requests: 5, truncated: false });
		const state = selectNewPosts(first.records, {}).state;
		expect(state.watermark).toBe(new Date(T0).toISOString());
		api.publish(T0 + 1000);
		const next = await readPostsSince(api.client, state, { pageSize: 100 });
		expect(next.requests).toBe(5);
		expect(selectNewPosts(next.records, state).fresh.map((p) => p.text)).toEqual(['post 451']);
	});

	test('a page that tells nothing (one instant) is not taken for newest first: the read goes on', async () => {
		const api = fakePosts('oldest-first');
		for (let i = 0; i < 3; i++) api.publish(T0); // three posts at the same millisecond
		api.publish(T0 + 5000);
		const read = await readPostsSince(api.client, {}, { pageSize: 3 });
		expect(read).toMatchObject({ order: 'oldest-first', requests: 2 });
		expect(selectNewPosts(read.records, {}).state.watermark).toBe(new Date(T0 + 5000).toISOString());
		// One post per page: the order shows across pages.
		const single = await fetchNewestPosts(api.client, 1, { pageSize: 1 });
		expect(single.newest[0].at).toBe(T0 + 5000);
		expect(single.requests).toBe(4);
	});

	test('fetchNewestPosts: the newest N, newest first; one request newest first, the whole list oldest first', async () => {
		for (const order of ['newest-first', 'oldest-first'] as const) {
			const api = fakePosts(order);
			for (let i = 0; i < 250; i++) api.publish(T0 + i * 1000);
			const read = await fetchNewestPosts(api.client, 5, { pageSize: 100 });
			expect(read.newest.map((i) => i.at)).toEqual([249, 248, 247, 246, 245].map((s) => T0 + s * 1000));
			expect(read.requests).toBe(order === 'newest-first' ? 1 : 3);
			expect(read.truncated).toBe(false);
		}
	});

	test('the cap on pages: flagged, with a warning that says what was not read', async () => {
		const oldest = fakePosts('oldest-first');
		for (let i = 0; i < 350; i++) oldest.publish(T0 + i * 1000);
		const cut = await fetchNewestPosts(oldest.client, 1, { pageSize: 100, maxPages: 3 });
		expect(cut).toMatchObject({ order: 'oldest-first', requests: 3, truncated: true });
		expect(truncationWarning(cut)).toMatch(/lists posts oldest first .* \(300 posts in 3 requests\); the newest posts, past that cap, were not read/);

		// Newest first, a burst beyond the cap: flagged; the oldest of the burst do not fire (the watermark moves to the newest).
		const newest = fakePosts('newest-first');
		newest.publish(T0);
		let state: PostWatermarkState = selectNewPosts((await readPostsSince(newest.client, {}, { pageSize: 10 })).records, {}).state;
		const burst = Array.from({ length: 35 }, (_, i) => newest.publish(T0 + (i + 1) * 1000));
		const read = await readPostsSince(newest.client, state, { pageSize: 10, maxPages: 3 });
		expect(read).toMatchObject({ order: 'newest-first', requests: 3, truncated: true });
		expect(truncationWarning(read)).toMatch(/the oldest of them were not read and will not fire/);
		const r = selectNewPosts(read.records, state);
		state = r.state;
		expect(r.fresh).toHaveLength(30);
		expect(state.watermark).toBe(new Date(T0 + 35_000).toISOString());
		expect(selectNewPosts((await readPostsSince(newest.client, state, { pageSize: 10, maxPages: 3 })).records, state).fresh).toEqual([]);
		expect(burst.slice(0, 5).every((id) => !r.fresh.some((p) => p.id === id))).toBe(true);
		expect(truncationWarning({ ...read, truncated: false })).toBeUndefined();
	});

	test('a server repeating its cursor does not loop the read', async () => {
		const send: Send = async () => ({
			status: 200,
			headers: {},
			body: JSON.stringify({ data: [{ id: 'a', publishedAt: new Date(T0).toISOString() }, { id: 'b', publishedAt: new Date(T0 + 1).toISOString() }], nextCursor: 'same' }),
		});
		const client = new PostWriterClient({ baseUrl: 'https://api.test.example/api/v1', send, sleep: async () => undefined });
		const read = await readPostsSince(client, { initialised: true, watermark: new Date(T0).toISOString(), idsAtWatermark: ['a'] });
		expect(read.requests).toBe(2);
		expect(read.truncated).toBe(false);
	});

	describe.each<Order>(['newest-first', 'oldest-first'])('%s: many successive polls', (order) => {
		test('no duplicate, no miss; steady-state requests per poll reported and bounded', async () => {
			const api = fakePosts(order);
			let clock = T0;
			for (let i = 0; i < 120; i++) api.publish(clock - (i + 1) * 3_600_000);
			const pageSize = 50;
			const maxPages = 40;
			let state: PostWatermarkState = selectNewPosts((await readPostsSince(api.client, {}, { pageSize, maxPages })).records, {}).state;
			const history = new Set(api.posts.map((p) => p.id));
			const rnd = random(order === 'newest-first' ? 3 : 11);
			const fired = new Map<string, number>();
			const quietRequests: number[] = [];
			for (let poll = 0; poll < 300; poll++) {
				const before = clock;
				clock += 60_000;
				const count = rnd() < 0.4 ? 0 : 1 + Math.floor(rnd() * 8);
				for (let k = 0; k < count; k++) api.publish(before + 1 + Math.floor(rnd() * 60_000));
				if (count > 1 && rnd() < 0.3) api.publish(Date.parse(api.posts[api.posts.length - 1].publishedAt)); // same millisecond
				if (poll % 13 === 6 && state.watermark) api.publish(Date.parse(state.watermark)); // at the watermark, after it was set
				const requestsBefore = api.requests.length;
				const read = await readPostsSince(api.client, state, { pageSize, maxPages });
				expect(read.truncated).toBe(false);
				const r = selectNewPosts(read.records, state);
				for (const p of r.fresh) fired.set(String(p.id), (fired.get(String(p.id)) ?? 0) + 1);
				state = r.state;
				expect(JSON.stringify(state).length).toBeLessThan(4096);
				if (count === 0 && poll % 13 !== 6) quietRequests.push(api.requests.length - requestsBefore);
			}
			const expected = api.posts.filter((p) => !history.has(p.id)).map((p) => p.id);
			expect(expected.length).toBeGreaterThan(600);
			expect([...fired.values()].every((c) => c === 1)).toBe(true);
			expect([...fired.keys()].sort()).toEqual([...expected].sort());
			const pages = Math.ceil(api.posts.length / pageSize);
			process.stdout.write(
				`core ${order}: ${api.posts.length} posts, quiet polls made ${Math.min(...quietRequests)}..${Math.max(...quietRequests)} requests (pages of ${pageSize})\n`,
			);
			if (order === 'newest-first') expect(new Set(quietRequests)).toEqual(new Set([1]));
			else {
				expect(Math.max(...quietRequests)).toBeLessThanOrEqual(Math.min(pages, maxPages));
				expect(Math.min(...quietRequests)).toBeGreaterThan(1);
			}
		});
	});
});
