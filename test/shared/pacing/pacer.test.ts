/**
 * The shared pacing (shared/pacing/pacer.ts) and the credit floor under concurrency
 * (shared/paid/credit-ledger.ts), through the client, on virtual time: a fake service with
 * per-call latency and a fixed-window quota, calls run by a pool as the n8n
 * node runs items. No real time passes.
 */
import { PostWriterClient } from '../../../shared/client';
import { AuthenticationError, CreditFloorError, NetworkError, RateLimitedError } from '../../../shared/errors';
import { Pacer } from '../../../shared/pacing';
import { fakeService, pool, virtualTime, type FakeServiceOptions } from '../../helpers/virtual-time';

const BASE = 'https://api.test.example/api/v1';

function setup(service: FakeServiceOptions, retry = {}) {
	const time = virtualTime();
	const api = fakeService(time, service);
	const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, retry });
	const generate = (count: number, concurrency: number, options: { minCreditsToKeep?: number } = {}) =>
		time.run(pool(count, concurrency, (i) => client.generatePost({ prompt: `Item ${i}` }, options)));
	return { time, api, client, generate };
}

const generates = (api: ReturnType<typeof fakeService>) => api.sent.filter((s) => s.path === '/generate');

describe('one pacing for all calls of a client', () => {
	test('a 429 on one call pauses the others until the last second of its delay (whole seconds: the window may end in it); the refused call waits all of it', async () => {
		const time = virtualTime();
		const api = fakeService(time, {
			latencyMs: 100,
			headers: 'none',
			script: { 1: { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' } }, headers: { 'Retry-After': '3' } } },
		});
		const start = time.now();
		const sent: Array<{ prompt: string; at: number }> = [];
		const send: typeof api.send = async (request) => {
			const body = (typeof request.body === 'string' ? JSON.parse(request.body) : request.body) as { prompt: string };
			sent.push({ prompt: body.prompt, at: time.now() - start });
			return await api.send(request);
		};
		const client = new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random: () => 0 });
		const later = async (delay: number, prompt: string) => {
			await time.sleep(delay);
			return await client.generatePost({ prompt });
		};
		const results = await time.run(Promise.all([client.generatePost({ prompt: 'first' }), later(500, 'second'), later(1_500, 'third')]));
		expect(results.map((r) => r.proposals[0])).toEqual(['A post', 'A post', 'A post']);
		// The first call was refused at 100 ms with `Retry-After: 3`, written between 0 and 100 ms and rounded up to the
		// second: the window ends after 2 s and by 3.1 s.
		expect(sent).toHaveLength(4);
		expect(sent[0]).toEqual({ prompt: 'first', at: 0 });
		const others = sent.filter((x) => x.prompt !== 'first');
		expect(others.every((x) => x.at >= 2_000)).toBe(true);
		expect(others.some((x) => x.at < 3_100)).toBe(true);
		// The refused call itself goes again only when the server said.
		expect(sent.filter((x) => x.prompt === 'first')[1].at).toBeGreaterThanOrEqual(3_100);
	});

	test('a delay within its precision (Retry-After: 1): the refused call goes again after its delay; the others are held only until the window our first call opened ends, then go at the cut rate', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 100, limit: 4, windowMs: 1_000, headers: 'retry-after' });
		// Each attempt: its prompt, when it left and when its answer came, and the status.
		const attempts: Array<{ prompt: string; sentAt: number; answeredAt: number; status: number }> = [];
		const send: typeof api.send = async (request) => {
			const sentAt = time.now();
			const response = await api.send(request);
			const body = (typeof request.body === 'string' ? JSON.parse(request.body) : request.body) as { prompt: string };
			attempts.push({ prompt: body.prompt, sentAt, answeredAt: time.now(), status: response.status });
			return response;
		};
		const client = new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random: () => 0 });
		const start = time.now();
		const results = await time.run(pool(10, 10, (i) => client.generatePost({ prompt: `Item ${i}` })));
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(10);
		const refused = attempts.filter((a) => a.status === 429);
		expect(refused.length).toBeGreaterThan(0);
		// Each refused prompt is sent again only after its own delay (1 s from the answer that refused it).
		for (const r of refused) {
			const again = attempts.find((a) => a.prompt === r.prompt && a.sentAt > r.sentAt);
			expect(again?.sentAt).toBeGreaterThanOrEqual(r.answeredAt + 1_000);
		}
		// The lane is not held for the whole delay: other prompts go out within the second after the first refusal,
		// but none before the window opened by the first call at 0 ends (1 s, and its margin): they would be refused too.
		const first = refused[0];
		expect(attempts.some((a) => a.prompt !== first.prompt && a.sentAt > first.answeredAt && a.sentAt < first.answeredAt + 1_000)).toBe(true);
		expect(attempts.filter((a) => a.sentAt > first.answeredAt && a.sentAt < start + 1_000)).toEqual([]);
		expect(refused).toHaveLength(1);
		// 10 calls at 4 per window: the third window opens at 2 s; within 1.5 × that.
		expect(time.elapsed()).toBeLessThanOrEqual(3_000);
	});

	test('rate-limit headers with an exact reset: at most one call refused (in the slow start), window after window', async () => {
		const { time, api, generate } = setup({ latencyMs: 0, limit: 10, windowMs: 1_000, headers: 'full' });
		const results = await generate(35, 5);
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.refused429).toBeLessThanOrEqual(1);
		expect(generates(api)).toHaveLength(35 + api.stats.refused429);
		// 35 calls at 10 per window: the 4th window opens at 3 s (the quota-bound limit), the run ends within 1.25 × that.
		expect(time.elapsed()).toBeGreaterThanOrEqual(3_000);
		expect(time.elapsed()).toBeLessThanOrEqual(3_750);
	});

	test('the same run without the headers finds the rate from its refusals: a few, not one per window', async () => {
		const { time, api, generate } = setup({ latencyMs: 0, limit: 10, windowMs: 1_000, headers: 'retry-after' });
		const results = await generate(35, 5);
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.refused429).toBeGreaterThanOrEqual(1);
		// The first refusal, and the calls sent in the rest of its window at the cut rate (the lane is not held).
		expect(api.stats.refused429).toBeLessThanOrEqual(5);
		expect(time.elapsed()).toBeLessThanOrEqual(3_000 * 1.5);
	});

	test('with latency, calls in flight are counted: a quota of 10 per second at 20 at once is kept after the first window', async () => {
		const { time, api, generate } = setup({ latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const results = await generate(60, 20);
		expect(results.every((r) => r.ok)).toBe(true);
		// The slow start's refusal tells the exact window end; the learned window and limit keep the rest within the quota.
		expect(api.stats.refused429).toBeLessThanOrEqual(2);
		// The quota-bound limit: (⌈N/Q⌉ − 1) × W = 5 s, plus the last call's 1 s.
		expect(time.elapsed()).toBeGreaterThanOrEqual(6_000);
		expect(time.elapsed()).toBeLessThanOrEqual(6_000 * 1.25);
	});

	test('a told window with exact ends lets its calls go together at its start: 50 per 5 s is not 10 a second spread out (S2)', async () => {
		const { time, api, generate } = setup({ latencyMs: 1_000, limit: 50, windowMs: 5_000, headers: 'full' });
		const results = await generate(200, 128);
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(200);
		// The quota-bound limit: (⌈200/50⌉ − 1) × 5 s + 1 s = 16 s (spread at the told rate it took 21.2 s).
		expect(time.elapsed()).toBeLessThanOrEqual(16_000 * 1.1);
	});

	test("a lone client whose answers come as its windows end (L = W) sends each window's calls together as the answer telling its end comes, also after they went spread", async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		// Each call reaches the service 12 ms after it is sent (a real network and process): the next window's calls go after its end.
		const send: typeof api.send = async (request) => {
			await time.sleep(12);
			return await api.send(request);
		};
		const client = new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random: () => 0 });
		const start = time.now();
		// The first 10 calls come 90 ms apart (items of a trigger, a slow first connection), the other 90 all at once after them.
		const first = Array.from({ length: 10 }, async (_, i) => {
			await time.sleep(i * 90);
			return await client.generatePost({ prompt: `first ${i}` });
		});
		const rest = (async () => {
			await time.sleep(9 * 90);
			return await pool(90, 90, (i) => client.generatePost({ prompt: `rest ${i}` }));
		})();
		await time.run(Promise.all([...first, rest]));
		expect(api.stats.charged).toBe(100);
		const sentAt = generates(api).map((s) => s.at - start);
		// The answers tell each window's end as it comes, and alone the client's calls filled it: the next window's calls go
		// together then, a round trip's transit after the end (1,012 ms apart), not at an end foretold with its margin (1,042 ms).
		const lastWindows = [sentAt.slice(-30, -20), sentAt.slice(-20, -10), sentAt.slice(-10)];
		for (const w of lastWindows) expect(Math.max(...w) - Math.min(...w)).toBe(0);
		expect(lastWindows[1][0] - lastWindows[0][0]).toBeLessThanOrEqual(1_000 + 2 * 12);
		expect(lastWindows[2][0] - lastWindows[1][0]).toBeLessThanOrEqual(1_000 + 2 * 12);
		// The quota-bound limit is (⌈100/10⌉ − 1) × 1 s + 1 s = 10 s; the first windows went out spread.
		expect(time.elapsed()).toBeLessThanOrEqual(10_200);
	});

	test('a run with no header at all (429 without a delay) still completes, by backoff', async () => {
		const { api, generate } = setup({ latencyMs: 50, limit: 5, windowMs: 1_000, headers: 'none' }, { maxAttempts: 10 });
		const results = await generate(20, 5);
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(20);
	});

	test('only Retry-After on the 429: completes, every item charged once', async () => {
		const { api, generate } = setup({ latencyMs: 200, limit: 3, windowMs: 1_000, headers: 'retry-after' });
		const results = await generate(12, 6);
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(12);
	});

	test('before any refusal or told quota, a caller that waits for each answer (a trigger reading page after page) is paced by its round trips, not by the slow start', async () => {
		const { time, api, client } = setup({ latencyMs: 5, headers: 'none' });
		await time.run(
			(async () => {
				for (let i = 0; i < 50; i++) await client.generatePost({ prompt: `page ${i}` });
			})(),
		);
		expect(generates(api)).toHaveLength(50);
		expect(time.elapsed()).toBe(50 * 5);
	});

	test('a pause is waited once even when the clock does not move (sleep recorded, clock frozen)', async () => {
		const sleeps: number[] = [];
		const pacer = new Pacer({ sleep: async (ms) => void sleeps.push(ms), now: () => 5_000, random: () => 0 });
		// A refusal's delay longer than its precision pauses the lane until a precision before its end (no jitter with this random source).
		expect(pacer.refused(3_000, 'generatePost')).toBe(3_000);
		const slot = await pacer.acquire('generatePost');
		pacer.settle(slot, { limit: 1, remaining: 0, resetAt: 6_000 });
		await pacer.acquire('generatePost');
		// The pause once, then the hold until the told end; the pause is not waited again (a later sleep is the rate's spacing of a call).
		expect(sleeps.slice(0, 2)).toEqual([2_000, 1_000]);
		expect(sleeps.slice(2).every((ms) => ms < 2_000)).toBe(true);
	});

	test('an answer from a window already over says nothing of the current one', async () => {
		let now = 10_000;
		const sleeps: number[] = [];
		const pacer = new Pacer({ sleep: async (ms) => void sleeps.push(ms), now: () => now });
		const slot = await pacer.acquire('generatePost');
		now = 12_000;
		pacer.settle(slot, { limit: 5, remaining: 0, resetAt: 11_000 });
		await pacer.acquire('generatePost');
		expect(sleeps).toEqual([]);
	});

	test('a pause longer than the caller may wait is a 429 error, and nothing is sent', async () => {
		const time = virtualTime();
		const api = fakeService(time, {
			script: { 1: { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' } }, headers: { 'Retry-After': '20' } } },
		});
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, deadline: time.now() + 10_000 });
		const e = await time.run(client.generatePost({ prompt: 'x' }).catch((x: unknown) => x));
		expect(e).toBeInstanceOf(RateLimitedError);
		expect(api.sent).toHaveLength(1);
	});
});

