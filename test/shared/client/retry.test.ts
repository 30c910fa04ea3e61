import nock from 'nock';
import { NetworkError, RateLimitedError, ServerError, WorkflowBusyError } from '../../../shared/errors';
import { DEFAULT_RETRY_POLICY, PostWriterClient, backoffDelay, decideRetry } from '../../../shared/client';
import { Pacer } from '../../../shared/pacing';
import { caught, nockClient } from '../../helpers/fake';
import { fakeService, pool, virtualTime } from '../../helpers/virtual-time';

const HOST = 'https://api.test.example';
afterEach(() => nock.cleanAll());

test('429 is waited out with the server delay, then succeeds', async () => {
	nock(HOST).post('/api/v1/generate').reply(429, '', { 'Retry-After': '2' }).post('/api/v1/generate').reply(200, { proposals: ['p'], creditsRemaining: 1 });
	// A clock that moves with the waits: the refused call waits all of its delay, and the operation's hold (a second less) is over by then.
	let now = 1_700_000_000_000;
	const { client, sleeps } = nockClient({ now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)) });
	const out = await client.generatePost({ prompt: 'x' });
	expect(out.proposals).toEqual(['p']);
	expect(sleeps).toHaveLength(1);
	expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
	expect(sleeps[0]).toBeLessThan(2300);
});

test('WORKFLOW_BUSY is retried with backoff', async () => {
	nock(HOST)
		.post('/api/v1/creation/validate').reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } })
		.post('/api/v1/creation/validate').reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } })
		.post('/api/v1/creation/validate').reply(200, { ready: true, verdict: {} });
	const { client, sleeps } = nockClient();
	const out = await client.validatePost({ workflowId: 'w' });
	expect(out.ready).toBe(true);
	expect(sleeps.length).toBe(2);
	expect(sleeps[1]).toBeGreaterThan(sleeps[0]);
});

/** A scripted transport: each entry is a response or an error code to throw. */
function scripted(steps: Array<{ status: number; body: unknown } | string>) {
	const calls: string[] = [];
	const send = async (req: { method: string; url: string }) => {
		calls.push(`${req.method} ${req.url}`);
		const step = steps.shift();
		if (step === undefined) throw new Error('unexpected extra call');
		if (typeof step === 'string') throw Object.assign(new Error(step), { code: step });
		return { status: step.status, headers: {}, body: JSON.stringify(step.body) };
	};
	return { send, calls };
}

test('GET is retried after 5xx and after a reset', async () => {
	const t = scripted([{ status: 503, body: 'down' }, 'ECONNRESET', { status: 200, body: { balance: 5 } }]);
	const { client, sleeps } = nockClient({ send: t.send });
	expect((await client.getCredits({})).balance).toBe(5);
	expect(sleeps).toHaveLength(2);
});

test.each([
	['5xx', (s: nock.Interceptor) => s.reply(500, { error: 'boom' })],
	['timeout', (s: nock.Interceptor) => s.delay(200).reply(200, { proposals: [] })],
])('a paid POST is never retried after an ambiguous failure: %s', async (_n, reply) => {
	const scope = reply(nock(HOST).post('/api/v1/generate'));
	nock(HOST).post('/api/v1/generate').reply(200, { proposals: ['second call'] }); // must stay unused
	const { client, sleeps } = nockClient({ timeoutMs: 50 });
	await caught(client.generatePost({ prompt: 'x' }));
	expect(scope.isDone()).toBe(true);
	expect(nock.pendingMocks()).toHaveLength(1);
	expect(sleeps).toHaveLength(0);
});

test.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT'])('a paid POST is never retried after %s', async (code) => {
	const t = scripted([code, { status: 200, body: { proposals: ['second call'] } }]);
	const { client, sleeps } = nockClient({ send: t.send });
	await caught(client.generatePost({ prompt: 'x' }));
	expect(t.calls).toHaveLength(1);
	expect(sleeps).toHaveLength(0);
});

test('a refused connection never reached the server: a POST is retried', async () => {
	const t = scripted(['ECONNREFUSED', { status: 201, body: { id: 'd', text: 't' } }]);
	const { client, sleeps } = nockClient({ send: t.send });
	expect((await client.createDraft({ text: 't' })).id).toBe('d');
	expect(sleeps).toHaveLength(1);
});

test('the attempt cap holds for a GET after a 5xx', async () => {
	nock(HOST).get('/api/v1/credits').times(3).reply(500, { error: 'boom' });
	const { client, sleeps } = nockClient({ retry: { maxAttempts: 3 } });
	const e = await caught(client.getCredits({}));
	expect(e).toBeInstanceOf(ServerError);
	expect(sleeps).toHaveLength(2);
});

