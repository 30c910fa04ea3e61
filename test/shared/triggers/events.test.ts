/**
 * Reading /posts whatever its order (the spec does not say how lists are
 * sorted): order detection, the walk to the end of an oldest-first list, the
 * one-request steady state of a newest-first list, and the cap and its flag.
 * Hundreds of successive polls in both orders: events.soak.test.ts (npm run test:soak).
 */
import type { Send } from '../../../shared/base';
import { PostWriterClient } from '../../../shared/client';
import { fetchNewestPosts, readPostsSince, detectOrder, selectNewPosts, stampInOrder, truncationWarning, type PostWatermarkState } from '../../../shared/triggers';
import { T0, fakePosts } from '../../helpers/fake-posts';

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
});
