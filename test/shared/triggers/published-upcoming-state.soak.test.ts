/**
 * The soak of New Published Post's watermark (npm run test:soak, not npm test): 10,000 posts over 2,000 polls of
 * the newest page, many in the same instant. No post fires twice, none is missed, the state stays under 4 KB.
 */
import { selectNewPosts, type PostWatermarkState } from '../../../shared/triggers';

function post(id: number, at: number) {
	return { id: `p${id}`, text: `post ${id}`, publishedAt: new Date(at).toISOString() };
}

describe('New Published Post watermark', () => {
	test('simulation: 10,000 posts over 2,000 polls, no duplicate, no miss, bounded state', () => {
		let clock = Date.parse('2026-01-01T00:00:00Z');
		const published: ReturnType<typeof post>[] = [];
		for (let i = 0; i < 20; i++) published.push(post(i, clock - 10_000 + i));
		let state: PostWatermarkState = selectNewPosts(published.slice(-50).reverse(), {}).state;
		const fired = new Map<string, number>();
		let id = 1000;
		let seed = 7;
		const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let poll = 0; poll < 2000; poll++) {
			const n = Math.floor(rnd() * 10); // 0..9 posts, some at the same instant
			for (let k = 0; k < n; k++) {
				if (rnd() > 0.6) clock += 1000;
				published.push(post(id++, clock));
			}
			clock += 1;
			const newestPage = published.slice(-50).reverse();
			const r = selectNewPosts(newestPage, state);
			for (const p of r.fresh) fired.set(String(p.id), (fired.get(String(p.id)) ?? 0) + 1);
			state = r.state;
			expect(JSON.stringify(state).length).toBeLessThan(4096);
		}
		const expected = published.filter((p) => Number(p.id.slice(1)) >= 1000).map((p) => p.id);
		expect(expected.length).toBeGreaterThan(8000);
		expect([...fired.keys()].sort()).toEqual([...expected].sort());
		expect([...fired.values()].every((c) => c === 1)).toBe(true);
	});
});
