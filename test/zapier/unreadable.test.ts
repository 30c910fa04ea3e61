/**
 * No silent misses in the Zapier polling triggers: records without an id or
 * a time, and a value the user chose that no record carries (a milestone's
 * metric, the balance), are an error when Zapier loads a sample or seeds its
 * dedupe list (the first poll), naming the field looked for, and a warning in
 * the logs on later polls, which return the records they can read. A shape
 * the readers know (likes under `public_metrics.like_count`) fires.
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

describe('New Post Milestone (Post Metric Milestone)', () => {
	const NOW = Date.parse('2026-11-21T09:00:00Z');
	const at = (hours: number) => new Date(NOW - hours * 3_600_000).toISOString();
	const social = [
		{ id: 'tw2', text: 'b', created_at: at(2), public_metrics: { retweet_count: 3, reply_count: 1, like_count: 150, impression_count: 900 } },
		{ id: 'tw1', text: 'a', created_at: at(5), public_metrics: { retweet_count: 0, reply_count: 0, like_count: 20, impression_count: 100 } },
	];
	const unknown = [{ id: 'u1', text: 'a', publishedAt: at(2), counters: { favs: 150 } }];
	const likes = { metric: 'likes', threshold: 100 };

	test.each([['isPopulatingDedupe'], ['isLoadingSample']])('%s (the first poll): a metric no post carries is an error naming it and what to do', async (flag) => {
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: NOW });
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: unknown });
		const e = details(await rejection(run('triggers', 'postMetricMilestone', bundle(likes, { [flag]: true }))));
		expect(e.code).toBe('UNREADABLE_RECORDS');
		expect(e.message).toMatch(/^The post returned by GET \/posts has no metric "likes" \(looked for likes, like_count, likeCount/);
		expect(e.message).toMatch(/The first one has the fields: id, text, publishedAt, counters\.favs\. Pick 'Other Metric'/);
	});

	test('a later poll: nothing, and a warning in the logs', async () => {
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: NOW });
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: unknown });
		expect(await run('triggers', 'postMetricMilestone', bundle(likes))).toEqual([]);
		expect(log.mock.calls.flat().join('\n')).toMatch(/New Post Milestone \(warning\): The post returned by GET \/posts has no metric "likes"/);
	});

	test.each([
		['Likes', likes],
		['Other Metric by its path', { metric: 'other', metricName: 'public_metrics.like_count', threshold: 100 }],
	])('likes under public_metrics.like_count: the post over the threshold, with %s', async (_name, input) => {
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: NOW });
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: social });
		const out = await run('triggers', 'postMetricMilestone', bundle(input, { isPopulatingDedupe: true }));
		expect(out).toEqual([expect.objectContaining({ postId: 'tw2', value: 150, threshold: 100, metrics: expect.objectContaining({ likes: 150, comments: 1, shares: 3, impressions: 900 }) })]);
	});
});

describe('Low Credit Balance (Credits Low)', () => {
	test('the first poll: a balance under no name the reader knows is an error naming the field; a later poll warns', async () => {
		nock(ORIGIN).get('/api/v1/credits').query(true).reply(200, { amount_left: 4 });
		const e = details(await rejection(run('triggers', 'creditsLow', bundle({ threshold: 10 }, { isPopulatingDedupe: true }))));
		expect(e.message).toMatch(/^The credit balance returned by GET \/credits has no balance \(looked for "balance" .*The answer has the fields: amount_left\./);
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		nock(ORIGIN).get('/api/v1/credits').query(true).reply(200, { amount_left: 4 });
		expect(await run('triggers', 'creditsLow', bundle({ threshold: 10 }))).toEqual([]);
		expect(log.mock.calls.flat().join('\n')).toMatch(/Low Credit Balance \(warning\): The credit balance returned by GET \/credits has no balance/);
		nock(ORIGIN).get('/api/v1/credits').query(true).reply(200, { credits: { remaining: 4 } });
		expect(await run('triggers', 'creditsLow', bundle({ threshold: 10 }))).toEqual([expect.objectContaining({ balance: 4, below: true })]);
	});
});

describe('New Draft', () => {
	test('the first poll: drafts without a creation time are an error naming the field; a later poll warns and returns the others', async () => {
		const drafts = [
			{ id: 'd2', text: 'new', created_at: 1795163460 },
			{ id: 'd1', body: 'no time', made: 'today' },
		];
		nock(ORIGIN).get('/api/v1/drafts').query(true).reply(200, { data: drafts });
		const e = details(await rejection(run('triggers', 'newDraft', bundle({}, { isLoadingSample: true }))));
		expect(e.message).toMatch(/^1 of 2 drafts returned by GET \/drafts has no /);
		const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		nock(ORIGIN).get('/api/v1/drafts').query(true).reply(200, { data: drafts });
		expect((await run('triggers', 'newDraft', bundle())).map((d: any) => d.id)).toEqual(['d2']);
		expect(log.mock.calls.flat().join('\n')).toMatch(/New Draft \(warning\): 1 of 2 drafts/);
	});
});
