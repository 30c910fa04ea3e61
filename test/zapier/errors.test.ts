import fs from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import * as zapier from '../../zapier/node_modules/zapier-platform-core';
import type { ZObject } from '../../zapier/node_modules/zapier-platform-core';
import { App, ORIGIN, bundle, details, rejection, run } from './helpers';
import { DEFAULT_THROTTLE_SECONDS, toZapierError } from '../../zapier/src/zapier-errors';
import { RateLimitedError } from '../../shared/errors';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const GEN = { proposals: ['A post.'], draftId: 'drf_1', creditsRemaining: 9 };

/**
 * Settles `start()` on jest's clock: timers and Date are fake, and the clock is run forward while the work runs,
 * so that seconds of backoff between answers take no real time (the step's deadline moves with the clock).
 */
async function onJestClock<T>(start: () => Promise<T>): Promise<T> {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	try {
		let settled = false;
		const work = start().finally(() => (settled = true));
		while (!settled) {
			// A turn of the real event loop first (sockets, nock's replies), then 100 ms of jest's clock.
			await new Promise((resolve) => setImmediate(resolve));
			await jest.advanceTimersByTimeAsync(100);
		}
		return await work;
	} finally {
		jest.useRealTimers();
	}
}

describe('429: ThrottledError with the server delay', () => {
	test('the app lets 429 reach the core client (throwForThrottlingEarly: false)', () => {
		expect((App as any).flags).toEqual({ throwForThrottlingEarly: false });
	});

	test('Retry-After in seconds', async () => {
		nock(ORIGIN).post('/api/v1/generate').reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': '120' });
		const e = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'x' }))));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBe(120);
		expect(e.message).toMatch(/Rate limit reached on Generate Post: the service asks to wait 120 s/);
	});

	test('Retry-After as an HTTP date', async () => {
		const at = new Date(Math.ceil((Date.now() + 90_000) / 1000) * 1000).toUTCString();
		nock(ORIGIN).get('/api/v1/posts').query(true).reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': at });
		const e = details(await rejection(run('triggers', 'newPublishedPost', bundle())));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBeGreaterThanOrEqual(85);
		expect(e.delay).toBeLessThanOrEqual(91);
	});

	test('X-RateLimit-Reset as epoch seconds', async () => {
		const reset = String(Math.ceil(Date.now() / 1000) + 45);
		nock(ORIGIN).get('/api/v1/credits').reply(429, { message: 'slow down' }, { 'X-RateLimit-Reset': reset });
		const e = details(await rejection(run('searches', 'getCredits', bundle())));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBeGreaterThanOrEqual(40);
		expect(e.delay).toBeLessThanOrEqual(46);
	});

	test('a short delay is waited out inside the step, and the call goes through', async () => {
		nock(ORIGIN).post('/api/v1/generate').reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': '0' });
		nock(ORIGIN).post('/api/v1/generate').reply(200, GEN);
		await expect(run('creates', 'generatePost', bundle({ prompt: 'x' }))).resolves.toMatchObject({ draftId: 'drf_1', creditsRemaining: 9 });
		expect(nock.isDone()).toBe(true);
	});

	test("no delay given, but the refusals showed where the key's window ends: ThrottledError with that wait, not the default", () => {
		const budget = { budgetMs: 10_000, waitedMs: 10_400, refusals: 4 };
		const learned = toZapierError(zapier as unknown as ZObject, new RateLimitedError(undefined, { operation: 'generatePost', budget, windowEndsInMs: 7_200 }));
		expect(details(learned)).toMatchObject({ name: 'ThrottledError', delay: 8 });
		// The message says what happened, never that the service asked for that wait.
		expect(details(learned).message).not.toMatch(/asks to wait/);
		const unknown = toZapierError(zapier as unknown as ZObject, new RateLimitedError(undefined, { operation: 'generatePost', budget }));
		expect(details(unknown).delay).toBe(DEFAULT_THROTTLE_SECONDS);
	});

	test('no delay given: retried with backoff within the step budget (not a count), then ThrottledError with a default delay', async () => {
		const scope = nock(ORIGIN).get('/api/v1/drafts').query(true).times(30).reply(429, 'Too Many Requests');
		const e = details(await onJestClock(() => rejection(run('searches', 'listDrafts', bundle({ search: 'x' })))));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBeGreaterThan(0);
		expect(e.message).toMatch(/refused \d+ times and waited .* for the quota/);
		// More than the old cap of 4 attempts, fewer than the interceptors: the time budget stopped it.
		expect(30 - scope.pendingMocks().length).toBeGreaterThan(4);
		nock.cleanAll();
	}, 30_000);
});

