/**
 * No silent misses in the Zapier polling triggers: records without an id or
 * a time are an error when Zapier loads a sample or seeds its dedupe list
 * (the first poll), naming the field looked for, and a warning in the logs
 * on later polls, which return the records they can read.
 */
import nock from 'nock';
import { ONLY_DATE, ORIGIN, bundle, details, rejection, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.useRealTimers();
	jest.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

const posts = [
	{ id: 'p2', text: 'b', when_published: 'last Tuesday' },
	{ id: 'p1', text: 'a', published_at: 1795163400 },
];

describe('New Published Post', () => {
	test.each([['isPopulatingDedupe'], ['isLoadingSample']])('%s (the first poll): an error naming the field', async (flag) => {
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: posts });
		const e = details(await rejection(run('triggers', 'newPublishedPost', bundle({}, { [flag]: true }))));
		expect(e.code).toBe('UNREADABLE_RECORDS');
		expect(e.message).toMatch(/^1 of 2 posts returned by GET \/posts has no publication time \(looked for "publishedAt" \(also published_at, publishDate/);
	});

	test('a later poll: the readable posts, and a warning in the logs', async () => {
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: posts });
		const out = await run('triggers', 'newPublishedPost', bundle());
		expect(out.map((p: any) => [p.id, p.publishedAt])).toEqual([['p1', '2026-11-20T08:30:00.000Z']]);
		expect(log.mock.calls.flat().join('\n')).toMatch(/New Published Post \(warning\): 1 of 2 posts .* no publication time/);
	});
});

describe('Upcoming Scheduled Draft', () => {
	const NOW = Date.parse('2026-11-21T09:00:00Z');
	const entries = [
		{ type: 'scheduled', text: 'no id', date: '2026-11-21T09:30:00Z' },
		{ type: 'scheduled', draft_id: 'd2', text: 'soon', scheduled_at: NOW / 1000 + 1800 },
	];
	const input = { notifyBefore: 1, notifyBeforeUnit: 'hours' };

	test('the first poll: an error naming the field', async () => {
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: NOW });
		nock(ORIGIN).get('/api/v1/calendar').query(true).reply(200, { entries });
		const e = details(await rejection(run('triggers', 'upcomingScheduledDraft', bundle(input, { isPopulatingDedupe: true }))));
		expect(e.message).toMatch(/^1 of 2 calendar entries returned by GET \/calendar has no id \(looked for "id"/);
	});

	test('a later poll: the readable entries, and a warning in the logs', async () => {
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: NOW });
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		nock(ORIGIN).get('/api/v1/calendar').query(true).reply(200, { entries });
		const out = await run('triggers', 'upcomingScheduledDraft', bundle(input));
		expect(out).toMatchObject([{ id: 'd2:2026-11-21T09:30:00.000Z', draftId: 'd2', text: 'soon' }]);
		expect(log.mock.calls.flat().join('\n')).toMatch(/Upcoming Scheduled Draft \(warning\): 1 of 2 calendar entries .* no id/);
	});
});
