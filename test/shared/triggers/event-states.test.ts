/** The pure state of Post Metric Milestone, New Draft and Credits Low (shared/triggers: milestone-state.ts, new-draft-state.ts, credits-low-state.ts). */
import {
	MAX_MILESTONE_POSTS,
	crossings,
	ledger,
	milestoneConfig,
	selectCreditsLow,
	selectMilestones,
	selectNewDrafts,
	selectSince,
} from '../../../shared/triggers';
import { metricValue } from '../../../shared/records';
import { timeOf } from '../../../shared/base';
import type { CreditTransaction } from '../../../shared/base';

const T = Date.parse('2026-11-21T09:00:00.000Z');
const DAY = 86_400_000;

test('times: ISO, epoch seconds and milliseconds, digit strings; nothing else', () => {
	expect(timeOf('2026-11-21T09:00:00.000Z')).toBe(T);
	expect(timeOf(T / 1000)).toBe(T);
	expect(timeOf(T)).toBe(T);
	expect(timeOf(String(T / 1000))).toBe(T);
	for (const bad of ['', 'soon', null, undefined, 0, -5, {}]) expect(timeOf(bad)).toBeUndefined();
});

test('metrics: in metrics, stats or the post; synonyms (reposts for shares); any other metric by name', () => {
	expect(metricValue({ metrics: { likes: 5 } }, 'likes')).toBe(5);
	expect(metricValue({ stats: { reposts: 7 } }, 'shares')).toBe(7);
	expect(metricValue({ metrics: { shares: '8' } }, 'reposts')).toBe(8);
	expect(metricValue({ like_count: 3 }, 'likes')).toBe(3);
	expect(metricValue({ metrics: { Saves: 2 } }, 'saves')).toBe(2);
	expect(metricValue({ metrics: { likes: 'many' } }, 'likes')).toBeUndefined();
	// Wherever the post keeps it: a path, a name at any depth, any spelling of a labelled metric or of the name given.
	const social = { data: { public_metrics: { like_count: 12, retweet_count: 4, reply_count: 2, impression_count: 90, quote_count: 1 } } };
	expect(metricValue(social, 'public_metrics.like_count')).toBe(12);
	expect(metricValue(social, 'Public_Metrics.LikeCount')).toBe(12);
	expect(metricValue(social, 'like_count')).toBe(12);
	expect(metricValue(social, 'likes')).toBe(12);
	expect(metricValue(social, 'shares')).toBe(4);
	expect(metricValue(social, 'reposts')).toBe(4);
	expect(metricValue(social, 'comments')).toBe(2);
	expect(metricValue(social, 'impressions')).toBe(90);
	expect(metricValue(social, 'quotes')).toBe(1);
	expect(metricValue({ stats: { num_saves: 3 } }, 'saves')).toBe(3);
	expect(metricValue(social, 'saves')).toBeUndefined();
	expect(metricValue(social, 'public_metrics.saves')).toBeUndefined();
});

test('milestone options are checked, naming the field', () => {
	expect(milestoneConfig({ metric: 'likes', threshold: '100', watchDays: '7' })).toEqual({ metric: 'likes', threshold: 100, watchDays: 7 });
	expect(milestoneConfig({ metric: 'other', metricName: ' saves ', threshold: 3 })).toEqual({ metric: 'saves', threshold: 3, watchDays: 7 });
	expect(() => milestoneConfig({ metric: 'other', threshold: 3 })).toThrow(expect.objectContaining({ field: 'metricName' }));
	expect(() => milestoneConfig({ threshold: 0 })).toThrow(expect.objectContaining({ field: 'threshold' }));
	expect(() => milestoneConfig({ threshold: 1, watchDays: 31 })).toThrow(expect.objectContaining({ field: 'watchDays' }));
});

test('watermark: the first call only records; ties at the watermark fire once; the ids kept are bounded', () => {
	const at = (id: string, ms: number) => ({ id, at: ms, record: { id } });
	const first = selectSince([at('a', T), at('b', T - 1)], {});
	expect(first).toEqual({ fresh: [], state: { initialised: true, watermark: new Date(T).toISOString(), idsAtWatermark: ['a'] } });
	const second = selectSince([at('c', T), at('a', T), at('d', T + 1)], first.state);
	expect(second.fresh.map((i) => i.id)).toEqual(['d', 'c']);
	expect(selectSince([at('c', T), at('a', T), at('d', T + 1)], second.state).fresh).toEqual([]);
	const many = Array.from({ length: 300 }, (_, i) => at(`x${i}`, T + 5));
	expect(selectSince(many, second.state).state.idsAtWatermark).toHaveLength(100);
});

