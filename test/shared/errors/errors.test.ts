import nock from 'nock';
import {
	AuthenticationError,
	ClientError,
	InsufficientCreditsError,
	MalformedResponseError,
	MissingScopeError,
	NetworkError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	WorkflowBusyError,
	WorkflowStateError,
	extractErrorInfo,
	redact,
} from '../../../shared/errors';
import { parseRetryDelay } from '../../../shared/client';
import { TEST_KEY, caught, nockClient } from '../../helpers/fake';

const HOST = 'https://api.test.example';
const noRetry = { retry: { maxAttempts: 1, maxQuotaWaitMs: 0 } };
afterEach(() => nock.cleanAll());

function expectNoKey(e: unknown) {
	const err = e as Error & Record<string, unknown>;
	const all = `${err.message} ${JSON.stringify(err)} ${String(err.stack)} ${String(err.hint ?? '')}`;
	expect(all).not.toContain(TEST_KEY);
}

describe('401: the four messages, verbatim', () => {
	test.each([
		['Missing or invalid Authorization header', 'missing', false],
		['Invalid API key', 'invalid', false],
		['API key has been revoked', 'revoked', true],
		['API key has expired', 'expired', true],
	])('%s', async (message, reason, replace) => {
		nock(HOST).get('/api/v1/credits').reply(401, { error: { code: 'UNAUTHORIZED', message } });
		const { client } = nockClient();
		const e = await caught(client.getCredits({}));
		expect(e).toBeInstanceOf(AuthenticationError);
		expect(e.reason).toBe(reason);
		expect(e.status).toBe(401);
		expect(e.message.startsWith(message)).toBe(true);
		expect(e.message.includes('Settings › API keys')).toBe(true);
		if (replace) expect(e.message).toMatch(/Create a new key/);
		expectNoKey(e);
	});
});

test('403 names the scope parsed from the message', async () => {
	nock(HOST).post('/api/v1/writing-profiles/wp1/activate').reply(403, { message: 'Missing required scope: account:write' });
	const { client } = nockClient();
	const e = await caught(client.activateWritingProfile({ id: 'wp1' }));
	expect(e).toBeInstanceOf(MissingScopeError);
	expect(e.scope).toBe('account:write');
	expect(e.message).toContain('"account:write"');
});

describe('429: the delay from every header form', () => {
	const now = Date.parse('2026-11-21T10:00:00Z');
	test.each([
		['Retry-After seconds', { 'Retry-After': '7' }, 7000],
		['Retry-After HTTP date', { 'Retry-After': 'Sat, 21 Nov 2026 10:00:12 GMT' }, 12000],
		['X-RateLimit-Reset epoch seconds', { 'X-RateLimit-Reset': String(now / 1000 + 5) }, 5000],
		['X-RateLimit-Reset epoch ms', { 'X-RateLimit-Reset': String(now + 3000) }, 3000],
		['X-RateLimit-Reset delta seconds', { 'X-RateLimit-Reset': '4' }, 4000],
		['no header', {}, undefined],
	])('%s', async (_n, headers, expected) => {
		nock(HOST).get('/api/v1/credits').reply(429, 'Too Many Requests', headers as Record<string, string>);
		const { client } = nockClient({ now: () => now });
		const e = await caught(client.getCredits({}, noRetry));
		expect(e).toBeInstanceOf(RateLimitedError);
		expect(e.retryAfterMs).toBe(expected);
		expect(e.safeToRetry).toBe(true);
	});
	test('parseRetryDelay never goes negative for a past date', () => {
		expect(parseRetryDelay({ 'retry-after': 'Sat, 21 Nov 2026 09:00:00 GMT' }, now)).toBe(0);
	});
});

describe('WORKFLOW_BUSY is recognised by its code at any status', () => {
	test.each([
		[409, { error: { code: 'WORKFLOW_BUSY', message: 'busy' } }],
		[423, { error: 'WORKFLOW_BUSY' }],
		[503, { code: 'WORKFLOW_BUSY', message: 'Another operation is running' }],
		[200, { error: 'WORKFLOW_BUSY' }],
		[400, 'WORKFLOW_BUSY'],
	])('status %s', async (status, body) => {
		nock(HOST).post('/api/v1/creation/validate').reply(status, typeof body === 'string' ? body : JSON.stringify(body));
		const { client } = nockClient();
		const e = await caught(client.validatePost({ workflowId: 'wf1' }, noRetry));
		expect(e).toBeInstanceOf(WorkflowBusyError);
		expect(e.code).toBe('WORKFLOW_BUSY');
	});
});

test('a creation call out of sequence keeps the server message', async () => {
	const message = 'Cannot write yet: choose an idea first with POST /creation/prepare (workflowId, ideaId).';
	nock(HOST).post('/api/v1/creation/write').reply(409, { error: { code: 'WORKFLOW_OUT_OF_SEQUENCE', message } });
	const { client } = nockClient();
	const e = await caught(client.writePost({ workflowId: 'wf', answers: [{ questionId: 'q', answer: 'a' }] }));
	expect(e).toBeInstanceOf(WorkflowStateError);
	expect(e.message).toBe(message);
	expect(e.code).toBe('WORKFLOW_OUT_OF_SEQUENCE');
});

