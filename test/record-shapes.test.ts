/**
 * Every record kind in three shapes (test/helpers/record-shapes.ts): through
 * its reader, then served by a fake service (nock) through one n8n operation
 * and one Zapier operation. Each must give the same labelled fields whatever
 * the shape, and keep the field the package does not know.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { RECORD_READERS } from '../shared/records';
import type { RecordKind } from '../shared/records';
import { simplifyPost } from '../n8n/nodes/PostWriter/actions/post/getMany.execute';
import { RECORD_CASES, SCHEDULED, SHAPES } from './helpers/record-shapes';
import type { Shape } from './helpers/record-shapes';
import { runNode } from './n8n/helpers/context';
import { ONLY_DATE, bundle, run, runAuthTest } from './zapier/helpers';

type Obj = Record<string, unknown>;

const ORIGIN = 'https://api.test.example';
const BASE = `${ORIGIN}/api/v1`;
const credentials = { apiKey: 'pw_live_RECORDSHAPES0123456789abcdef0123', baseUrl: BASE };
const zapier = (inputData: Obj = {}, meta: Obj = {}) => bundle(inputData, meta, credentials);

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.useRealTimers();
});
afterAll(() => nock.enableNetConnect());

const snakeKey = (k: string) => k.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** A list answer as each shape's service wraps it. */
function list(record: Obj, shape: Shape): unknown {
	if (shape === 'native') return { data: [record], nextCursor: null };
	if (shape === 'snake') return { data: [record], next_cursor: null };
	if (shape === 'social') return { data: [record], meta: { result_count: 1 } };
	return { items: [record] };
}

/** A single answer as each shape's service wraps it: keys of the envelope in snake_case, or the whole under `data`. */
function envelope(body: Obj, shape: Shape): unknown {
	if (shape === 'snake' || shape === 'social') return Object.fromEntries(Object.entries(body).map(([k, v]) => [snakeKey(k), v]));
	if (shape === 'nested') return { data: body };
	return body;
}

interface PlatformCase {
	method: 'get' | 'post';
	path: string;
	body: (record: Obj, shape: Shape) => unknown;
	n8n: { params: IDataObject; pick: (json: IDataObject) => unknown };
	zapier: { kind: 'triggers' | 'creates' | 'searches' | 'auth'; key: string; input?: Obj; meta?: Obj; now?: number; pick: (out: any) => unknown };
	/** What the platform shows, when it is not the record's labelled fields themselves. */
	expected?: Obj;
}

const self = (json: IDataObject) => json;
const first = (out: any) => out[0];

const PLATFORM: Record<RecordKind, PlatformCase> = {
	post: {
		method: 'get',
		path: '/posts',
		body: list,
		n8n: { params: { resource: 'post', operation: 'getMany', simplify: false }, pick: self },
		zapier: { kind: 'triggers', key: 'newPublishedPost', pick: first },
	},
	draft: {
		method: 'post',
		path: '/drafts',
		body: (r) => r,
		n8n: { params: { resource: 'draft', operation: 'create', text: 'Three lessons.' }, pick: self },
		zapier: { kind: 'creates', key: 'createDraft', input: { text: 'Three lessons.' }, pick: (out) => out },
	},
	writingProfile: {
		method: 'get',
		path: '/writing-profiles',
		body: list,
		n8n: { params: { resource: 'writingProfile', operation: 'getMany' }, pick: self },
		zapier: { kind: 'searches', key: 'listWritingProfiles', input: { name: 'founder' }, pick: first },
	},
	inspiration: {
		method: 'get',
		path: '/inspirations',
		body: list,
		n8n: { params: { resource: 'inspiration', operation: 'search' }, pick: self },
		zapier: { kind: 'searches', key: 'searchInspirations', pick: first },
	},
	accountProfile: {
		method: 'get',
		path: '/account/profile',
		body: (r) => r,
		n8n: { params: { resource: 'account', operation: 'getProfile' }, pick: self },
		// Zapier reads the profile in the connection test (there is no Find Account Profile: a search needs a search field).
		zapier: { kind: 'auth', key: 'test', pick: (out) => out },
	},
	credits: {
		method: 'get',
		path: '/credits',
		body: (r) => r,
		n8n: { params: { resource: 'account', operation: 'getCredits' }, pick: self },
		zapier: { kind: 'searches', key: 'getCredits', pick: first },
	},
	creditTransaction: {
		method: 'get',
		path: '/credits',
		body: (r, shape) => envelope({ balance: 40, history: [r] }, shape),
		n8n: { params: { resource: 'account', operation: 'getCredits' }, pick: (json) => (json.history as IDataObject[])[0] },
		zapier: { kind: 'searches', key: 'getCredits', pick: (out) => out[0].history[0] },
	},
	calendarEntry: {
		method: 'get',
		path: '/calendar',
		body: (r, shape) => envelope({ from: '2026-11-24', to: '2026-11-24', entries: [r] }, shape),
		n8n: { params: { resource: 'calendar', operation: 'get', from: '2026-11-24', to: '2026-11-24' }, pick: (json) => (json.entries as IDataObject[])[0] },
		// Upcoming Scheduled Draft, 30 minutes before the entry, with an hour's notice.
		zapier: {
			kind: 'triggers',
			key: 'upcomingScheduledDraft',
			input: { notifyBefore: 1, notifyBeforeUnit: 'hours' },
			now: Date.parse(SCHEDULED) - 30 * 60_000,
			pick: first,
		},
	},
	idea: {
		method: 'post',
		path: '/creation/ideas',
		body: (r, shape) => envelope({ workflowId: 'wf_1', ideas: [r] }, shape),
		n8n: { params: { resource: 'creation', operation: 'start', topic: 'Meetings' }, pick: (json) => (json.ideas as IDataObject[])[0] },
		zapier: { kind: 'creates', key: 'startPostCreation', input: { topic: 'Meetings' }, pick: (out) => out.ideas[0] },
	},
	question: {
		method: 'post',
		path: '/creation/prepare',
		body: (r, shape) => envelope({ workflowId: 'wf_1', questions: [r] }, shape),
		n8n: { params: { resource: 'creation', operation: 'prepare', workflowId: 'wf_1', ideaId: 'idea_1' }, pick: (json) => (json.questions as IDataObject[])[0] },
		zapier: { kind: 'creates', key: 'preparePost', input: { workflowId: 'wf_1', ideaId: 'idea_1' }, pick: (out) => out.questions[0] },
	},
	verdict: {
		method: 'post',
		path: '/creation/validate',
		body: (r, shape) => envelope({ workflowId: 'wf_1', verdict: r }, shape),
		n8n: { params: { resource: 'creation', operation: 'validate', workflowId: 'wf_1' }, pick: (json) => json.verdict },
		zapier: { kind: 'creates', key: 'validatePost', input: { workflowId: 'wf_1' }, pick: (out) => out.verdict },
	},
};