test('new drafts: created time in any spelling; drafts without one are left out', () => {
	const { state } = selectNewDrafts([{ id: 'd1', created_at: T / 1000 }], {});
	const next = selectNewDrafts([{ id: 'd3', createdAt: new Date(T + 1).toISOString() }, { id: 'd2' }, { id: 'd1', created_at: T / 1000 }], state);
	expect(next.fresh.map((d) => d.id)).toEqual(['d3']);
});

describe('milestones', () => {
	const config = milestoneConfig({ metric: 'likes', threshold: 10, watchDays: 2 });
	const post = (id: string, publishedAt: number, likes: number) => ({ id, publishedAt: new Date(publishedAt).toISOString(), metrics: { likes } });

	test('nothing at activation; a crossing fires once; posts leaving the window are forgotten; another threshold starts afresh', () => {
		const s0 = selectMilestones([post('a', T - DAY, 12), post('b', T - DAY, 3), post('old', T - 3 * DAY, 50)], {}, config, T);
		expect(s0.fresh).toEqual([]);
		expect(s0.state.reached).toEqual({ a: T - DAY });
		const s1 = selectMilestones([post('a', T - DAY, 20), post('b', T - DAY, 10)], s0.state, config, T + 1000);
		expect(s1.fresh.map((c) => c.id)).toEqual(['b:likes:10']);
		expect(selectMilestones([post('a', T - DAY, 20), post('b', T - DAY, 11)], s1.state, config, T + 2000).fresh).toEqual([]);
		const later = selectMilestones([post('a', T - DAY, 20), post('b', T - DAY, 11)], s1.state, config, T + 2 * DAY);
		expect(later.state.reached).toEqual({});
		const other = milestoneConfig({ metric: 'likes', threshold: 5, watchDays: 2 });
		expect(selectMilestones([post('c', T, 6)], s1.state, other, T).fresh).toEqual([]);
	});

	test('state bounded at MAX_MILESTONE_POSTS; older posts count as reached by their date, none fires twice', () => {
		const wide = milestoneConfig({ metric: 'likes', threshold: 1, watchDays: 30 });
		const posts = Array.from({ length: MAX_MILESTONE_POSTS + 200 }, (_, i) => post(`p${i}`, T - i * 60_000, 0));
		const s0 = selectMilestones(posts, {}, wide, T);
		const raised = posts.map((p) => ({ ...p, metrics: { likes: 5 } }));
		const s1 = selectMilestones(raised, s0.state, wide, T);
		expect(s1.fresh).toHaveLength(posts.length);
		expect(s1.overflowed).toBe(true);
		expect(Object.keys(s1.state.reached ?? {})).toHaveLength(MAX_MILESTONE_POSTS);
		expect(selectMilestones(raised, s1.state, wide, T).fresh).toEqual([]);
	});
});

describe('credits', () => {
	test('the ledger works out balances from the amounts when balanceAfter is missing, whatever the order', () => {
		// Epoch milliseconds for the times: a shape the API may use (the type says ISO).
		const history = [
			{ id: 't3', amount: -5, createdAt: T + 3 },
			{ id: 't2', amount: -1, createdAt: T + 2 },
			{ id: 't1', amount: 20, createdAt: T + 1 },
		] as unknown as CreditTransaction[];
		const lines = ledger({ balance: 14, history });
		expect(lines.map((l) => [l.id, l.before, l.after])).toEqual([
			['t3', 19, 14],
			['t2', 20, 19],
			['t1', 0, 20],
		]);
		expect(ledger({ balance: 14, history: [...history].reverse() }).map((l) => l.id)).toEqual(['t3', 't2', 't1']);
		expect(crossings(lines, 15).map((l) => l.id)).toEqual(['t3']);
	});

	test('once per crossing; below at activation does not fire; a changed threshold starts afresh', () => {
		const tx = (id: string, amount: number, balanceAfter: number, at: number) => ({ id, amount, balanceAfter, createdAt: new Date(at).toISOString() });
		const h0 = [tx('t1', 8, 8, T)];
		const s0 = selectCreditsLow({ balance: 8, history: h0 }, {}, 10, T);
		expect(s0.fresh).toEqual([]);
		const h1 = [tx('t3', -6, 7, T + 2), tx('t2', 5, 13, T + 1), ...h0];
		const s1 = selectCreditsLow({ balance: 7, history: h1 }, s0.state, 10, T + 3);
		expect(s1.fresh.map((e) => e.id)).toEqual(['t3:10']);
		expect(selectCreditsLow({ balance: 7, history: h1 }, s1.state, 10, T + 4).fresh).toEqual([]);
		expect(selectCreditsLow({ balance: 7, history: h1 }, s1.state, 12, T + 4).fresh).toEqual([]);
	});
});
