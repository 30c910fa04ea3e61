/**
 * One key, many runs (shared/pacing/pacer.ts), on virtual time: the registry that
 * gives every run on a key the same pacing, round robin across the parties
 * (executions) of a key, clients that share nothing but the server, and the
 * pause after a refusal. The whole grid of forms × latencies × clients is
 * test/grid/pacing-grid.test.ts.
 */
import { PostWriterClient } from '../../../shared/client';
import { Pacer, PacerRegistry, type AcquireOptions } from '../../../shared/pacing';
import { fakeService, pool, virtualTime } from '../../helpers/virtual-time';

const BASE = 'https://api.test.example/api/v1';
const KEY = 'pw_live_0123456789abcdefSECRET';

/** A call taken at `at` on a frozen clock and refused for `delayMs`, as the client reports it (settle, then refused). */
async function refuseAt(p: Pacer, clock: { now: number }, at: number, delayMs: number, options: AcquireOptions = {}): Promise<number> {
	clock.now = at;
	const slot = await p.acquire('generatePost', options);
	p.settle(slot, undefined, 'refused');
	return p.refused(delayMs, 'generatePost');
}

describe('PacerRegistry: one pacing per key and base URL', () => {
	function registry(now: () => number, options: { idleMs?: number; maxEntries?: number } = {}) {
		let created = 0;
		const r = new PacerRegistry({
			digest: (text) => `d${[...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)}`,
			create: () => {
				created++;
				return new Pacer({ sleep: async () => undefined, now });
			},
			...options,
		});
		return { r, created: () => created };
	}

	test('the same key and base URL give the same pacing; another key or address another one; no key is held in clear', () => {
		const { r, created } = registry(() => 0);
		const a = r.get(KEY, BASE);
		expect(r.get(KEY, BASE)).toBe(a);
		expect(r.get(`${KEY}x`, BASE)).not.toBe(a);
		expect(r.get(KEY, 'https://other.example/api/v1')).not.toBe(a);
		expect(created()).toBe(3);
		expect(r.ids().join(' ')).not.toContain(KEY);
		expect(r.ids().join(' ')).not.toContain('SECRET');
	});

	test('an idle pacing is dropped after idleMs, one in use is kept', async () => {
		let now = 0;
		const { r } = registry(() => now, { idleMs: 1_000 });
		const busy = r.get('busy-key-123', BASE);
		const idle = r.get('idle-key-123', BASE);
		const slot = await busy.acquire('generatePost');
		now = 5_000;
		// Any lookup sweeps: the idle one goes, the one with a call in flight stays.
		r.get('third-key-123', BASE);
		expect(r.get('busy-key-123', BASE)).toBe(busy);
		expect(r.get('idle-key-123', BASE)).not.toBe(idle);
		busy.settle(slot, undefined, 'answered');
	});

	test('bounded: past maxEntries the idle ones are dropped first', () => {
		const { r } = registry(() => 0, { maxEntries: 3 });
		for (let i = 0; i < 10; i++) r.get(`key-number-${i}`, BASE);
		expect(r.size).toBeLessThanOrEqual(3);
	});
});

describe('round robin across the executions of a key', () => {
	test('a 1-item run started during a 100-item run is served within the next window, not after the 100', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 200, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0 });
		const client = (party: string) => new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, pacer, party });
		const big = client('big');
		const small = client('small');
		let smallDoneAt = 0;
		const work = Promise.all([
			pool(100, 100, (i) => big.generatePost({ prompt: `big ${i}` })),
			(async () => {
				await time.sleep(1_500);
				await small.generatePost({ prompt: 'small' });
				smallDoneAt = time.elapsed();
			})(),
		]);
		const [bigResults] = await time.run(work);
		expect(bigResults.every((r) => r.ok)).toBe(true);
		// First come, first served would send it after the 100 (about 10 s); round robin sends it in the next window.
		expect(smallDoneAt).toBeLessThanOrEqual(3_000);
		expect(api.stats.charged).toBe(101);
	});

	test('two runs of the same size on one key advance together', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 100, limit: 5, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0 });
		const done: Record<string, number[]> = { a: [], b: [] };
		const run = (party: 'a' | 'b') => {
			const c = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, pacer, party });
			return pool(20, 20, async (i) => {
				await c.generatePost({ prompt: `${party} ${i}` });
				done[party].push(time.elapsed());
			});
		};
		await time.run(Promise.all([run('a'), run('b')]));
		// Both finish in the same last window, neither waits for the other to finish first.
		expect(Math.abs(Math.max(...done.a) - Math.max(...done.b))).toBeLessThanOrEqual(1_000);
		expect(Math.min(...done.b)).toBeLessThanOrEqual(1_200);
	});
});