function serve(c: PlatformCase, record: Obj, shape: Shape): nock.Scope {
	const scope = nock(ORIGIN);
	const path = `/api/v1${c.path}`;
	const interceptor = c.method === 'get' ? scope.get(path).query(true) : scope.post(path);
	return interceptor.reply(c.method === 'post' && c.path === '/drafts' ? 201 : 200, c.body(record, shape) as nock.Body);
}

test('the table covers every reader', () => {
	expect(RECORD_CASES.map((c) => c.kind).sort()).toEqual(Object.keys(RECORD_READERS).sort());
	expect(Object.keys(PLATFORM).sort()).toEqual(Object.keys(RECORD_READERS).sort());
});

describe.each(RECORD_CASES)('$kind', ({ kind, shapes, labelled }) => {
	const read = RECORD_READERS[kind];

	test.each(SHAPES)('the reader: %s shape → the labelled fields, the unknown field kept, idempotent', (shape) => {
		const out = read(shapes[shape]);
		expect(out).toMatchObject(labelled);
		expect(out.x_custom).toBe(1);
		expect(read(out)).toEqual(out);
	});

	test.each(SHAPES)('one n8n operation: %s shape', async (shape) => {
		const c = PLATFORM[kind];
		serve(c, shapes[shape], shape);
		const { output } = await runNode({ credentials, params: c.n8n.params });
		expect(nock.pendingMocks()).toEqual([]);
		const json = c.n8n.pick(output[0].json) as Obj;
		expect(json).toMatchObject(labelled);
		expect(json.x_custom).toBe(1);
	});

	test.each(SHAPES)('one Zapier operation: %s shape', async (shape) => {
		const c = PLATFORM[kind];
		if (c.zapier.now !== undefined) jest.useFakeTimers({ doNotFake: ONLY_DATE, now: c.zapier.now });
		serve(c, shapes[shape], shape);
		const b = zapier(c.zapier.input, c.zapier.meta);
		const out = c.zapier.kind === 'auth' ? await runAuthTest(b) : await run(c.zapier.kind, c.zapier.key, b);
		expect(nock.pendingMocks()).toEqual([]);
		const picked = c.zapier.pick(out) as Obj;
		if (kind === 'calendarEntry') {
			// The trigger gives the draft and its time, from the entry's labelled fields.
			expect(picked).toMatchObject({ id: `drf_1:${SCHEDULED}`, draftId: labelled.draftId, text: labelled.text, scheduledAt: labelled.date });
		} else {
			expect(picked).toMatchObject(labelled);
			expect(picked.x_custom).toBe(1);
		}
	});
});

