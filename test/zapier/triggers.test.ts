import nock from 'nock';
import { ORIGIN, bundle, details, rejection, run } from './helpers';
import { calendarWindowInZone, isoInZone } from '../../zapier/src/time';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const iso = (ms: number) => new Date(ms).toISOString();

describe('New Published Post', () => {
	test('returns the newest posts first, id = post id, with the time in the user zone (one request for a newest-first list)', async () => {
		const scope = nock(ORIGIN)
			.get('/api/v1/posts')
			.query({ limit: '100' })
			.reply(200, {
				data: [
					{ id: 'pst_3', text: 'newest', publishedAt: '2026-11-20T08:30:00Z', metrics: { likes: 1 } },
					{ id: 'pst_2', text: 'middle', publishedAt: '2026-11-19T09:30:00+01:00' },
					{ id: 'broken', text: 'no date' },
					{ id: 'pst_1', text: 'old', publishedAt: '2026-11-18T08:30:00.000Z', metrics: { likes: 3 } },
				],
				nextCursor: 'c2',
			});
		const posts = await run('triggers', 'newPublishedPost', bundle({}, { timezone: 'Europe/Paris', limit: 3 }));
		scope.done();
		expect(nock.pendingMocks()).toEqual([]);
		expect(posts.map((p: any) => p.id)).toEqual(['pst_3', 'pst_2', 'pst_1']);
		expect(posts[0]).toMatchObject({ publishedAt: '2026-11-20T08:30:00.000Z', publishedAtLocal: '2026-11-20T09:30:00+01:00', metrics: { likes: 1 } });
		expect(posts[1].publishedAt).toBe('2026-11-19T08:30:00.000Z');
	});

	test('an oldest-first list is read to its end, and the newest come back first', async () => {
		const at = (day: number) => new Date(Date.parse('2026-11-01T08:30:00Z') + day * 86_400_000).toISOString();
		nock(ORIGIN)
			.get('/api/v1/posts')
			.query({ limit: '100' })
			.reply(200, { data: [0, 1, 2].map((d) => ({ id: `p${d}`, publishedAt: at(d) })), nextCursor: 'c2' });
		nock(ORIGIN)
			.get('/api/v1/posts')
			.query({ limit: '100', cursor: 'c2' })
			.reply(200, { data: [3, 4].map((d) => ({ id: `p${d}`, publishedAt: at(d) })), nextCursor: 'c3' });
		nock(ORIGIN)
			.get('/api/v1/posts')
			.query({ limit: '100', cursor: 'c3' })
			.reply(200, { data: [{ id: 'p5', publishedAt: at(5) }], nextCursor: null });
		const posts = await run('triggers', 'newPublishedPost', bundle({}, { limit: 4 }));
		expect(nock.pendingMocks()).toEqual([]);
		expect(posts.map((p: any) => p.id)).toEqual(['p5', 'p4', 'p3', 'p2']);
	});

	test("follows Zapier's limit and reads more when seeding the dedupe list", async () => {
		nock(ORIGIN).get('/api/v1/posts').query({ limit: '100' }).reply(200, [{ id: 'p', publishedAt: '2026-11-20T08:30:00Z' }, { id: 'q', publishedAt: '2026-11-19T08:30:00Z' }]);
		expect(await run('triggers', 'newPublishedPost', bundle({}, { limit: 1 }))).toMatchObject([{ id: 'p' }]);
		nock(ORIGIN).get('/api/v1/posts').query({ limit: '100' }).reply(200, { data: [{ id: 'a', publishedAt: '2026-11-20T08:30:00Z' }], nextCursor: 'n' });
		nock(ORIGIN).get('/api/v1/posts').query({ limit: '100', cursor: 'n' }).reply(200, { data: [{ id: 'b', publishedAt: '2026-11-19T08:30:00Z' }] });
		const seeded = await run('triggers', 'newPublishedPost', bundle({}, { isPopulatingDedupe: true }));
		expect(seeded.map((p: any) => p.id)).toEqual(['a', 'b']);
	});

	test('an empty account returns []', async () => {
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: [] });
		expect(await run('triggers', 'newPublishedPost', bundle())).toEqual([]);
	});
});