describe('clients that share nothing but the server (processes, a zap beside a workflow)', () => {
	test('three clients with X-RateLimit-*: their refusals cut each one rate; together they finish near the quota-bound limit with few refusals', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacers = [0, 1, 2].map((i) => new Pacer({ sleep: time.sleep, now: time.now, random: () => (i + 0.5) / 3 }));
		const clients = pacers.map((pacer) => new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer }));
		const results = await time.run(Promise.all(clients.map((c, k) => pool(40, 40, (i) => c.generatePost({ prompt: `client ${k} item ${i}` })))));
		expect(results.flat().every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(120);
		// Each found a rate under the told one: together about the quota.
		const rates = pacers.map((p) => p.report('generatePost').rate);
		for (const r of rates) expect(r).toBeLessThan(10);
		// The quota-bound limit is (⌈120/10⌉ − 1) × 1 s + 1 s = 12 s.
		expect(time.elapsed()).toBeLessThanOrEqual(12_000 * 1.35);
		expect(api.stats.refused429 / api.sent.length).toBeLessThanOrEqual(0.1);
	});

	test('when the others finish, the one left takes their share within a few windows', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacers = [0, 1, 2].map((i) => new Pacer({ sleep: time.sleep, now: time.now, random: () => (i + 0.5) / 3 }));
		const clients = pacers.map((pacer) => new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer }));
		const items = [15, 15, 60];
		let othersDoneAt = 0;
		const work = Promise.all(
			clients.map(async (c, k) => {
				await pool(items[k], items[k], (i) => c.generatePost({ prompt: `client ${k} item ${i}` }));
				if (k < 2) othersDoneAt = Math.max(othersDoneAt, time.elapsed());
			}),
		);
		await time.run(work);
		expect(api.stats.charged).toBe(90);
		// The last client's calls per second, from two seconds after the others are done (the answers tell it a round trip late): about the whole window.
		const start = time.now() - time.elapsed();
		const last = api.answers.filter((a) => a.status === 200 && a.at - 1_000 - start >= othersDoneAt + 2_000);
		const seconds = Math.max(1, (Math.max(...last.map((a) => a.at)) - 1_000 - start - (othersDoneAt + 2_000)) / 1_000);
		expect(last.length).toBeGreaterThanOrEqual(10);
		expect(last.length / seconds).toBeGreaterThanOrEqual(8);
		// Alone, the windows the answers tell (exact ends) hold its calls: at most one refused once the others are done.
		expect(api.answers.filter((a) => a.status === 429 && a.at - start >= othersDoneAt + 2_000).length).toBeLessThanOrEqual(1);
		// The quota-bound limit is (⌈90/10⌉ − 1) × 1 s + 1 s = 9 s; fair shares let the two small runs finish first (about 5 s),
		// then the one left has about 40 calls to make on its own: about 11 s at best, and the answers tell it a second late.
		expect(time.elapsed()).toBeLessThanOrEqual(13_000);
	});

});