test('a refusal is retried until the wait for the quota would pass its budget, however many attempts that takes', async () => {
	const scope = nock(HOST).get('/api/v1/credits').times(10).reply(429, '', { 'Retry-After': '12' });
	let now = 1_700_000_000_000;
	const { client, sleeps } = nockClient({
		now: () => now,
		sleep: async (ms) => {
			sleeps.push(ms);
			now += ms;
		},
		// The attempt cap is for the other retries; it does not bound refusals.
		retry: { maxAttempts: 2, maxQuotaWaitMs: 30_000 },
		quotaBudgetSetting: 'Options › Maximum Wait for the Quota',
	});
	const e = await caught(client.getCredits({}));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(e.retryAfterMs).toBe(12_000);
	// Refused at 0, ~12 s and ~24 s: a third wait of 12 s would pass 30 s.
	expect(scope.pendingMocks()).toHaveLength(1);
	expect(sleeps).toHaveLength(2);
	expect(sleeps.every((ms) => ms >= 12_000)).toBe(true);
	expect(e.message).toMatch(/refused 3 times and waited 2\d s for the quota with none of these calls let through; one more wait would pass the 30 s allowed \(Options › Maximum Wait for the Quota\)\. The service did not say its quota\. Nothing was charged\./);
	nock.cleanAll();
});

test('a 429 budget counts only the time in which none of the operation\'s calls got through: a batch that moves never runs out', async () => {
	// One call a minute, six calls at once, a budget of 90 s: the last is refused from the start and admitted at about
	// 5 minutes, behind the others, each let through a window apart. A key that lets nothing through fails each call, on its budget.
	const run = async (limit: number) => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 200, limit, windowMs: 60_000, headers: 'retry-after', credits: 100 });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const client = new PostWriterClient({ baseUrl: `${HOST}/api/v1`, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer, retry: { maxQuotaWaitMs: 90_000 } });
		const results = await time.run(pool(6, 6, (i) => client.generatePost({ prompt: `p${i}` })));
		return { results, elapsed: time.elapsed(), charged: api.stats.charged };
	};
	const moving = await run(1);
	expect(moving.results.every((r) => r.ok)).toBe(true);
	expect(moving.charged).toBe(6);
	expect(moving.elapsed).toBeGreaterThan(5 * 60_000);
	const stuck = await run(0);
	expect(stuck.results.some((r) => r.ok)).toBe(false);
	expect(stuck.charged).toBe(0);
	for (const r of stuck.results) {
		const error = (r as { error: RateLimitedError }).error;
		expect(error).toBeInstanceOf(RateLimitedError);
		expect(error.budget?.budgetMs).toBe(90_000);
		expect(error.message).toMatch(/waited \d+ s for the quota with none of these calls let through; one more wait would pass the 90 s allowed/);
	}
});

test('the budget message names the quota the answers told', async () => {
	nock(HOST).post('/api/v1/generate').times(5).reply(429, '', { 'Retry-After': '1', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'RateLimit-Policy': '"generate";q=10;w=1' });
	let now = 1_700_000_000_000;
	const { client } = nockClient({ now: () => now, sleep: async (ms) => void (now += ms), retry: { maxQuotaWaitMs: 2_500 } });
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(e.budget).toMatchObject({ budgetMs: 2_500, refusals: 3 });
	expect(e.message).toMatch(/^Rate limit reached on Generate Post: the call was refused 3 times .* The service allows 10 calls per 1 s[.,].* Nothing was charged\./);
	nock.cleanAll();
});

test("a 429 that says nothing, over the budget once its refusals showed where the window ends: the error carries that end (Zapier's ThrottledError waits it), never as the server's word", async () => {
	nock(HOST).post('/api/v1/generate').times(10).reply(429, '');
	let now = 1_700_000_000_000;
	const pacer = new Pacer({ sleep: async () => undefined, now: () => now, random: () => 0.5 });
	// The key's window, as silent-window.ts learns it from refusals and the calls let through after them.
	jest.spyOn(pacer, 'silentDelay').mockReturnValue({ ms: 7_000, late: false, guessed: false });
	const { client } = nockClient({ now: () => now, sleep: async (ms) => void (now += ms), pacer, retry: { maxQuotaWaitMs: 10_000 } });
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(e.retryAfterMs).toBeUndefined();
	expect(e.budget).toMatchObject({ budgetMs: 10_000 });
	expect(e.windowEndsInMs).toBe(7_000);
	expect(e.message).not.toMatch(/asks to wait/);
	// Only guessed so far (no gap between two windows seen): no end is given.
	jest.spyOn(pacer, 'silentDelay').mockReturnValue({ ms: 7_000, late: false, guessed: true });
	const guessed = await caught(client.generatePost({ prompt: 'x' }));
	expect(guessed).toBeInstanceOf(RateLimitedError);
	expect(guessed.budget).toMatchObject({ budgetMs: 10_000 });
	expect(guessed.windowEndsInMs).toBeUndefined();
	nock.cleanAll();
});