describe('Upcoming Scheduled Draft', () => {
	test('asks the calendar for the days covering the notice in the user zone and UTC, returns future times within it', async () => {
		const now = Date.now();
		const zone = 'Pacific/Auckland';
		const win = calendarWindowInZone(now, 2 * 3_600_000, zone);
		const entries = [
			{ type: 'scheduled', id: 'drf_past', draftId: 'drf_past', text: 'past', date: iso(now - 60_000) },
			{ type: 'scheduled', id: 'drf_soon', draftId: 'drf_soon', text: 'soon', date: iso(now + 30 * 60_000) },
			{ type: 'published', id: 'pst_1', postId: 'pst_1', text: 'published', date: iso(now + 10 * 60_000) },
			{ type: 'scheduled', id: 'drf_later', draftId: 'drf_later', text: 'later', date: iso(now + 90 * 60_000) },
			{ type: 'scheduled', id: 'drf_far', draftId: 'drf_far', text: 'far', date: iso(now + 5 * 3_600_000) },
		];
		const scope = nock(ORIGIN).get('/api/v1/calendar').query(win).reply(200, { from: win.from, to: win.to, entries });
		const out = await run('triggers', 'upcomingScheduledDraft', bundle({ notifyBefore: 2, notifyBeforeUnit: 'hours' }, { timezone: zone }));
		scope.done();
		// Newest first, as Zapier asks of polling triggers: the time that entered the window last leads.
		expect(out.map((e: any) => e.draftId)).toEqual(['drf_later', 'drf_soon']);
		const soon = out[1];
		expect(soon.id).toBe(`drf_soon:${entries[1].date}`);
		expect(soon.scheduledAt).toBe(entries[1].date);
		expect(soon.scheduledAtLocal).toBe(isoInZone(Date.parse(entries[1].date), zone));
		expect(soon.scheduledAtLocal).toMatch(/\+1[23]:00$/);
		expect(soon.timezone).toBe(zone);
		expect(soon.minutesUntil).toBe(30);
	});

	test('newest first without breaking the dedupe: ids stay draftId:scheduledAt, and a rescheduled draft is a new id', async () => {
		const now = Date.now();
		const at = (min: number) => iso(now + min * 60_000);
		const poll = async (entries: object[]) => {
			nock(ORIGIN).get('/api/v1/calendar').query(true).reply(200, { entries });
			return (await run('triggers', 'upcomingScheduledDraft', bundle({ notifyBefore: 60, notifyBeforeUnit: 'minutes' }))) as any[];
		};
		const first = await poll([
			{ type: 'scheduled', id: 'a', draftId: 'a', date: at(10) },
			{ type: 'scheduled', id: 'c', draftId: 'c', date: at(30) },
			{ type: 'scheduled', id: 'b', draftId: 'b', date: at(30) },
			{ type: 'scheduled', id: 'd', draftId: 'd', date: at(50) },
		]);
		expect(first.map((e) => e.id)).toEqual([`d:${at(50)}`, `c:${at(30)}`, `b:${at(30)}`, `a:${at(10)}`]);
		// Zapier's dedupe over two polls: only the rescheduled draft is new.
		const seen = new Set(first.map((e) => e.id));
		const second = await poll([
			{ type: 'scheduled', id: 'a', draftId: 'a', date: at(10) },
			{ type: 'scheduled', id: 'b', draftId: 'b', date: at(30) },
			{ type: 'scheduled', id: 'c', draftId: 'c', date: at(45) },
			{ type: 'scheduled', id: 'd', draftId: 'd', date: at(50) },
		]);
		expect(second.map((e) => e.draftId)).toEqual(['d', 'c', 'b', 'a']);
		expect(second.filter((e) => !seen.has(e.id)).map((e) => e.id)).toEqual([`c:${at(45)}`]);
	});

	test('the window: the union of the UTC days and the days in the zone', () => {
		const now = Date.parse('2026-11-21T23:30:00Z');
		// 23:30 UTC is already the 22nd in Auckland (+13): from the 21st (UTC) to the 22nd (zone).
		expect(calendarWindowInZone(now, 10 * 60_000, 'Pacific/Auckland')).toEqual({ from: '2026-11-21', to: '2026-11-22' });
		// 01:00 UTC is still the 20th in Los Angeles (-8).
		expect(calendarWindowInZone(Date.parse('2026-11-21T01:00:00Z'), 60_000, 'America/Los_Angeles')).toEqual({ from: '2026-11-20', to: '2026-11-21' });
		expect(calendarWindowInZone(now, 3 * 86_400_000, 'UTC')).toEqual({ from: '2026-11-21', to: '2026-11-24' });
	});

	test('without a known zone, UTC', async () => {
		const now = Date.now();
		nock(ORIGIN)
			.get('/api/v1/calendar')
			.query(true)
			.reply(200, { entries: [{ type: 'scheduled', id: 'd', date: iso(now + 60_000) }] });
		const out = await run('triggers', 'upcomingScheduledDraft', bundle({ notifyBefore: '15', notifyBeforeUnit: 'minutes' }, { timezone: 'Not/AZone' }));
		expect(out[0]).toMatchObject({ draftId: 'd', timezone: 'UTC' });
		expect(out[0].scheduledAtLocal).toMatch(/\+00:00$/);
	});

	test('a notice that is not a whole number, or longer than 31 days, is refused naming the field', async () => {
		let e = details(await rejection(run('triggers', 'upcomingScheduledDraft', bundle({ notifyBefore: 'soon', notifyBeforeUnit: 'hours' }))));
		expect(e.message).toMatch(/^Notify Me Before \(notifyBefore\): must be a whole number of hours/);
		e = details(await rejection(run('triggers', 'upcomingScheduledDraft', bundle({ notifyBefore: 61, notifyBeforeUnit: 'days' }))));
		expect(e.message).toMatch(/^Notify Me Before \(notifyBefore\): 61 days is longer than the 31 days/);
	});
});