describe('what the second server showed', () => {
	const profile = { user: { id: 'usr_9', email: 'dana@example.com', fullName: 'Dana Ortiz' }, credits: { balance: 7, renewsAt: 1795163400 } };

	test.each(SHAPES)('the Zapier connection label uses the name and email wherever they are (%s shape)', async (shape) => {
		const c = RECORD_CASES.find((r) => r.kind === 'accountProfile')!;
		nock(ORIGIN).get('/api/v1/account/profile').reply(200, c.shapes[shape]);
		expect((await runAuthTest(zapier())).connectionLabel).toBe('Dana Ortiz (dana@example.com)');
	});

	test('an account profile under `user`, credits as an object: id, name, email and balance are filled, the credits object kept', async () => {
		nock(ORIGIN).get('/api/v1/account/profile').reply(200, profile);
		const result = await runAuthTest(zapier());
		expect(result).toMatchObject({ id: 'usr_9', name: 'Dana Ortiz', email: 'dana@example.com', credits: 7, connectionLabel: 'Dana Ortiz (dana@example.com)' });
		expect(result.creditsDetails).toEqual({ balance: 7, renewsAt: 1795163400 });
		nock(ORIGIN).get('/api/v1/account/profile').reply(200, profile);
		const { output } = await runNode({ credentials, params: { resource: 'account', operation: 'getProfile' } });
		expect(output[0].json).toMatchObject({ id: 'usr_9', name: 'Dana Ortiz', email: 'dana@example.com', credits: 7 });
	});

	test('n8n Simplify keeps every metric the service sent, whatever its name; the raw output keeps everything', async () => {
		const post = { id: 'p1', text: 'x', published_at: 1795163400, stats: { like_count: 3, reposts: 2, saves: 5 }, click_count: 9, author: { id: 'a' } };
		expect(simplifyPost(post)).toEqual({
			id: 'p1',
			text: 'x',
			publishedAt: '2026-11-20T08:30:00.000Z',
			likes: 3,
			comments: null,
			shares: 2,
			impressions: null,
			saves: 5,
			click_count: 9,
		});
		nock(ORIGIN).get('/api/v1/posts').query(true).times(2).reply(200, { data: [post] });
		const simple = await runNode({ credentials, params: { resource: 'post', operation: 'getMany' } });
		expect(simple.output[0].json).toMatchObject({ shares: 2, saves: 5, click_count: 9 });
		const raw = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', simplify: false } });
		expect(raw.output[0].json).toEqual({
			id: 'p1',
			text: 'x',
			publishedAt: '2026-11-20T08:30:00.000Z',
			metrics: { likes: 3, shares: 2, saves: 5 },
			click_count: 9,
			author: { id: 'a' },
		});
	});

	test('metrics in any object of numbers, under any spelling and synonym: the labelled ones filled, Simplify keeps the others', async () => {
		const social = {
			id: 'tw1',
			text: 'x',
			created_at: '2026-11-20T08:30:00Z',
			public_metrics: { retweet_count: 3, reply_count: 1, like_count: 120, quote_count: 0, impression_count: 900 },
		};
		expect(RECORD_READERS.post(social)).toMatchObject({ metrics: { likes: 120, comments: 1, shares: 3, impressions: 900, quote_count: 0 } });
		expect(RECORD_READERS.post({ id: 'p', insights: { num_likes: 4, total_replies: 2, repostsCount: 1, viewCount: 8 } })).toMatchObject({
			metrics: { likes: 4, comments: 2, shares: 1, impressions: 8 },
		});
		// An object of numbers with no metric in it (an author) is not one.
		expect(RECORD_READERS.post({ id: 'p', author: { id: 5, followers: 100 }, likeCount: 3 })).toEqual({ id: 'p', metrics: { likes: 3 }, author: { id: 5, followers: 100 } });
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: [social] });
		const simple = await runNode({ credentials, params: { resource: 'post', operation: 'getMany' } });
		expect(simple.output[0].json).toEqual({ id: 'tw1', text: 'x', publishedAt: '2026-11-20T08:30:00.000Z', likes: 120, comments: 1, shares: 3, impressions: 900, quote_count: 0 });
		expect(simple.hints).toEqual([]);
	});

	test('Get Many says which labelled metrics no post carries, the names tried and the fields the posts have', async () => {
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(200, { data: [{ id: 'p1', publishedAt: '2026-11-20T08:30:00Z', counters: { favs: 3 }, likes: 2 }] });
		const { output, hints } = await runNode({ credentials, params: { resource: 'post', operation: 'getMany' } });
		expect(output[0].json).toMatchObject({ likes: 2, comments: null, shares: null, impressions: null });
		expect(hints).toEqual([
			{
				location: 'outputPane',
				message: expect.stringMatching(
					/^Item 1: The post read has no comments, shares, impressions under any name the reader knows \(looked for comments \(comment_count, .*, in any object of numbers on the post\), so they come out null\. The first one has the fields: id, publishedAt, metrics\.likes, counters\.favs;/,
				),
			},
		]);
	});

	test('a value that had to be read differently is kept beside the labelled one', () => {
		// A `publishedAt` in words, a synonym that can be read: both are kept.
		expect(RECORD_READERS.post({ id: 'p', publishedAt: 'yesterday', published_on: 1795163400 })).toEqual({
			id: 'p',
			publishedAt: '2026-11-20T08:30:00.000Z',
			publishedAtOriginal: 'yesterday',
		});
		// A nested record whose id clashes with its parent's stays where it was; the parent's fields are read first.
		expect(RECORD_READERS.draft({ id: 'd1', data: { id: 'other', body: 'text' } })).toEqual({ id: 'd1', text: 'text', data: { id: 'other', body: 'text' } });
	});
});
