/**
 * No silent misses in Post Writer Trigger: records without an id or a time
 * (under any of the names the readers know) are an error on the first poll
 * and in Fetch Test Event, naming the field looked for, and a warning on
 * later polls, which fire the records they can read. The state never moves
 * on the error.
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