describe('WORKFLOW_BUSY', () => {
	test('retried within the step time, then the call goes through', async () => {
		nock(ORIGIN).post('/api/v1/creation/validate').reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } }, { 'Retry-After': '0' });
		nock(ORIGIN).post('/api/v1/creation/validate').reply(200, { workflowId: 'wf_1', ready: true, verdict: { ready: true, score: 90 } });
		await expect(run('creates', 'validatePost', bundle({ workflowId: 'wf_1' }))).resolves.toMatchObject({ workflowId: 'wf_1', ready: true });
		expect(nock.isDone()).toBe(true);
	});

	test('a 200 carrying WORKFLOW_BUSY is recognised too', async () => {
		nock(ORIGIN).post('/api/v1/creation/validate').reply(200, { code: 'WORKFLOW_BUSY' });
		nock(ORIGIN).post('/api/v1/creation/validate').reply(200, { workflowId: 'wf_1', ready: false, verdict: { ready: false } });
		await expect(run('creates', 'validatePost', bundle({ workflowId: 'wf_1' }))).resolves.toMatchObject({ ready: false });
	});

	test('still busy past the step budget: ThrottledError, so that Zapier retries the step later', async () => {
		nock(ORIGIN).post('/api/v1/creation/refine').reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } }, { 'Retry-After': '40' });
		const e = details(await rejection(run('creates', 'refinePost', bundle({ workflowId: 'wf_1', instructionPreset: 'Make it shorter' }))));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBe(40);
		expect(e.message).toMatch(/^WORKFLOW_BUSY: another operation is still running on this creation workflow/);
	});
});

describe('other mappings', () => {
	test('a 200 whose body carries an error is an error', async () => {
		nock(ORIGIN).post('/api/v1/analyze').reply(200, { success: false, error: { code: 'ANALYSIS_FAILED', message: 'The analyzer is unavailable' } });
		const e = details(await rejection(run('creates', 'analyzePost', bundle({ text: 'Some text' }))));
		expect(e.name).toBe('AppError');
		expect(e.code).toBe('ANALYSIS_FAILED');
		expect(e.message).toMatch(/The analyzer is unavailable/);
	});

	test('input refused before any request names the field by its label', async () => {
		const e = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'x', numProposals: 11 }))));
		expect(e).toMatchObject({ name: 'AppError', code: 'VALIDATION_ERROR', status: 400 });
		expect(e.message).toBe('Number of Proposals (numProposals): must be between 1 and 10, got 11.');
	});

	test('a timestamp without an offset is refused with an example', async () => {
		const e = details(await rejection(run('creates', 'createDraft', bundle({ text: 'x', scheduledAt: '2030-01-01T09:00' }))));
		expect(e.message).toMatch(/^Schedule At \(scheduledAt\): "2030-01-01T09:00" has no time zone/);
	});

	test("the service's own validation error keeps its message and field", async () => {
		nock(ORIGIN)
			.post('/api/v1/drafts')
			.reply(400, { error: { code: 'VALIDATION_ERROR', message: 'scheduledAt must lie in the future', field: 'scheduledAt' } });
		const e = details(await rejection(run('creates', 'createDraft', bundle({ text: 'x' }))));
		expect(e).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
		expect(e.message).toMatch(/scheduledAt must lie in the future/);
	});

	test('a 5xx on a paid call is not retried, and says to check before running again', async () => {
		nock(ORIGIN).post('/api/v1/generate').once().reply(502, '<html><body>Bad gateway</body></html>');
		const e = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'x' }))));
		expect(e.status).toBe(502);
		expect(e.message).toMatch(/not retried, because the call may already have been carried out/);
	});

	test('an unreachable service names the Base URL', async () => {
		// A port that was just closed on 127.0.0.1: the connection is refused for real.
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as AddressInfo).port;
		await new Promise((resolve) => server.close(resolve));
		nock.enableNetConnect('127.0.0.1');
		try {
			const b = bundle({ name: 'x' }, {}, { apiKey: 'pw_live_x0123456789', baseUrl: `http://127.0.0.1:${port}/api/v1` });
			// The GET is retried with backoff before the error: seconds, on jest's clock.
			const e = details(await onJestClock(() => rejection(run('searches', 'listWritingProfiles', b))));
			expect(e.message).toMatch(/could not reach the service \(ECONNREFUSED\)\. Check the Base URL/);
		} finally {
			nock.disableNetConnect();
		}
	}, 20_000);
});

describe('every request of the app goes through the core client', () => {
	// The middleware used to read responses of requests made outside the core client; the app makes none,
	// so that router is gone. This keeps it true: only zapier/src/client.ts calls z.request.
	test('z.request appears in the core client adapter only', () => {
		const src = path.join(__dirname, '..', '..', 'zapier', 'src');
		const offenders: string[] = [];
		const walk = (dir: string) => {
			for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
				const p = path.join(dir, e.name);
				if (e.isDirectory()) walk(p);
				else if (p.endsWith('.ts') && /\bz\.request\(/.test(fs.readFileSync(p, 'utf8')) && e.name !== 'client.ts') offenders.push(p);
			}
		};
		walk(src);
		expect(offenders).toEqual([]);
		expect(fs.readFileSync(path.join(src, 'client.ts'), 'utf8')).toMatch(/\bz\.request\(/);
	});

	test('the app has no afterResponse to bypass', () => {
		expect((App as { afterResponse?: unknown[] }).afterResponse ?? []).toEqual([]);
	});
});
