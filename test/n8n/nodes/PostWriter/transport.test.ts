/**
 * The node's transport and waits, with nock: WORKFLOW_BUSY and 429 waited out
 * with n8n's sleep, a reset on a paid call never resent, what the adapter
 * hands to n8n's request helper.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { createSend } from '../../../../n8n/nodes/PostWriter/transport';
import { BRAND } from '../../../../shared/base';
import { runNode, runNodeError } from '../../helpers/context';

const sleeps: number[] = [];
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async (ms: number) => {
		sleeps.push(ms);
	}),
}));

const HOST = 'https://api.test.example';
const credentials = { apiKey: 'pw_live_TESTKEY0123456789abcdef', baseUrl: `${HOST}/api/v1` };

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
beforeEach(() => {
	sleeps.length = 0;
});
afterEach(() => {
	nock.cleanAll();
});

test('the adapter asks n8n for the full raw response, never throwing on a status, with the credential by name', async () => {
	const calls: Array<[string, IHttpRequestOptions]> = [];
	const ctx = {
		helpers: {
			httpRequestWithAuthentication: async (name: string, options: IHttpRequestOptions) => {
				calls.push([name, options]);
				return { body: '{"error":"nope"}', headers: { 'retry-after': '2' }, statusCode: 429 };
			},
		},
	};
	const send = createSend(ctx as never);
	const response = await send({ method: 'POST', url: `${HOST}/api/v1/generate`, headers: { Accept: 'application/json' }, body: { prompt: 'x' }, timeoutMs: 1234 });
	expect(response).toEqual({ status: 429, headers: { 'retry-after': '2' }, body: '{"error":"nope"}' });
	expect(calls[0][0]).toBe(BRAND.n8nCredentialName);
	expect(calls[0][1]).toMatchObject({
		method: 'POST',
		url: `${HOST}/api/v1/generate`,
		body: '{"prompt":"x"}',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		json: false,
		timeout: 1234,
		headers: { Accept: 'application/json', 'User-Agent': BRAND.userAgent },
	});
	const get = await send({ method: 'GET', url: `${HOST}/api/v1/drafts`, headers: {} });
	expect(get.status).toBe(429);
	expect(calls[1][1]).not.toHaveProperty('body');
});

test('WORKFLOW_BUSY is waited out with n8n sleep, then the step goes on', async () => {
	const scope = nock(HOST)
		.post('/api/v1/creation/validate', { workflowId: 'wf_1' })
		.reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } }, { 'Retry-After': '2' })
		.post('/api/v1/creation/validate', { workflowId: 'wf_1' })
		.reply(200, { workflowId: 'wf_1', ready: true, verdict: { ready: true, score: 90 } });
	const { output } = await runNode({ credentials, items: [{ json: { workflowId: 'wf_1' } }], params: { resource: 'creation', operation: 'validate' } });
	expect(output[0].json).toMatchObject({ workflowId: 'wf_1', ready: true });
	expect(sleeps).toHaveLength(1);
	expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
	expect(scope.isDone()).toBe(true);
});

test('a 429 with an HTTP-date Retry-After on a paid call is waited out, once charged', async () => {
	const when = new Date(Date.now() + 4000).toUTCString();
	nock(HOST)
		.post('/api/v1/rewrite')
		.reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': when })
		.post('/api/v1/rewrite')
		.reply(200, { text: 'Shorter.', creditsRemaining: 7 });
	const { output } = await runNode({ credentials, params: { resource: 'post', operation: 'rewrite', text: 'Long text.', instruction: 'Make it shorter' } });
	expect(output[0].json).toMatchObject({ text: 'Shorter.', creditsRemaining: 7 });
	expect(sleeps).toHaveLength(1);
	expect(sleeps[0]).toBeGreaterThan(2000);
});

test('a connection reset on a paid call is not resent', async () => {
	const scope = nock(HOST).post('/api/v1/analyze').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
	const error = await runNodeError({ credentials, params: { resource: 'post', operation: 'analyze', text: 'x' } });
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.message).toBe('POST /analyze lost its connection (ECONNRESET)');
	expect(error.description).toMatch(/^It was not retried/);
	expect(sleeps).toEqual([]);
	expect(scope.isDone()).toBe(true);
});

test('a 5xx on a GET is retried with backoff, then succeeds', async () => {
	nock(HOST).get('/api/v1/credits').reply(503, 'Service Unavailable').get('/api/v1/credits').reply(200, { balance: 3, history: [] });
	const { output } = await runNode({ credentials, params: { resource: 'account', operation: 'getCredits' } });
	expect(output[0].json.balance).toBe(3);
	expect(sleeps).toHaveLength(1);
});