describe('hidden triggers for the dropdowns', () => {
	test('writing profiles, labelled, the active one marked', async () => {
		nock(ORIGIN)
			.get('/api/v1/writing-profiles')
			.query(true)
			.reply(200, { writingProfiles: [{ id: 'wp_a', name: 'Founder voice', active: true }, { id: 'wp_b', name: 'Storyteller', active: false }] });
		const out = await run('triggers', 'listWritingProfiles', bundle({}, { isFillingDynamicDropdown: true }));
		expect(out).toEqual([
			{ id: 'wp_a', name: 'Founder voice', active: true, label: 'Founder voice (active)' },
			{ id: 'wp_b', name: 'Storyteller', active: false, label: 'Storyteller' },
		]);
	});

	test('drafts, page by page', async () => {
		const drafts = Array.from({ length: 70 }, (_, i) => ({ id: `d${i}`, text: `Draft number ${i}`, status: i % 2 ? 'scheduled' : 'draft', scheduledAt: i % 2 ? '2030-01-01T09:00:00.000Z' : null }));
		nock(ORIGIN).get('/api/v1/drafts').query({ limit: '50' }).times(2).reply(200, { data: drafts.slice(0, 50), nextCursor: 'p2' });
		nock(ORIGIN).get('/api/v1/drafts').query({ limit: '50', cursor: 'p2' }).reply(200, { data: drafts.slice(50) });
		const first = await run('triggers', 'listDrafts', bundle({}, { page: 0, isFillingDynamicDropdown: true }));
		expect(first).toHaveLength(50);
		expect(first[0]).toMatchObject({ id: 'd0', label: 'Draft number 0 (draft)' });
		expect(first[1].label).toBe('Draft number 1 (scheduled 2030-01-01T09:00:00.000Z)');
		const second = await run('triggers', 'listDrafts', bundle({}, { page: 1, isFillingDynamicDropdown: true }));
		expect(second.map((d: any) => d.id)).toEqual(drafts.slice(50).map((d) => d.id));
	});
});
