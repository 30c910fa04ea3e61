/**
 * The exact request of every operation: method, path, query, headers, body.
 * Expectations are written out by hand from the spec, not derived from the catalogue.
 */
import nock from 'nock';
import type { OperationKey } from '../../../shared/catalogue';
import { OPERATION_KEYS, getOperation, validateInput } from '../../../shared/catalogue';
import { buildRequest, describeRequest } from '../../../shared/client';
import { BASE, TEST_KEY, nockClient } from '../../helpers/fake';

const FUTURE = '2099-01-02T03:04:05.000Z';

interface Case {
	call: (c: ReturnType<typeof nockClient>['client']) => Promise<unknown>;
	method: 'GET' | 'POST';
	path: string;
	query?: Record<string, string>;
	body?: Record<string, unknown>;
	reply: unknown;
}

const cases: Record<string, Case> = {
	generatePost: {
		call: (c) => c.generatePost({ prompt: 'Four-day week', numProposals: 3, saveDraft: true, scheduledAt: '2099-01-02T04:04:05+01:00' }),
		method: 'POST',
		path: '/generate',
		body: { prompt: 'Four-day week', numProposals: 3, saveDraft: true, scheduledAt: FUTURE },
		reply: { proposals: ['a', 'b', 'c'], draftId: 'd1', creditsRemaining: 9 },
	},
	analyzePost: { call: (c) => c.analyzePost({ text: 'Hello' }), method: 'POST', path: '/analyze', body: { text: 'Hello' }, reply: { rules: [], tactics: [] } },
	rewritePost: {
		call: (c) => c.rewritePost({ text: 'Hello', instruction: 'Make it shorter' }),
		method: 'POST',
		path: '/rewrite',
		body: { text: 'Hello', instruction: 'Make it shorter' },
		reply: { text: 'Hi' },
	},
	predictVirality: { call: (c) => c.predictVirality({ text: 'Hello' }), method: 'POST', path: '/virality', body: { text: 'Hello' }, reply: { score: 50 } },
	listDrafts: { call: (c) => c.listDrafts({}, { limit: 5 }), method: 'GET', path: '/drafts', query: { limit: '5' }, reply: { data: [] } },
	createDraft: {
		call: (c) => c.createDraft({ text: 'Draft body', scheduledAt: FUTURE }),
		method: 'POST',
		path: '/drafts',
		body: { text: 'Draft body', scheduledAt: FUTURE },
		reply: { id: 'd1', text: 'Draft body' },
	},
	listPosts: { call: (c) => c.listPosts({}, { limit: 2 }), method: 'GET', path: '/posts', query: { limit: '2' }, reply: [] },
	getCalendar: {
		call: (c) => c.getCalendar({ from: '2026-11-30', to: '2026-12-01' }),
		method: 'GET',
		path: '/calendar',
		query: { from: '2026-11-30', to: '2026-12-01' },
		reply: { entries: [] },
	},
	searchInspirations: {
		call: (c) => c.searchInspirations({ search: 'remote work', minLikes: 100, format: 'carousel' }, { limit: 10 }),
		method: 'GET',
		path: '/inspirations',
		query: { search: 'remote work', minLikes: '100', format: 'carousel', limit: '10' },
		reply: { inspirations: [] },
	},
	getAccountProfile: { call: (c) => c.getAccountProfile({}), method: 'GET', path: '/account/profile', reply: { name: 'A' } },
	getCredits: { call: (c) => c.getCredits({}), method: 'GET', path: '/credits', reply: { balance: 3, history: [] } },
	listWritingProfiles: {
		call: (c) => c.listWritingProfiles({}, { limit: 100 }),
		method: 'GET',
		path: '/writing-profiles',
		query: { limit: '100' },
		reply: { writingProfiles: [] },
	},
	activateWritingProfile: {
		call: (c) => c.activateWritingProfile({ id: 'wp 1/x' }),
		method: 'POST',
		path: '/writing-profiles/wp%201%2Fx/activate',
		body: {},
		reply: { id: 'wp 1/x', active: true },
	},
	startPostCreation: {
		call: (c) => c.startPostCreation({ topic: 'Hiring', context: 'We hired 3', preferences: 'no emoji', language: 'en' }),
		method: 'POST',
		path: '/creation/ideas',
		body: { topic: 'Hiring', context: 'We hired 3', preferences: 'no emoji', language: 'en' },
		reply: { workflowId: 'wf1', ideas: [{ id: 'i1' }] },
	},
	preparePost: {
		call: (c) => c.preparePost({ workflowId: 'wf1', ideaId: 'i1' }),
		method: 'POST',
		path: '/creation/prepare',
		body: { workflowId: 'wf1', ideaId: 'i1' },
		reply: { questions: [] },
	},
	writePost: {
		call: (c) => c.writePost({ workflowId: 'wf1', answers: [{ questionId: 'q1', answer: 'Yes' }] }),
		method: 'POST',
		path: '/creation/write',
		body: { workflowId: 'wf1', answers: [{ questionId: 'q1', answer: 'Yes' }] },
		reply: { text: 'T' },
	},
	validatePost: {
		call: (c) => c.validatePost({ workflowId: 'wf1' }),
		method: 'POST',
		path: '/creation/validate',
		body: { workflowId: 'wf1' },
		reply: { ready: true, verdict: {} },
	},
	refinePost: {
		call: (c) => c.refinePost({ workflowId: 'wf1', instruction: 'Make it punchier' }),
		method: 'POST',
		path: '/creation/refine',
		body: { workflowId: 'wf1', instruction: 'Make it punchier' },
		reply: { text: 'T2' },
	},
};