describe('a refusal', () => {
	test('longer than its precision, holds the refused call for the delay of the server plus a small jitter (5 % + 20 ms), and its lane, no other, until a precision before that', () => {
		const p = new Pacer({ sleep: async () => undefined, now: () => 0, random: () => 0.99 });
		// `Retry-After: 2` (whole seconds): the window ends after 1 s and by 2 s.
		expect(p.refused(2_000, 'generatePost')).toBe(2_000 + Math.round(0.99 * 120));
		expect(p.pauseLeft('generatePost')).toBe(1_000 + Math.round(0.99 * 120));
		expect(p.pauseLeft('listPosts')).toBe(0);
	});

	test('with exact window ends told, holds its lane for all of the delay', async () => {
		const p = new Pacer({ sleep: async () => undefined, now: () => 0, random: () => 0 });
		// Told by an answer to a counted call (a refusal's own exact end, answered at once, is not enough: quota-window.ts).
		p.settle(await p.acquire('generatePost'), { limit: 10, remaining: 1, resetAt: 2_000, windowMs: 2_000 }, 'answered');
		const slot = await p.acquire('generatePost');
		p.settle(slot, { limit: 10, remaining: 0, resetAt: 2_000, windowMs: 2_000 }, 'refused');
		expect(p.refused(2_000, 'generatePost')).toBe(2_000);
		expect(p.pauseLeft('generatePost')).toBe(2_000);
	});

	test('a delay told to the millisecond (`retry-after-ms`) holds its lane for all of the delay, without exact ends and however short; the refused call adds its jitter', () => {
		const p = new Pacer({ sleep: async () => undefined, now: () => 0, random: () => 0.99 });
		expect(p.refused(2_000, 'generatePost', { precisionMs: 0 })).toBe(2_000 + Math.round(0.99 * 120));
		expect(p.pauseLeft('generatePost')).toBe(2_000);
		// Under a second: a whole-second `Retry-After` would hold nothing here (no call of ours opened the window).
		expect(p.refused(600, 'listPosts', { precisionMs: 0 })).toBe(600 + Math.round(0.99 * 50));
		expect(p.pauseLeft('listPosts')).toBe(600);
		expect(p.refused(600, 'getPost')).toBe(600 + Math.round(0.99 * 50));
		expect(p.pauseLeft('getPost')).toBe(0);
	});

	test('a call refused in the last second of a whole-second delay finds the window not ended: the lane holds half of what is left, then the rest', async () => {
		let now = 0;
		const p = new Pacer({ sleep: async () => undefined, now: () => now, random: () => 0 });
		const first = await p.acquire('generatePost');
		p.settle(first, undefined, 'refused');
		expect(p.refused(3_000, 'generatePost')).toBe(3_000);
		const allowed = p.report('generatePost').allowedRate;
		expect(allowed).toBeDefined();
		// Held until 2 s; a call sent at 2.2 s is refused: the window ends after 2.2 s and by 3 s.
		now = 2_200;
		const tail = await p.acquire('generatePost');
		p.settle(tail, undefined, 'refused');
		expect(p.refused(800, 'generatePost')).toBe(800);
		expect(p.pauseLeft('generatePost')).toBe(400);
		// Refused again at 2.9 s: less than 0.1 s is left, and the lane holds all of it.
		now = 2_900;
		const last = await p.acquire('generatePost');
		p.settle(last, undefined, 'refused');
		p.refused(100, 'generatePost');
		expect(p.pauseLeft('generatePost')).toBe(100);
		// Calls refused in that second tell nothing of the rate the key allows: they do not cut it again.
		expect(p.report('generatePost').allowedRate).toBe(allowed);
	});

	test('within its precision (a whole second): its wait is returned; the lane is held only until the window our oldest call since opened ends, not at all when none of ours did', async () => {
		const clock = { now: 0 };
		const p = new Pacer({ sleep: async () => undefined, now: () => clock.now, random: () => 0.99 });
		// No call of ours in the window before: nothing holds the lane.
		expect(p.refused(1_000, 'generatePost')).toBe(1_000 + Math.round(0.99 * 70));
		expect(p.pauseLeft('generatePost')).toBe(0);
		// Our call at 0 was admitted (it opened the window); the one at 400 ms refused: held until 1 s and the margin (30 ms).
		const q = new Pacer({ sleep: async () => undefined, now: () => clock.now, random: () => 0.99 });
		const opener = await q.acquire('generatePost');
		await refuseAt(q, clock, 400, 1_000);
		expect(q.pauseLeft('generatePost')).toBe(1_030 - 400);
		// A later refusal with a longer delay is a new pause, not a step within the short one.
		clock.now = 500;
		q.settle(opener, { limit: 10, remaining: 0 }, 'answered');
		await refuseAt(q, clock, 500, 5_000, { waitedUntil: 1_030 });
		expect(q.pauseLeft('generatePost')).toBeGreaterThanOrEqual(5_000 - 1_000);
	});

	test("a refusal within a short delay's time holds again, until the window a later call of ours opened ends, and cuts the rate", async () => {
		const clock = { now: 0 };
		const p = new Pacer({ sleep: async () => undefined, now: () => clock.now, random: () => 0 });
		await p.acquire('generatePost');
		clock.now = 100;
		await p.acquire('generatePost');
		await refuseAt(p, clock, 400, 1_000);
		expect(p.pauseLeft('generatePost')).toBe(1_030 - 400);
		// Sent at 1,030 and refused at 1,040: the window began later than our call at 0 (it reached the server late).
		clock.now = 1_030;
		const again = await p.acquire('generatePost');
		clock.now = 1_040;
		const before = p.report('generatePost').rate;
		p.settle(again, undefined, 'refused');
		p.refused(1_000, 'generatePost');
		// Our call at 100 ms may have opened it: held until 1,130 ms.
		expect(p.pauseLeft('generatePost')).toBe(1_130 - 1_040);
		expect(p.report('generatePost').rate).toBeLessThan(before);
	});

	test('from refusals alone at 5 s a call, the rate grows with time, not round trips: 100 items near the quota-bound limit', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 5_000, limit: 10, windowMs: 1_000, headers: 'retry-after' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer });
		const results = await time.run(pool(100, 128, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(100);
		// Little's law: about 10 calls a second × 5 s in flight at once.
		expect(api.stats.maxInFlight).toBeGreaterThanOrEqual(40);
		// The quota-bound limit is (⌈100/10⌉ − 1) × 1 s + 5 s = 14 s (AIMD on calls in flight took 55 s here).
		expect(time.elapsed()).toBeLessThanOrEqual(14_000 * 1.25);
	});

	test('a limit and a remaining count without a reset never hold the calls for an end that cannot be told (12 × 10 at 1 s)', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'x-ratelimit-no-reset' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const runs = Array.from({ length: 12 }, (_, e) => new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer, party: `e${e}` }));
		const results = await time.run(Promise.all(runs.map((c, e) => pool(10, 10, (i) => c.generatePost({ prompt: `run ${e} item ${i}` })))));
		expect(results.flat().every((r) => r.ok)).toBe(true);
		// The quota-bound limit is (⌈120/10⌉ − 1) × 1 s + 1 s = 12 s (the pacing that waited for a reset took 103.7 s).
		expect(time.elapsed()).toBeLessThanOrEqual(12_000 * 1.25);
	});
});