test('402 maps to InsufficientCreditsError', async () => {
	nock(HOST).post('/api/v1/generate').reply(402, { error: 'Not enough credits', code: 'INSUFFICIENT_CREDITS' });
	const { client } = nockClient();
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(InsufficientCreditsError);
	expect(e.message).toMatch(/Not enough credits\. Add credits/);
});

test('other 4xx keep the server message', async () => {
	nock(HOST).post('/api/v1/drafts').reply(422, { message: 'text is too long' });
	const { client } = nockClient();
	const e = await caught(client.createDraft({ text: 'x' }));
	expect(e).toBeInstanceOf(ClientError);
	expect(e.status).toBe(422);
	expect(e.message).toContain('text is too long');
});

test('5xx on a paid call says it was not retried', async () => {
	nock(HOST).post('/api/v1/generate').reply(502, { error: { code: 'BAD_GATEWAY', message: 'upstream down' } });
	const { client } = nockClient();
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(ServerError);
	expect(e.message).toMatch(/not retried/);
});

test('an HTML error page is summarised without tags', async () => {
	nock(HOST).get('/api/v1/posts').query(true).times(6).reply(503, '<html><head><title>x</title></head><body><h1>503 Service Unavailable</h1></body></html>', { 'Content-Type': 'text/html' });
	const { client } = nockClient();
	const e = await caught(client.listPosts({}));
	expect(e).toBeInstanceOf(ServerError);
	expect(e.message).toMatch(/HTML page/);
	expect(e.snippet).toContain('503 Service Unavailable');
	expect(e.snippet).not.toContain('<h1>');
});

test('a malformed 200 body gives the status and a snippet', async () => {
	nock(HOST).post('/api/v1/generate').reply(200, '{"proposals": [', { 'Content-Type': 'application/json' });
	const { client } = nockClient();
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(MalformedResponseError);
	expect(e.status).toBe(200);
	expect(e.message).toContain('{"proposals": [');
});

test('a 200 whose body carries an error is an error', async () => {
	nock(HOST).get('/api/v1/credits').reply(200, { success: false, error: { code: 'INTERNAL', message: 'ledger unavailable' } });
	const { client } = nockClient();
	const e = await caught(client.getCredits({}, noRetry));
	expect(e.message).toContain('ledger unavailable');
});

// nock 14's replyWithError hangs on Node 20, so transport failures are injected with a fake `send`;
// real resets from a socket are covered against the sandbox in test/integration.
const failingSend = (code: string, message: string) => async () => {
	throw Object.assign(new Error(message), { code });
};

test('a connection reset is a NetworkError, ambiguous', async () => {
	const { client } = nockClient({ send: failingSend('ECONNRESET', 'socket hang up') });
	const e = await caught(client.analyzePost({ text: 'x' }));
	expect(e).toBeInstanceOf(NetworkError);
	expect(e.ambiguous).toBe(true);
	expect(e.message).toMatch(/not retried/);
});

test('a timeout is a TimeoutError', async () => {
	nock(HOST).post('/api/v1/rewrite').delay(300).reply(200, { text: 'late' });
	const { client } = nockClient({ timeoutMs: 50 });
	const e = await caught(client.rewritePost({ text: 'x', instruction: 'y' }));
	expect(e).toBeInstanceOf(TimeoutError);
	expect(e.kind).toBe('timeout');
});

describe('error body variants', () => {
	test.each([
		[{ error: 'Plain message' }, undefined, 'Plain message'],
		[{ message: 'Msg only' }, undefined, 'Msg only'],
		[{ error: { code: 'C1', message: 'Nested' } }, 'C1', 'Nested'],
		[{ error: 'SOME_CODE', message: 'Human text' }, 'SOME_CODE', 'Human text'],
		[{ errors: [{ message: 'First of many', code: 'E' }] }, 'E', 'First of many'],
		['plain text body', undefined, 'plain text body'],
	])('%j', (body, code, message) => {
		expect(extractErrorInfo(body)).toEqual({ code, message });
	});
});

test('the API key never appears, even when the server echoes it', async () => {
	nock(HOST).get('/api/v1/credits').reply(400, { error: `Bad key ${TEST_KEY} in header Authorization: Bearer ${TEST_KEY}` });
	const { client } = nockClient();
	const e = await caught(client.getCredits({}));
	expectNoKey(e);
	expect(e.message).toContain('[redacted]');
});

test('a key of any shape is redacted by the client that holds it, with no process-wide registry', async () => {
	const custom = 'custom-secret-0001-not-in-the-spec-format';
	// The module keeps no state: without the secret, redact cannot know it.
	expect(redact(`a ${custom} b`)).toBe(`a ${custom} b`);
	expect(redact(`a ${custom} b`, [custom])).toBe('a [redacted] b');
	nock(HOST).get('/api/v1/credits').reply(400, { error: `Bad key ${custom}` });
	const { client } = nockClient({ apiKey: custom });
	const e = await caught(client.getCredits({}));
	expect(`${e.message} ${JSON.stringify(e)} ${e.serverMessage} ${e.snippet}`).not.toContain(custom);
	expect(e.message).toContain('[redacted]');
	// Another client, made later with another key, does not make the first one's key redactable elsewhere.
	nockClient({ apiKey: 'another-custom-secret-0002' });
	expect(redact(`a ${custom} b`)).toBe(`a ${custom} b`);
});
