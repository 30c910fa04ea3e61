/**
 * The soak of reading /posts (npm run test:soak, not npm test): 300 successive polls in each order, with posts
 * published between them at random, some in the same millisecond and some at the watermark itself. No post fires
 * twice, none is missed, the state stays under 4 KB, and a quiet poll costs one request newest first and at most
 * the whole list oldest first.
 */
import { mulberry32 } from '../../../sandbox';
import { readPostsSince, selectNewPosts, type PostWatermarkState } from '../../../shared/triggers';
import { T0, fakePosts, type Order } from '../../helpers/fake-posts';

/** A seeded pseudo-random source, so that runs repeat. */
const random = mulberry32;

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
