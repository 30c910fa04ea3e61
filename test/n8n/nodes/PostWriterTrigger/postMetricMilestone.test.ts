/**
 * Post Writer Trigger, Post Metric Milestone: many polls with the static data
 * persisted between them, while the sandbox's clock moves (posts leave the
 * watch window), posts are published and their metrics grow. The expected
 * fires come from an oracle written here, from the sandbox's own data: a post
 * fires at the first poll where it is in the window and at or over the
 * threshold, unless it was already there at activation.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, mulberry32 } from '../../../../sandbox';
import { DAY, HOUR, account, credentials, newTriggerNode, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

const start = (seedPosts = 30) => startTriggerSandbox({ seedPosts });

const params = (threshold: number, metric = 'likes', watchDays = 7, extra: IDataObject = {}) => ({ event: 'postMetricMilestone', metric, threshold, watchDays, ...extra });

/** The oracle: posts in the window at or over the threshold now, by id. */
function over(metric: 'likes' | 'comments' | 'shares' | 'impressions', threshold: number, watchDays: number): Set<string> {
	const since = sb.clock.now() - watchDays * DAY;
	return new Set(account().posts.filter((p) => Date.parse(p.publishedAt) >= since && p.metrics[metric] >= threshold).map((p) => p.id));
}

describe('Post Metric Milestone', () => {
	test.each([
		['likes', 400, 7],
		['shares', 30, 3],
		['impressions', 15_000, 30],
	] as const)('%s ≥ %d over %d days: 120 polls, each crossing fires once, nothing there at activation fires, state bounded', async (metric, threshold, watchDays) => {
		await start();
		const { staticData, transport } = newTriggerNode();
		const p = params(threshold, metric, watchDays);
		expect((await poll({ credentials, params: p, staticData, transport })).result).toBeNull();
		const atActivation = over(metric, threshold, watchDays);
		const expected = new Set<string>();
		const fired: string[] = [];
		const rnd = mulberry32(threshold);
		let maxSize = 0;
		let lateCrossings = 0;
		for (let round = 0; round < 120; round++) {
			sb.clock.advance(Math.floor(rnd() * 6 * HOUR));
			// Sometimes a new post, published a moment ago.
			if (rnd() < 0.3) {
				sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Post ${round} ${rnd()}`, new Date(sb.clock.now() - 1000).toISOString());
				sb.publishDue();
			}
			// Engagement grows on a few posts of the last days (some already out of the window).
			for (const post of account().posts.filter((x) => Date.parse(x.publishedAt) > sb.clock.now() - (watchDays + 2) * DAY)) {
				if (rnd() < 0.15) {
					const add = { likes: 60, comments: 10, shares: 6, impressions: 2500 }[metric];
					sb.state.setMetrics(DEFAULT_ACCOUNT_ID, post.id, { [metric]: post.metrics[metric] + Math.floor(rnd() * add) });
				}
			}
			for (const id of over(metric, threshold, watchDays)) {
				if (atActivation.has(id) || expected.has(id)) continue;
				expected.add(id);
				const post = account().posts.find((x) => x.id === id);
				if (post && Date.parse(post.publishedAt) < sb.clock.now() - DAY) lateCrossings++;
			}
			transport.reset();
			const { items } = await poll({ credentials, params: p, staticData, transport });
			for (const item of items) {
				expect(item).toMatchObject({ id: `${String(item.postId)}:${metric}:${threshold}`, metric, threshold });
				expect(item.value as number).toBeGreaterThanOrEqual(threshold);
			}
			fired.push(...items.map((i) => String(i.postId)));
			expect([...fired].sort()).toEqual([...expected].sort()); // after every poll: no duplicate, no miss
			maxSize = Math.max(maxSize, JSON.stringify(staticData).length);
			// Bounded by the window: only posts of the window are remembered.
			const since = sb.clock.now() - watchDays * DAY;
			const remembered = Object.values((staticData.postMetricMilestone as { reached: Record<string, number> }).reached);
			expect(remembered.every((at) => at >= since)).toBe(true);
		}
		expect(new Set(fired).size).toBe(fired.length);
		expect(expected.size).toBeGreaterThan(5);
		expect(lateCrossings).toBeGreaterThan(0); // posts crossing days after publication fired too
		expect(maxSize).toBeLessThan(4096);
	}, 60_000);

	test('a post already over the threshold at activation never fires; one under it fires when it crosses, days later', async () => {
		await start(10);
		const staticData: IDataObject = {};
		const [older, newer] = account().posts.slice(-2);
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, older.id, { likes: 1000 });
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, newer.id, { likes: 10 });
		await poll({ credentials, params: params(500), staticData });
		sb.clock.advance(2 * DAY);
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, older.id, { likes: 5000 });
		expect((await poll({ credentials, params: params(500), staticData })).result).toBeNull();
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, newer.id, { likes: 501 });
		const { items } = await poll({ credentials, params: params(500), staticData });
		expect(items).toEqual([expect.objectContaining({ id: `${newer.id}:likes:500`, postId: newer.id, value: 501, text: newer.text })]);
		expect((await poll({ credentials, params: params(500), staticData })).result).toBeNull();
		// Another threshold is another milestone: the state starts afresh, nothing fires for what is there.
		expect((await poll({ credentials, params: params(400), staticData })).result).toBeNull();
	});

	test('"Other Metric" reads any numeric metric the API returns, by name', async () => {
		await start(5);
		const staticData: IDataObject = {};
		const p = params(3, 'other', 7, { metricName: 'saves' });
		// No post carries it yet: the first poll says so (see unreadable.test.ts), and keeps nothing.
		await expect(poll({ credentials, params: p, staticData })).rejects.toThrow(/has the metric "saves" \(looked for saves, save_count/);
		expect(staticData).toEqual({});
		const [first, post] = account().posts.slice(-2);
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, first.id, { saves: 1 });
		expect((await poll({ credentials, params: p, staticData })).result).toBeNull();
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, post.id, { saves: 3 });
		expect((await poll({ credentials, params: p, staticData })).items).toEqual([expect.objectContaining({ id: `${post.id}:saves:3`, metric: 'saves', value: 3 })]);
	});

	test('a failed poll does not advance the state; the next good poll fires the crossing once', async () => {
		await start(5);
		const staticData: IDataObject = {};
		await poll({ credentials, params: params(900), staticData });
		const post = account().posts[account().posts.length - 1];
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, post.id, { likes: 950 });
		const snapshot = JSON.stringify(staticData);
		await expect(poll({ credentials: { ...credentials, apiKey: sb.keys.revoked }, params: params(900), staticData })).rejects.toBeInstanceOf(NodeApiError);
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.configure({ faults: { errorRate: 1, errorStatuses: [503], routes: ['GET /posts'] } });
		const logs: Array<{ level: string; message: string }> = [];
		expect((await poll({ credentials, params: params(900), staticData, logs })).result).toBeNull();
		expect(logs.some((l) => l.level === 'warn' && /nothing was skipped/.test(l.message))).toBe(true);
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.resetFaults();
		expect((await poll({ credentials, params: params(900), staticData })).items.map((i) => i.postId)).toEqual([post.id]);
		expect((await poll({ credentials, params: params(900), staticData })).result).toBeNull();
	});

	test('Fetch Test Event: the newest post at the threshold, state untouched; or a clear message', async () => {
		await start(10);
		const staticData: IDataObject = {};
		const manual = await poll({ credentials, params: params(1), staticData, mode: 'manual' });
		const newest = [...account().posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)).find((x) => x.metrics.likes >= 1);
		expect(manual.items).toEqual([expect.objectContaining({ postId: newest?.id, metric: 'likes', threshold: 1 })]);
		expect(staticData).toEqual({});
		let error: any;
		try {
			await poll({ credentials, params: params(1_000_000, 'likes', 2), staticData, mode: 'manual' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('No post of the last 2 days has 1000000 likes or more: there is nothing to show as a test event');
		expect(error.description).toMatch(/Lower 'Threshold'/);
	});

	test('options are checked, naming the field', async () => {
		await start(1);
		await expect(poll({ credentials, params: params(100, 'likes', 31), staticData: {} })).rejects.toThrow(/^Watch Posts of the Last \(Days\)|watchDays/);
		await expect(poll({ credentials, params: params(100, 'other'), staticData: {} })).rejects.toThrow(/Metric Name|metricName/);
	});
});