describe('no call after a 401', () => {
	test('calls in flight get their answers; every later call fails at once with the 401 message, and none is sent', async () => {
		const { api, generate } = setup({
			latencyMs: 100,
			script: Object.fromEntries(
				Array.from({ length: 40 }, (_, i) => [i + 3, { status: 401, body: { error: { code: 'API_KEY_REVOKED', message: 'API key has been revoked' } } }]),
			),
		});
		const results = await generate(12, 4);
		expect(results.filter((r) => r.ok)).toHaveLength(2);
		for (const r of results.filter((x) => !x.ok)) {
			const error = (r as { error: unknown }).error;
			expect(error).toBeInstanceOf(AuthenticationError);
			expect((error as Error).message).toMatch(/revoked[\s\S]*new key/i);
		}
		// No call started after the first 401 answer (the calls started at the same instant were already on their way).
		const first401 = api.answers.find((a) => a.status === 401)?.at ?? 0;
		expect(generates(api).filter((s) => s.at > first401)).toHaveLength(0);
		expect(generates(api).length).toBeLessThanOrEqual(2 + 4);
	});
});

describe('the credit floor under concurrency', () => {
	test('20 calls at once with 10 credits and a floor of 3: exactly 7 are sent, the balance ends at 3, one balance read', async () => {
		const { api, generate } = setup({ latencyMs: 300, credits: 10 });
		const results = await generate(20, 20, { minCreditsToKeep: 3 });
		expect(results.filter((r) => r.ok)).toHaveLength(7);
		for (const r of results.filter((x) => !x.ok)) expect((r as { error: unknown }).error).toBeInstanceOf(CreditFloorError);
		expect(api.balance()).toBe(3);
		expect(generates(api)).toHaveLength(7);
		expect(api.sent.filter((s) => s.path === '/credits')).toHaveLength(1);
	});

	test('the floor holds over many windows and concurrency 20 with a 429 quota', async () => {
		const { api, generate } = setup({ latencyMs: 500, credits: 40, limit: 10, windowMs: 1_000, headers: 'full' });
		const results = await generate(60, 20, { minCreditsToKeep: 5 });
		expect(results.filter((r) => r.ok)).toHaveLength(35);
		expect(api.balance()).toBe(5);
	});

	test('an ambiguous failure keeps its cost as spent: the floor is not crossed by trusting that nothing was charged', async () => {
		const { api, generate } = setup({ latencyMs: 100, credits: 5, script: { 1: 'reset-after-charge' } });
		const results = await generate(4, 4, { minCreditsToKeep: 3 });
		expect(results.filter((r) => r.ok)).toHaveLength(1);
		expect((results[0] as { error: unknown }).error).toBeInstanceOf(NetworkError);
		expect(api.balance()).toBe(3);
		// Never resent.
		expect(api.stats.charged).toBe(2);
	});

	test('a refused call gives its reservation back', async () => {
		const { api, client, time } = setup(
			{ latencyMs: 100, credits: 5, script: { 1: { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' } }, headers: { 'Retry-After': '1' } } } },
			{ maxAttempts: 1, maxQuotaWaitMs: 0 },
		);
		const results = await time.run(pool(4, 1, (i) => client.generatePost({ prompt: `Item ${i}` }, { minCreditsToKeep: 3 })));
		expect(results.map((r) => r.ok)).toEqual([false, true, true, false]);
		expect((results[0] as { error: unknown }).error).toBeInstanceOf(RateLimitedError);
		expect((results[3] as { error: unknown }).error).toBeInstanceOf(CreditFloorError);
		expect(api.balance()).toBe(3);
	});
});
