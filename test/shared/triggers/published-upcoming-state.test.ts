import type { CalendarEntry } from '../../../shared/base';
import { MAX_FIRED_KEYS, MAX_IDS_AT_WATERMARK, calendarWindow, selectNewPosts, selectUpcoming, type PostWatermarkState, type UpcomingState } from '../../../shared/triggers';

function post(id: number, at: number) {
	return { id: `p${id}`, text: `post ${id}`, publishedAt: new Date(at).toISOString() };
}

describe('New Published Post watermark', () => {
	test('the first poll fires nothing; later polls fire each new post once, ties included', () => {
		const t0 = Date.parse('2026-11-21T00:00:00Z');
		const history = [post(1, t0), post(2, t0 + 1000)];
		let state: PostWatermarkState = {};
		let r = selectNewPosts(history, state);
		expect(r.fresh).toEqual([]);
		state = r.state;
		// two posts at the very same instant as the watermark, one later
		const next = [post(3, t0 + 1000), post(4, t0 + 1000), post(5, t0 + 5000), ...history];
		r = selectNewPosts(next, state);
		expect(r.fresh.map((p) => p.id).sort()).toEqual(['p3', 'p4', 'p5']);
		state = r.state;
		r = selectNewPosts(next, state);
		expect(r.fresh).toEqual([]);
	});

	test('an empty history at activation: every later post fires', () => {
		let r = selectNewPosts([], {});
		expect(r.state.initialised).toBe(true);
		r = selectNewPosts([post(1, 1000)], r.state);
		expect(r.fresh.map((p) => p.id)).toEqual(['p1']);
	});
});

describe('ids at the watermark', () => {
	const T = Date.parse('2026-11-21T00:00:00Z');
	test(`up to ${MAX_IDS_AT_WATERMARK} posts in one millisecond: none fires twice`, () => {
		let r = selectNewPosts([post(0, T - 1)], {});
		const same = Array.from({ length: MAX_IDS_AT_WATERMARK }, (_, i) => post(i + 1, T));
		r = selectNewPosts(same.slice(0, 40), r.state);
		expect(r.fresh).toHaveLength(40);
		r = selectNewPosts(same, r.state);
		expect(r.fresh).toHaveLength(MAX_IDS_AT_WATERMARK - 40);
		r = selectNewPosts(same, r.state);
		expect(r.fresh).toEqual([]);
		expect(r.state.idsAtWatermark).toHaveLength(MAX_IDS_AT_WATERMARK);
	});

	test('long ids (UUIDs): the state stays under 4 KB, and a post past the bound can fire again but is never missed', () => {
		const uuid = (i: number) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
		let r = selectNewPosts([{ id: 'old', publishedAt: new Date(T - 1).toISOString() }], {});
		const same = Array.from({ length: 150 }, (_, i) => ({ id: uuid(i), publishedAt: new Date(T).toISOString() }));
		r = selectNewPosts(same, r.state);
		expect(r.fresh).toHaveLength(150);
		expect(JSON.stringify(r.state).length).toBeLessThan(4096);
		const kept = r.state.idsAtWatermark ?? [];
		expect(kept.length).toBeLessThan(150);
		// The ids kept are the last recorded; the others, at the same instant, would fire once more.
		const again = selectNewPosts(same, r.state);
		expect(again.fresh).toHaveLength(150 - kept.length);
		expect(JSON.stringify(again.state).length).toBeLessThan(4096);
	});
});

describe('Upcoming Scheduled Draft', () => {
	const H = 3_600_000;
	const entry = (draftId: string, at: number): CalendarEntry => ({ type: 'scheduled', id: draftId, draftId, date: new Date(at).toISOString() });

	test('window covers UTC day and month boundaries', () => {
		expect(calendarWindow(Date.parse('2026-11-30T23:30:00Z'), 2 * H)).toEqual({ from: '2026-11-30', to: '2026-12-01' });
		expect(calendarWindow(Date.parse('2026-12-31T22:00:00Z'), 3 * H)).toEqual({ from: '2026-12-31', to: '2027-01-01' });
	});

	test('fires once per (draft, time), again after a reschedule, never for a past time', () => {
		let now = Date.parse('2026-11-30T22:00:00Z');
		let state: UpcomingState = {};
		const d1 = entry('d1', now + 1.5 * H); // crosses midnight UTC
		const far = entry('d2', now + 5 * H);
		let r = selectUpcoming([d1, far], state, now, 2 * H);
		expect(r.fresh.map((e) => e.id)).toEqual(['d1']);
		state = r.state;
		now += 10 * 60_000;
		r = selectUpcoming([d1, far], state, now, 2 * H);
		expect(r.fresh).toEqual([]);
		state = r.state;
		// rescheduled 30 minutes later: fires again
		const moved = entry('d1', now + 1.9 * H);
		r = selectUpcoming([moved, far], state, now, 2 * H);
		expect(r.fresh.map((e) => e.date)).toEqual([moved.date]);
		state = r.state;
		// d2 enters the window later
		now += 3.5 * H;
		r = selectUpcoming([far, entry('old', now - 1)], state, now, 2 * H);
		expect(r.fresh.map((e) => e.id)).toEqual(['d2']);
		// past entries are pruned from state
		expect(Object.keys(r.state.fired ?? {})).toEqual([`d2:${far.date}`]);
	});
	test(`more than ${MAX_FIRED_KEYS} drafts in the window: each fires once, never again, with the state bounded`, () => {
		let now = Date.parse('2026-11-21T09:00:00Z');
		const M = 60_000;
		const lookahead = 30 * 86_400_000;
		const drafts = Array.from({ length: 1500 }, (_, i) => entry(`d${i}`, now + (i + 1) * 10 * M));
		let state: UpcomingState = {};
		const fired = new Map<string, number>();
		const count = (fresh: CalendarEntry[]) => fresh.forEach((e) => fired.set(`${e.id}:${e.date}`, (fired.get(`${e.id}:${e.date}`) ?? 0) + 1));
		let r = selectUpcoming(drafts, state, now, lookahead);
		expect(r.overflowed).toBe(true);
		count(r.fresh);
		state = r.state;
		expect(Object.keys(state.fired ?? {})).toHaveLength(MAX_FIRED_KEYS);
		// The soonest were dropped from the keys; firedThrough keeps them from firing again.
		expect(state.firedThrough).toBe(now + 500 * 10 * M);
		// The price, documented at MAX_FIRED_KEYS: a draft newly scheduled before firedThrough does not fire.
		expect(selectUpcoming([...drafts, entry('squeezed', now + 5 * M)], state, now, lookahead).fresh).toEqual([]);
		const late = entry('late', now + 2000 * 10 * M);
		for (let step = 0; step < 400; step++) {
			now += 7 * M;
			const visible = step >= 200 ? [...drafts, late] : drafts;
			r = selectUpcoming(visible, state, now, lookahead);
			count(r.fresh);
			state = r.state;
			expect(Object.keys(state.fired ?? {}).length).toBeLessThanOrEqual(MAX_FIRED_KEYS);
		}
		expect(fired.size).toBe(1501);
		expect([...fired.values()].every((c) => c === 1)).toBe(true);
		// Once the overflow has passed, firedThrough is dropped.
		now += 30 * 86_400_000;
		expect(selectUpcoming([], state, now, lookahead).state).toEqual({ fired: {} });
	});
});
