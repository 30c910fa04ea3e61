/**
 * No silent misses in Post Writer Trigger: records without an id or a time,
 * and a value the user chose that no record carries (a milestone's metric,
 * the balance Credits Low compares), under any of the names the readers
 * know, are an error on the first poll and in Fetch Test Event, naming the
 * field looked for, the names tried and the fields the records carry, and a
 * warning on later polls, which fire what they can read. The state never
 * moves on the error. A shape the readers know (likes under
 * `public_metrics.like_count`) fires.
 */
import nock from 'nock';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { poll } from '../../helpers/context';

const ORIGIN = 'https://api.test.example';
const credentials = { apiKey: 'pw_live_UNREADABLE0123456789abcdef012345', baseUrl: `${ORIGIN}/api/v1` };
const posts = { event: 'newPublishedPost' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

const servePosts = (data: unknown[]) => nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data });

async function failure(promise: Promise<unknown>): Promise<NodeOperationError> {
	try {
		await promise;
	} catch (e) {
		return e as NodeOperationError;
	}
	throw new Error('expected the poll to fail');
}

describe('New Published Post', () => {
	test('first poll: posts without a publication time are an error naming the field; the state is not written', async () => {
		servePosts([
			{ id: 'p2', text: 'b', when_published: 'last Tuesday' },
			{ id: 'p1', text: 'a', published_at: 1795163400 },
		]);
		const staticData: IDataObject = {};
		const error = await failure(poll({ credentials, params: posts, staticData }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^1 of 2 posts returned by GET \/posts has no publication time \(looked for "publishedAt" \(also published_at, publishDate/);
		expect(error.description).toMatch(/The first one has the fields: id, text, when_published\. Check that the Base URL points to API v1/);
		expect(staticData).toEqual({});
	});

	test('first poll: posts without an id say so too', async () => {
		servePosts([{ text: 'a', publishedAt: '2026-11-20T08:30:00Z' }]);
		const error = await failure(poll({ credentials, params: posts, staticData: {} }));
		expect(error.message).toMatch(/^1 of 1 post returned by GET \/posts has no id \(looked for "id" \(also uuid, guid, postId, urn/);
	});

	test('Fetch Test Event says so as well', async () => {
		servePosts([{ id: 'p1', text: 'a' }]);
		const error = await failure(poll({ credentials, params: posts, staticData: {}, mode: 'manual' }));
		expect(error.message).toMatch(/no publication time/);
	});

	test('later polls: a warning naming the field, and the posts that can be read fire once', async () => {
		const staticData: IDataObject = {};
		servePosts([{ id: 'p1', published_at: 1795163400 }]);
		expect((await poll({ credentials, params: posts, staticData })).result).toBeNull();
		servePosts([
			{ id: 'p3', published_at: 1795163460 },
			{ id: 'p2', text: 'no time' },
			{ id: 'p1', published_at: 1795163400 },
		]);
		const { items, logs } = await poll({ credentials, params: posts, staticData });
		expect(items.map((i) => i.id)).toEqual(['p3']);
		expect(logs).toEqual([{ level: 'warn', message: expect.stringMatching(/^Post Writer Trigger: 1 of 3 posts returned by GET \/posts has no publication time \(looked for "publishedAt"/) }]);
	});
});

describe('Upcoming Scheduled Draft', () => {
	const upcoming = { event: 'upcomingScheduledDraft', notifyAmount: 2, notifyUnit: 'hours' };
	const NOW = Date.parse('2026-11-21T09:00:00Z');
	const serveCalendar = (entries: unknown[]) => nock(ORIGIN).get('/api/v1/calendar').query(true).reply(200, { entries });

	test('first poll: entries without a date are an error naming the field; later polls warn and fire the others', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW);
		serveCalendar([{ type: 'scheduled', id: 'd1', text: 'no date' }]);
		const staticData: IDataObject = {};
		const error = await failure(poll({ credentials, params: upcoming, staticData }));
		expect(error.message).toMatch(/^1 of 1 calendar entry returned by GET \/calendar has no date \(looked for "date" \(also datetime, at, time, when/);
		expect(staticData).toEqual({});

		serveCalendar([]);
		expect((await poll({ credentials, params: upcoming, staticData })).result).toBeNull();
		serveCalendar([
			{ type: 'scheduled', id: 'd1', text: 'no date' },
			{ type: 'scheduled', id: 'd2', text: 'soon', scheduled_at: NOW / 1000 + 3600 },
		]);
		const { items, logs } = await poll({ credentials, params: upcoming, staticData });
		expect(items).toMatchObject([{ draftId: 'd2', scheduledAt: '2026-11-21T10:00:00.000Z' }]);
		expect(logs).toEqual([{ level: 'warn', message: expect.stringMatching(/1 of 2 calendar entries returned by GET \/calendar has no date/) }]);
	});
});

/** Posts of the last hours, as a service in the style of a well-known social API sends them: metrics under `public_metrics`, each `<metric>_count`. */
function socialPosts(likes: readonly number[]): unknown[] {
	return likes.map((n, i) => ({
		id: `tw${i + 1}`,
		text: `Post ${i + 1}`,
		created_at: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
		public_metrics: { retweet_count: 2, reply_count: 1, like_count: n, quote_count: 0, impression_count: 40 * n },
	}));
}

/** The same posts with their likes under a name no reader knows (`favs`, in `counters`). */
function unknownMetricPosts(likes: readonly number[]): unknown[] {
	return likes.map((n, i) => ({ id: `u${i + 1}`, text: `Post ${i + 1}`, publishedAt: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(), counters: { favs: n } }));
}

describe('Post Metric Milestone', () => {
	const milestone = (extra: IDataObject = {}) => ({ event: 'postMetricMilestone', metric: 'likes', threshold: 100, watchDays: 7, ...extra });

	test('first poll: a metric no post carries under any name is an error naming it, the names tried, the fields the posts carry and what to do; the state is not written', async () => {
		servePosts(unknownMetricPosts([150, 20]));
		const staticData: IDataObject = {};
		const error = await failure(poll({ credentials, params: milestone(), staticData }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^None of the 2 posts returned by GET \/posts has the metric "likes" \(looked for likes, like_count, likeCount, num_likes, total_likes, reactions/);
		expect(error.description).toMatch(/The first one has the fields: id, text, publishedAt, counters\.favs\. Pick 'Other Metric' as the metric and give the field's path as its name \(for example counters\.favs\)/);
		expect(staticData).toEqual({});
	});

	test('Fetch Test Event says so too, instead of "no post has 100 likes"', async () => {
		servePosts(unknownMetricPosts([150]));
		const error = await failure(poll({ credentials, params: milestone(), staticData: {}, mode: 'manual' }));
		expect(error.message).toMatch(/^The post returned by GET \/posts has no metric "likes"/);
	});

	test('later polls: a warning naming the metric; nothing fires and the trigger goes on', async () => {
		const staticData: IDataObject = {};
		servePosts(socialPosts([10]));
		expect((await poll({ credentials, params: milestone(), staticData })).result).toBeNull();
		servePosts(unknownMetricPosts([150]));
		const { result, logs } = await poll({ credentials, params: milestone(), staticData });
		expect(result).toBeNull();
		expect(logs).toEqual([{ level: 'warn', message: expect.stringMatching(/^Post Writer Trigger: The post returned by GET \/posts has no metric "likes" \(looked for/) }]);
	});

	test.each([
		['Likes', {}],
		['Other Metric by its path', { metric: 'other', metricName: 'public_metrics.like_count' }],
		['Other Metric by the name the server gives it', { metric: 'other', metricName: 'like_count' }],
	])('likes under public_metrics.like_count fire once, with %s', async (_name, extra) => {
		const staticData: IDataObject = {};
		servePosts(socialPosts([10, 20]));
		const first = await poll({ credentials, params: milestone(extra), staticData });
		expect(first).toMatchObject({ result: null, logs: [] });
		servePosts(socialPosts([150, 20]));
		const { items, logs } = await poll({ credentials, params: milestone(extra), staticData });
		expect(logs).toEqual([]);
		expect(items).toEqual([expect.objectContaining({ postId: 'tw1', value: 150, threshold: 100, metrics: expect.objectContaining({ likes: 150, comments: 1, shares: 2, impressions: 6000, quote_count: 0 }) })]);
		servePosts(socialPosts([160, 20]));
		expect((await poll({ credentials, params: milestone(extra), staticData })).result).toBeNull();
	});
});

describe('New Draft', () => {
	const drafts = { event: 'newDraft' };
	const serveDrafts = (data: unknown[]) => nock(ORIGIN).get('/api/v1/drafts').query(true).reply(200, { data });

	test('first poll and Fetch Test Event: drafts without a creation time are an error naming the field; later polls warn and fire the others', async () => {
		serveDrafts([{ id: 'd1', body: 'no time', made: 'today' }]);
		const staticData: IDataObject = {};
		expect((await failure(poll({ credentials, params: drafts, staticData }))).message).toMatch(/^1 of 1 draft returned by GET \/drafts has no .*createdAt/);
		expect(staticData).toEqual({});
		serveDrafts([{ id: 'd1', body: 'no time', made: 'today' }]);
		expect((await failure(poll({ credentials, params: drafts, staticData: {}, mode: 'manual' }))).message).toMatch(/draft returned by GET \/drafts has no/);

		serveDrafts([{ id: 'd0', text: 'old', created_at: 1795163400 }]);
		expect((await poll({ credentials, params: drafts, staticData })).result).toBeNull();
		serveDrafts([
			{ id: 'd2', text: 'new', created_at: 1795163460 },
			{ id: 'd1', body: 'no time', made: 'today' },
			{ id: 'd0', text: 'old', created_at: 1795163400 },
		]);
		const { items, logs } = await poll({ credentials, params: drafts, staticData });
		expect(items.map((i) => i.id)).toEqual(['d2']);
		expect(logs).toEqual([{ level: 'warn', message: expect.stringMatching(/1 of 3 drafts returned by GET \/drafts has no/) }]);
	});
});

describe('Credits Low', () => {
	const low = { event: 'creditsLow', threshold: 10 };
	const serveCredits = (body: Record<string, unknown>) => nock(ORIGIN).get('/api/v1/credits').query(true).reply(200, body);
	const unknown = { amount_left: 4, history: [] };

	test('first poll and Fetch Test Event: a balance under no name the reader knows is an error naming the field and what the answer carries', async () => {
		serveCredits(unknown);
		const staticData: IDataObject = {};
		const error = await failure(poll({ credentials, params: low, staticData }));
		expect(error.message).toMatch(/^The credit balance returned by GET \/credits has no balance \(looked for "balance" \(also credits, remaining/);
		expect(error.description).toMatch(/The answer has the fields: amount_left\./);
		expect(staticData).toEqual({});
		serveCredits(unknown);
		expect((await failure(poll({ credentials, params: low, staticData: {}, mode: 'manual' }))).message).toMatch(/has no balance/);
	});

	test('later polls warn; a balance the reader knows fires', async () => {
		const staticData: IDataObject = {};
		serveCredits({ data: { credits_remaining: 40, transactions: [] } });
		expect((await poll({ credentials, params: low, staticData })).result).toBeNull();
		serveCredits(unknown);
		const warned = await poll({ credentials, params: low, staticData });
		expect(warned.logs).toEqual([{ level: 'warn', message: expect.stringMatching(/^Post Writer Trigger: The credit balance returned by GET \/credits has no balance/) }]);
		serveCredits({ data: { credits_remaining: 4, transactions: [] } });
		const { items, logs } = await poll({ credentials, params: low, staticData });
		expect(logs).toEqual([]);
		expect(items).toEqual([expect.objectContaining({ balance: 4, threshold: 10, below: true })]);
	});
});
