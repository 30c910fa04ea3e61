/**
 * Error bodies in the forms a service may choose (the spec does not show
 * them): the sandbox's own, OAuth 2 (RFC 6749 §5.2: `error` a bare code,
 * `error_description` the human message) and problem details (RFC 9457:
 * `title`, `detail`). The 403 naming its scope and the four 401s (the spec's
 * messages: missing header, invalid, revoked, expired) keep their text and
 * their fix through the core client, the n8n node and the Zapier app.
 */
import nock from 'nock';

import { AuthenticationError, MissingScopeError, extractErrorInfo } from '../shared/errors';
import { caught, nockClient } from './helpers/fake';
import { runNodeError } from './n8n/helpers/context';
import { ORIGIN, bundle, details, rejection, run } from './zapier/helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

type Body = Record<string, unknown>;

/** Each form of body, from the code the sandbox gives, the HTTP status and the human message. */
const FORMS: Record<string, (code: string, status: number, message: string) => Body> = {
	sandbox: (code, _status, message) => ({ error: { code, message } }),
	'OAuth 2': (code, status, message) => ({ error: status === 401 ? 'invalid_token' : code, error_description: message }),
	'OAuth 2 with an upper-case code': (code, _status, message) => ({ error: code, error_description: message }),
	'problem details': (code, status, message) => ({
		type: `https://api.example.com/problems/${code.toLowerCase().replace(/_/g, '-')}`,
		title: status === 401 ? 'Unauthorized' : 'Forbidden',
		status,
		detail: message,
	}),
	'a list of errors': (code, _status, message) => ({ errors: [{ code, detail: message }] }),
};
const FORM_NAMES = Object.keys(FORMS);

const AUTH = [
	['Missing or invalid Authorization header', 'UNAUTHORIZED', 'missing'],
	['Invalid API key', 'INVALID_API_KEY', 'invalid'],
	['API key has been revoked', 'API_KEY_REVOKED', 'revoked'],
	['API key has expired', 'API_KEY_EXPIRED', 'expired'],
] as const;

const credentials = { apiKey: 'pw_live_ERRORBODIES0123456789abcdef0123', baseUrl: `${ORIGIN}/api/v1` };

describe.each(FORM_NAMES)('%s', (form) => {
	const body = FORMS[form];

	test.each(AUTH)('401 "%s": the core keeps the message, the reason and its fix', async (message, code, reason) => {
		nock(ORIGIN).get('/api/v1/credits').reply(401, body(code, 401, message));
		const e = await caught(nockClient().client.getCredits({}));
		expect(e).toBeInstanceOf(AuthenticationError);
		expect(e.reason).toBe(reason);
		expect(e.message.startsWith(`${message}. `)).toBe(true);
		expect(e.hint).toMatch(reason === 'revoked' || reason === 'expired' ? /^Create a new key in Post Writer under Settings › API keys/ : /Post Writer under Settings › API keys/);
	});

	test.each(AUTH)('401 "%s": n8n and Zapier say it with their fix', async (message, code, reason) => {
		nock(ORIGIN).get('/api/v1/credits').reply(401, body(code, 401, message));
		const n8n = await runNodeError({ credentials, params: { resource: 'account', operation: 'getCredits' } });
		expect(n8n.httpCode).toBe('401');
		expect(n8n.message).toBe(message);
		nock(ORIGIN).get('/api/v1/credits').reply(401, body(code, 401, message));
		const zapier = details(await rejection(run('searches', 'getCredits', bundle())));
		expect(zapier.message).toMatch(new RegExp(`^${message}\\. `));
		if (reason === 'revoked' || reason === 'expired') expect(zapier.name).toBe('ExpiredAuthError');
		else expect(zapier.code).toBe(`AUTH_${reason.toUpperCase()}`);
	});

	test('403: the scope the server names, on the core, n8n and Zapier', async () => {
		const refusal = body('MISSING_SCOPE', 403, 'Missing required scope: posts:generate');
		nock(ORIGIN).post('/api/v1/generate').reply(403, refusal);
		const e = await caught(nockClient().client.generatePost({ prompt: 'x' }));
		expect(e).toBeInstanceOf(MissingScopeError);
		expect(e.scope).toBe('posts:generate');
		expect(e.message).toMatch(/^The API key lacks the scope "posts:generate" \(Missing required scope: posts:generate\)\. Create a key that includes the scope "posts:generate"/);
		nock(ORIGIN).post('/api/v1/generate').reply(403, refusal);
		const n8n = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'x' } });
		expect(n8n.httpCode).toBe('403');
		expect(n8n.message).toMatch(/lacks the scope "posts:generate"/);
		expect(n8n.description).toMatch(/Create a key that includes the scope "posts:generate"/);
		nock(ORIGIN).post('/api/v1/generate').reply(403, refusal);
		const zapier = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'x' }))));
		expect(zapier).toMatchObject({ code: 'MISSING_SCOPE', status: 403 });
		expect(zapier.message).toMatch(/^The API key lacks the scope "posts:generate"/);
	});
});

describe('what is read of a body', () => {
	test.each([
		[{ error: 'FORBIDDEN', error_description: 'The key lacks the posts:write scope' }, { code: 'FORBIDDEN', message: 'The key lacks the posts:write scope' }],
		[{ error: 'insufficient_scope', error_description: 'More is needed', scope: 'posts:write' }, { code: 'insufficient_scope', message: 'More is needed', scope: 'posts:write' }],
		[{ type: 'about:blank', title: 'Unauthorized', status: 401 }, { message: 'Unauthorized' }],
		[{ type: 'https://x.example/probs/workflow-busy', title: 'Conflict', detail: 'Another step is running' }, { code: 'WORKFLOW_BUSY', message: 'Another step is running' }],
		[{ errors: [{ title: 'Invalid', detail: 'text is required', code: 'VALIDATION_ERROR' }] }, { code: 'VALIDATION_ERROR', message: 'text is required' }],
		[{ message: 'UNAUTHORIZED' }, { code: 'UNAUTHORIZED', message: 'UNAUTHORIZED' }],
	])('%j', (body, info) => {
		expect(extractErrorInfo(body)).toEqual(info);
	});

	test('a 403 that speaks of a scope without naming one is the operation\'s scope; one that names none is refused as sent', async () => {
		nock(ORIGIN).post('/api/v1/drafts').reply(403, { error: 'insufficient_scope', error_description: 'The request requires higher privileges' });
		const e = await caught(nockClient().client.createDraft({ text: 'x' }));
		expect(e).toBeInstanceOf(MissingScopeError);
		expect(e.scope).toBe('posts:write');
		nock(ORIGIN).post('/api/v1/drafts').reply(403, { title: 'Forbidden', detail: 'This account is suspended' });
		const other = await caught(nockClient().client.createDraft({ text: 'x' }));
		expect(other.message).toBe('POST /drafts was refused (403): This account is suspended');
	});

	test('a 401 that gives only a code is read from the code', async () => {
		nock(ORIGIN).get('/api/v1/credits').reply(401, { error: 'API_KEY_REVOKED' });
		const e = await caught(nockClient().client.getCredits({}));
		expect(e).toMatchObject({ reason: 'revoked' });
		expect(e.message).toMatch(/^API key has been revoked\. Create a new key/);
	});
});
