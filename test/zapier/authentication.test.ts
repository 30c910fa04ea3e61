import { join } from 'node:path';
import nock from 'nock';
import { BRAND } from '../../shared/base';
import { App, APP_CORE_DIR, BASE, KEY, ORIGIN, ZAPIER_DIR, appTester, bundle, details, rejection, run, runAuthTest } from './helpers';

const PROFILE = {
	id: 'acc_1',
	name: 'Dana Ortiz',
	email: 'dana@example.com',
	credits: 42,
	writingProfiles: [{ id: 'wp_founder', name: 'Founder voice', active: true }],
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('one zapier-platform-core for the app and its tester', () => {
	test('the tester is the copy under zapier/node_modules, the one the app loads', () => {
		expect(APP_CORE_DIR).toBe(join(ZAPIER_DIR, 'node_modules', 'zapier-platform-core'));
		expect(require.resolve('../../zapier/node_modules/zapier-platform-core')).toContain(APP_CORE_DIR);
	});
});

describe('authentication', () => {
	test('fields: the API key is a password with help text naming Settings › API keys; the base URL defaults to the brand URL', () => {
		const fields = (App.authentication as any).fields as any[];
		const apiKey = fields.find((f) => f.key === 'apiKey');
		expect(apiKey).toMatchObject({ type: 'password', required: true, label: 'API Key' });
		expect(apiKey.helpText).toContain(BRAND.keysLocation);
		const baseUrl = fields.find((f) => f.key === 'baseUrl');
		expect(baseUrl).toMatchObject({ type: 'string', default: BRAND.defaultBaseUrl });
		expect((App.authentication as any).type).toBe('custom');
	});

	test('the test reads /account/profile with the Bearer header; the label is the name and email, never the key', async () => {
		const scope = nock(ORIGIN, { reqheaders: { authorization: `Bearer ${KEY}` } })
			.get('/api/v1/account/profile')
			.reply(200, PROFILE);
		const result = await runAuthTest(bundle());
		scope.done();
		expect(result).toMatchObject({ id: 'acc_1', name: 'Dana Ortiz', credits: 42, connectionLabel: 'Dana Ortiz (dana@example.com)' });
		expect((App.authentication as any).connectionLabel).toBe('{{bundle.inputData.connectionLabel}}');
		expect(JSON.stringify(result)).not.toContain(KEY);
	});

	test('the label falls back on the email, then the account id', async () => {
		nock(ORIGIN).get('/api/v1/account/profile').reply(200, { id: 'acc_9', email: 'solo@example.com' });
		expect((await runAuthTest(bundle())).connectionLabel).toBe('solo@example.com');
		nock(ORIGIN).get('/api/v1/account/profile').reply(200, { id: 'acc_9' });
		expect((await runAuthTest(bundle())).connectionLabel).toBe('Account acc_9');
	});

	test('a plain-http base URL outside loopback is refused before any request, naming the field', async () => {
		const e = details(await rejection(runAuthTest(bundle({}, {}, { apiKey: KEY, baseUrl: 'http://api.test.example/api/v1' }))));
		expect(e.message).toMatch(/^Base URL \(baseUrl\): must use https/);
		expect(e.code).toBe('VALIDATION_ERROR');
	});

	test('the key is sent to the API of the connection only', async () => {
		nock('https://elsewhere.example', { badheaders: ['authorization'] }).get('/x').reply(200, {});
		await appTester(async (z: any) => (await z.request({ url: 'https://elsewhere.example/x', skipThrowForStatus: true })).status, bundle());
		nock(ORIGIN, { reqheaders: { authorization: `Bearer ${KEY}` } }).get('/api/v1/credits').reply(200, { balance: 1, history: [] });
		await appTester(async (z: any) => (await z.request({ url: `${BASE}/credits` })).status, bundle());
		expect(nock.isDone()).toBe(true);
	});
});

describe('401: the four messages of the spec', () => {
	const where = `${BRAND.displayName} under ${BRAND.keysLocation}`;
	const cases: Array<[string, string, string]> = [
		['Missing or invalid Authorization header', 'AUTH_MISSING', 'paste the full API key'],
		['Invalid API key', 'AUTH_INVALID', `Check the API key of the connection, or create a new key in ${where}`],
		['API key has been revoked', 'AUTH_REVOKED', `This key can no longer be used: create a new key in ${where}, then reconnect your ${BRAND.displayName} account in Zapier and replace the key`],
		['API key has expired', 'AUTH_EXPIRED', `This key can no longer be used: create a new key in ${where}, then reconnect your ${BRAND.displayName} account in Zapier and replace the key`],
	];
	test.each(cases)('%s', async (serverMessage, code, hint) => {
		nock(ORIGIN).get('/api/v1/account/profile').reply(401, { error: { code: 'UNAUTHORIZED', message: serverMessage } });
		const e = details(await rejection(runAuthTest(bundle())));
		if (code === 'AUTH_REVOKED' || code === 'AUTH_EXPIRED') {
			// Zapier marks the connection expired, pauses its Zaps and emails the user.
			expect(e.name).toBe('ExpiredAuthError');
		} else {
			// A mistyped or incomplete key: a plain error with its fix; the connection is not marked expired.
			expect(e.name).toBe('AppError');
			expect(e.status).toBe(401);
			expect(e.code).toBe(code);
		}
		expect(e.message.startsWith(serverMessage)).toBe(true);
		expect(e.message).toContain(hint);
		expect(e.message).not.toContain(KEY);
	});

	test.each([
		['API key has been revoked', 'triggers', 'newPublishedPost', {}, 'get', '/api/v1/posts'],
		['API key has expired', 'creates', 'generatePost', { prompt: 'x' }, 'post', '/api/v1/generate'],
		['API key has been revoked', 'searches', 'listDrafts', { search: 'x' }, 'get', '/api/v1/drafts'],
	] as const)('"%s" in any step (%s.%s) raises ExpiredAuthError too', async (serverMessage, kind, key, input, method, path) => {
		const scope = nock(ORIGIN);
		(method === 'get' ? scope.get(path).query(true) : scope.post(path)).reply(401, { error: { code: 'UNAUTHORIZED', message: serverMessage } });
		const e = details(await rejection(run(kind, key, bundle(input))));
		expect(e.name).toBe('ExpiredAuthError');
		expect(e.message).toMatch(new RegExp(`^${serverMessage}\\. This key can no longer be used: create a new key in .+, then reconnect`));
		expect(e.message).not.toContain(KEY);
	});
});

describe('403', () => {
	test('names the missing scope and what to do', async () => {
		nock(ORIGIN).get('/api/v1/account/profile').reply(403, { error: { code: 'FORBIDDEN', message: 'Missing required scope: account:read' } });
		const e = details(await rejection(runAuthTest(bundle())));
		expect(e).toMatchObject({ name: 'AppError', code: 'MISSING_SCOPE', status: 403 });
		expect(e.message).toMatch(/lacks the scope "account:read"/);
		expect(e.message).toContain(BRAND.keysLocation);
	});
});