afterEach(() => nock.cleanAll());

test('every catalogue operation has a request case', () => {
	expect(Object.keys(cases).sort()).toEqual([...OPERATION_KEYS].sort());
});

/** Records the operation and input a case calls, without sending anything. */
type Seen = { key: OperationKey; input: Record<string, unknown>; options?: { limit?: number; pageSize?: number } };
async function recorded(c: Case): Promise<Seen> {
	let seen: Seen | undefined;
	const recorder = new Proxy({}, { get: (_t, key) => async (input: Record<string, unknown> = {}, options?: Seen['options']) => void (seen = { key: key as OperationKey, input, options }) });
	await c.call(recorder as ReturnType<typeof nockClient>['client']);
	if (!seen) throw new Error('the case called no operation');
	return seen;
}

describe.each(Object.entries(cases))('%s', (name, c) => {
	test('the pure builder: (operation, input) → {method, path, query, body}, by plain equality', async () => {
		const { key, input, options } = await recorded(c);
		expect(key).toBe(name);
		const clean = validateInput(key, input, Date.parse('2026-11-23T00:00:00Z'));
		// A list asks for its first page as the client does: `limit` = the page size.
		const paging = getOperation(key).list ? { limit: options?.pageSize ?? Math.min(100, options?.limit ?? 10_000) } : {};
		expect(describeRequest(key, clean, paging)).toEqual(c.method === 'POST' ? { method: 'POST', path: c.path, query: c.query ?? {}, body: c.body } : { method: 'GET', path: c.path, query: c.query ?? {} });
		// The HTTP form of the same description.
		const http = buildRequest(key, clean, BASE, paging);
		expect(http.method).toBe(c.method);
		expect(new URL(http.url).pathname).toBe(`/api/v1${c.path}`);
		expect(Object.fromEntries(new URL(http.url).searchParams)).toEqual(c.query ?? {});
		expect(http.body).toEqual(c.method === 'POST' ? c.body : undefined);
	});

	test('sends the exact request', async () => {
		const seen: { headers?: Record<string, unknown>; body?: unknown; query?: unknown } = {};
		const scope = nock('https://api.test.example', { reqheaders: { authorization: `Bearer ${TEST_KEY}`, accept: 'application/json' } })
			.intercept(`/api/v1${c.path}`, c.method)
			.query((q) => {
				seen.query = q;
				return true;
			})
			.reply(function (_uri, body) {
				seen.headers = this.req.headers;
				seen.body = body;
				return [200, JSON.stringify(c.reply), { 'Content-Type': 'application/json' }];
			});
		const { client } = nockClient();
		await c.call(client);
		expect(scope.isDone()).toBe(true);
		expect(seen.query).toEqual(c.query ?? {});
		if (c.method === 'POST') {
			expect(seen.headers?.['content-type']).toBe('application/json');
			expect(seen.body).toEqual(c.body);
		} else {
			expect(seen.body === '' || seen.body === undefined).toBe(true);
		}
	});
});

test('extra query parameters (pagination) follow the fields', () => {
	expect(describeRequest('listPosts', {}, { limit: 100, cursor: 'c2', offset: undefined })).toEqual({
		method: 'GET',
		path: '/posts',
		query: { limit: '100', cursor: 'c2' },
	});
	expect(describeRequest('activateWritingProfile', { id: 'wp a/b' })).toEqual({ method: 'POST', path: '/writing-profiles/wp%20a%2Fb/activate', query: {}, body: {} });
});

test('base URL without a version segment is completed', async () => {
	const scope = nock('https://api.test.example').get('/api/v1/credits').reply(200, { balance: 1 });
	const { client } = nockClient({ baseUrl: 'https://api.test.example/' });
	expect(client.baseUrl).toBe(BASE);
	await client.getCredits({});
	expect(scope.isDone()).toBe(true);
});