test("a 429 that says nothing, given up at the step's deadline once its refusals showed where the window ends: the same refusal, with that end", async () => {
	nock(HOST).post('/api/v1/generate').times(3).reply(429, '', { 'X-Request-Id': 'req_9' });
	let now = 1_700_000_000_000;
	const pacer = new Pacer({ sleep: async () => undefined, now: () => now, random: () => 0.5 });
	jest.spyOn(pacer, 'silentDelay').mockReturnValue({ ms: 7_000, late: false, guessed: false });
	// A step with 5 s left (Zapier's deadline): the 7 s wait does not fit.
	const { client } = nockClient({ now: () => now, sleep: async (ms) => void (now += ms), pacer, deadline: now + 5_000 });
	const e = await caught(client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(e.budget).toBeUndefined();
	expect([e.status, e.operation, e.windowEndsInMs]).toEqual([429, 'generatePost', 7_000]);
	expect(e.message).toMatch(/^Rate limit reached on Generate Post/);
	// A probe of an end seen late (a second at most) is not a window's end.
	jest.spyOn(pacer, 'silentDelay').mockReturnValue({ ms: 800, late: true, guessed: false });
	const { client: late } = nockClient({ now: () => now, sleep: async (ms) => void (now += ms), pacer, deadline: now + 500 });
	expect((await caught(late.generatePost({ prompt: 'x' }))).windowEndsInMs).toBeUndefined();
	nock.cleanAll();
});

describe('decideRetry', () => {
	const p = DEFAULT_RETRY_POLICY;
	const r = () => 0.5;
	test('backoff grows and is capped', () => {
		const d = [1, 2, 3, 4, 10, 20].map((a) => backoffDelay(a, p, r));
		expect(d[1]).toBeGreaterThan(d[0]);
		expect(d[5]).toBeLessThanOrEqual(p.maxDelayMs);
	});
	test('jitter spreads delays', () => {
		expect(backoffDelay(3, p, () => 0)).not.toBe(backoffDelay(3, p, () => 0.99));
	});
	test('rules by method', () => {
		const s = { attempt: 1, waitedMs: 0 };
		expect(decideRetry(new RateLimitedError(1000), 'POST', s, p, r).retry).toBe(true);
		expect(decideRetry(new WorkflowBusyError(undefined), 'POST', s, p, r).retry).toBe(true);
		expect(decideRetry(new ServerError('x', { status: 500 }), 'POST', s, p, r).retry).toBe(false);
		expect(decideRetry(new ServerError('x', { status: 500 }), 'GET', s, p, r).retry).toBe(true);
		expect(decideRetry(new NetworkError('x', true), 'POST', s, p, r).retry).toBe(false);
		expect(decideRetry(new NetworkError('x', false), 'POST', s, p, r).retry).toBe(true);
	});
	test("a 429 without a delay waits the delay the pacing learned; the server's own delay, and WORKFLOW_BUSY, keep theirs", () => {
		const s = { attempt: 1, waitedMs: 0, learnedDelayMs: 7_000 };
		expect(decideRetry(new RateLimitedError(undefined), 'POST', s, p, r)).toMatchObject({ retry: true, delayMs: 7_000 });
		expect(decideRetry(new RateLimitedError(2_000), 'POST', s, p, r)).toMatchObject({ delayMs: 2_000 });
		expect(decideRetry(new WorkflowBusyError(undefined), 'POST', s, p, r)).toMatchObject({ delayMs: backoffDelay(1, p, r) });
		// Within the quota's budget, as any delay.
		expect(decideRetry(new RateLimitedError(undefined), 'POST', { ...s, learnedDelayMs: p.maxQuotaWaitMs + 1 }, p, r)).toMatchObject({ retry: false, budget: true });
	});
});

test('a 429 with no field is waited until the window the earlier answers showed ends, not an exponential step', async () => {
	// Let through at 0 and 100 ms, refused at 300 ms with nothing said: a window of 1 s is the first common length possible.
	nock(HOST)
		.post('/api/v1/generate')
		.twice()
		.reply(200, { proposals: ['p'], creditsRemaining: 1 })
		.post('/api/v1/generate')
		.reply(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } })
		.post('/api/v1/generate')
		.reply(200, { proposals: ['p'], creditsRemaining: 1 });
	let now = 1_700_000_000_000;
	const { client, sleeps } = nockClient({ now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)), random: () => 0 });
	await client.generatePost({ prompt: 'a' });
	now += 100;
	await client.generatePost({ prompt: 'b' });
	now += 200;
	await client.generatePost({ prompt: 'c' });
	// 700 ms to the window's end (no jitter with this random source); a backoff would be 250 ms.
	expect(sleeps).toEqual([700]);
});
