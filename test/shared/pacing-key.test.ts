/**
 * One key, many runs (shared/pacing.ts), on virtual time: the registry that
 * gives every run on a key the same pacing, round robin across the parties
 * (executions) of a key, the share of the window between clients that share
 * nothing but the server, and AIMD when the answers tell no quota.
 */
import { PostWriterClient } from '../../shared/client';
import { AUTO_IN_FLIGHT, Pacer, PacerRegistry } from '../../shared/pacing';
import { fakeService, pool, virtualTime } from '../helpers/virtual-time';

const BASE = 'https://api.test.example/api/v1';
const KEY = 'pw_live_0123456789abcdefSECRET';

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
	test('each takes a share of the window once it sees the others; together they finish near the quota-bound limit with few refusals', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacers = [0, 1, 2].map((i) => new Pacer({ sleep: time.sleep, now: time.now, random: () => (i + 0.5) / 3 }));
		const clients = pacers.map((pacer) => new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer }));
		const shares: Array<Array<number | undefined>> = [];
		const sample = async () => {
			for (let t = 0; t < 8; t++) {
				await time.sleep(1_000);
				shares.push(pacers.map((p) => p.report('generatePost').share));
			}
		};
		const [results] = await time.run(Promise.all([Promise.all(clients.map((c, k) => pool(40, 40, (i) => c.generatePost({ prompt: `client ${k} item ${i}` })))), sample()]));
		expect(results.flat().every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(120);
		// Mid-run, each saw the others and took a share, about a third of the window each (the limit less a call of slack).
		const mid = shares[5];
		for (const share of mid) expect(share).toBeGreaterThanOrEqual(2);
		for (const share of mid) expect(share).toBeLessThanOrEqual(4.5);
		// The quota-bound limit is (⌈120/10⌉ − 1) × 1 s + 1 s = 12 s.
		expect(time.elapsed()).toBeLessThanOrEqual(12_000 * 1.35);
		expect(api.stats.refused429 / api.sent.length).toBeLessThanOrEqual(0.15);
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
		// Alone, its windows are foretold from its first call after the last end told, not from an end foretold while others were on the key:
		// no burst is refused at a foretold end that came early (4 calls refused in each of its last windows before).
		expect(api.answers.filter((a) => a.status === 429 && a.at - start >= othersDoneAt + 2_000)).toEqual([]);
		// The quota-bound limit is (⌈90/10⌉ − 1) × 1 s + 1 s = 9 s; fair shares let the two small runs finish first (about 5 s),
		// then the one left has about 40 calls to make on its own: about 11 s at best, and the answers tell it a second late.
		expect(time.elapsed()).toBeLessThanOrEqual(13_000);
	});

	test('alone with fast answers, each window starts when the last one ends: a foretold end (a little late on purpose) gives way to the one the answers tell', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 2, limit: 10, windowMs: 1_000, headers: 'full' });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer: new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 }) });
		await time.run(pool(100, 100, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(api.stats.refused429).toBe(0);
		// (⌈100/10⌉ − 1) × 1 s + 2 ms: no window waits for its foretold end (20 ms late) once an answer told the true one.
		expect(time.elapsed()).toBeLessThanOrEqual(9_000 + 2 + 5);
	});

	test('alone on the key, a client never sees others: it takes the whole window', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0 });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, pacer });
		await time.run(pool(50, 50, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(pacer.report('generatePost')).toMatchObject({ limit: 10, windowMs: 1_000, othersSeen: false, share: undefined });
	});
});

describe('AIMD when the answers tell no quota', () => {
	function slot(p: Pacer) {
		return p.acquire('generatePost');
	}

	test('slow start: a few calls at first, one more per answer; a refusal cuts the calls in flight to 0.7 of what they were, once per round trip', async () => {
		let now = 0;
		const p = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0 });
		expect(p.report('generatePost').inFlightLimit).toBe(AUTO_IN_FLIGHT.initial);
		const first = await slot(p);
		now += 100;
		p.settle(first, {}, 'answered');
		const grown = p.report('generatePost').inFlightLimit;
		expect(grown).toBe(AUTO_IN_FLIGHT.initial + 1);
		const a = await slot(p);
		const b = await slot(p);
		now += 50;
		p.settle(a, {}, 'refused');
		expect(p.report('generatePost').inFlightLimit).toBe(Math.floor(grown * 0.7));
		// A second refusal of a call sent before the cut is the same congestion: no second cut.
		p.settle(b, {}, 'refused');
		expect(p.report('generatePost').inFlightLimit).toBe(Math.floor(grown * 0.7));
	});

	test('a refusal met on coming back from the pause is the same crowding: one cut, not one per refusal; a crowding two round trips later cuts again, never below 2 calls in flight', async () => {
		let now = 0;
		const p = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0 });
		const first = await slot(p);
		now += 100;
		p.settle(first, {}, 'answered');
		expect(p.report('generatePost').inFlightLimit).toBe(AUTO_IN_FLIGHT.initial + 1);
		// Slow start: one more per answer.
		for (let i = 0; i < 6; i++) {
			const s = await slot(p);
			now += 100;
			p.settle(s, {}, 'answered');
		}
		const grown = AUTO_IN_FLIGHT.initial + 7;
		expect(p.report('generatePost').inFlightLimit).toBe(grown);
		const a = await slot(p);
		now += 10;
		p.settle(a, {}, 'refused');
		const cut = p.report('generatePost').inFlightLimit;
		expect(cut).toBe(Math.floor(grown * 0.7));
		// Back from the server's delay, the window is still crowded: this refusal is the same event.
		now += 1_200;
		const b = await slot(p);
		now += 10;
		p.settle(b, {}, 'refused');
		expect(p.report('generatePost').inFlightLimit).toBe(cut);
		// Two round trips later, a refusal is a new crowding.
		let wait = 1_000;
		const crowding = async () => {
			now += wait;
			wait = 2_000;
			const c = await slot(p);
			now += 10;
			p.settle(c, {}, 'refused');
			return p.report('generatePost').inFlightLimit;
		};
		expect(await crowding()).toBe(Math.floor(cut * 0.7));
		// Never below 2 (TCP's floor): a client cut to one call per round trip climbs back too slowly once the others are done.
		expect(await crowding()).toBe(2);
		expect(await crowding()).toBe(2);
	});

	test('a Retry-After alone (no quota told) is waited in full, plus a small jitter (5 % + 20 ms); with the quota known and others on the key, the jitter spreads over half the window', async () => {
		let now = 0;
		const p = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0.99 });
		p.pause(1_000, 'generatePost');
		expect(p.pauseLeft('generatePost')).toBe(1_000 + Math.round(0.99 * 70));
		// The quota known (10 per 1 s) and 7 calls of another client counted beside ours.
		const q = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0.99 });
		const slot = await q.acquire('generatePost');
		q.settle(slot, { limit: 10, remaining: 2, resetAt: now + 1_000, windowMs: 1_000 }, 'answered');
		expect(q.report('generatePost').othersSeen).toBe(true);
		q.pause(1_000, 'generatePost');
		expect(q.pauseLeft('generatePost')).toBe(1_000 + Math.round(0.99 * 500));
	});

	test('three clients with only Retry-After on a 429 (S6 on virtual time): every item charged once, near the quota-bound limit', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'retry-after', credits: 10_000 });
		let seed = 991;
		const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
		// Each call reaches the server 0–8 ms after it left, so that the three clients are not in step.
		const send = async (request: Parameters<typeof api.send>[0]) => {
			await time.sleep(Math.floor(random() * 8));
			return api.send(request);
		};
		const results = await time.run(
			Promise.all(
				[0, 1, 2].map(async (k) => {
					const pacer = new Pacer({ sleep: time.sleep, now: time.now, random });
					const runs = [0, 1, 2, 3].map((e) => new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random, pacer, party: `e${e}` }));
					const out = await Promise.all(runs.map((c, e) => pool(20, 20, (i) => c.generatePost({ prompt: `client ${k} run ${e} item ${i}` }))));
					return out.flat();
				}),
			),
		);
		expect(results.flat().every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(240);
		// The quota-bound limit is (⌈240/10⌉ − 1) × 1 s + 1 s = 24 s: 29.0 s here (1.21 ×); 32.3 s (1.35 ×) with a floor of 1 call in flight and half a second of jitter.
		expect(time.elapsed()).toBeLessThanOrEqual(24_000 * 1.25);
	});

	test('only Retry-After on a 429: a batch completes, every item charged once, most calls not refused', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 300, limit: 8, windowMs: 1_000, headers: 'retry-after' });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5 });
		const results = await time.run(pool(80, 80, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(results.every((r) => r.ok)).toBe(true);
		expect(api.stats.charged).toBe(80);
		expect(api.stats.refused429 / api.sent.length).toBeLessThanOrEqual(0.25);
		// It grew past the first few calls.
		expect(api.stats.maxInFlight).toBeGreaterThan(AUTO_IN_FLIGHT.initial);
	});
});

describe('the IETF fields alone (RateLimit-Policy and RateLimit)', () => {
	test('the stated window paces the calls (its end is known only to the second): a batch goes window after window, without a stale count stalling it', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'ietf' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0 });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0, pacer });
		const results = await time.run(pool(60, 60, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(results.every((r) => r.ok)).toBe(true);
		expect(pacer.report('generatePost')).toMatchObject({ limit: 10, windowMs: 1_000 });
		// Only the slow start of the first window meets refusals.
		expect(api.stats.refused429).toBeLessThanOrEqual(10);
		// (⌈60/10⌉ − 1) × 1 s + 1 s = 6 s, plus the first refusal's whole second and the sliding window's small margin.
		expect(time.elapsed()).toBeLessThanOrEqual(6_000 * 1.25);
	});
});

describe('a refusal whose delay is only whole seconds (the IETF t)', () => {
	test('comes back in the middle of the last second, not at its end; a Retry-After is waited in full', async () => {
		let now = 10_000;
		const p = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0.99 });
		const slot = await p.acquire('generatePost');
		p.settle(slot, { limit: 10, remaining: 0, windowMs: 1_000 }, 'refused');
		p.pause(2_000, 'generatePost', { coarse: true });
		expect(p.pauseLeft('generatePost')).toBe(1_500);
		const q = new Pacer({ sleep: async (ms) => void (now += ms), now: () => now, random: () => 0 });
		const s2 = await q.acquire('generatePost');
		q.settle(s2, { limit: 10, remaining: 0, resetAt: now + 2_000 }, 'refused');
		q.pause(2_000, 'generatePost');
		expect(q.pauseLeft('generatePost')).toBeGreaterThanOrEqual(2_000);
	});
});

describe('alone on the key, the first windows (slow start, then windows that start with their first call)', () => {
	/** A send that reaches the server 0–`jitterMs` after it left (seeded), so that calls sent together may be counted out of order. */
	function jittered(time: ReturnType<typeof virtualTime>, api: ReturnType<typeof fakeService>, jitterMs: number, seed = 7919) {
		let s = seed;
		const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
		return async (request: Parameters<typeof api.send>[0]) => {
			await time.sleep(random() * jitterMs);
			return api.send(request);
		};
	}
	const refusedAt = (time: ReturnType<typeof virtualTime>, api: ReturnType<typeof fakeService>) => {
		const start = time.now() - time.elapsed();
		return api.answers.filter((a) => a.status === 429).map((a) => Math.round(a.at - start));
	};

	test('the slow start adds its calls one at a time, and once at the most allowed it waits for an answer (no timer spins while slow answers are on their way)', async () => {
		let now = 0;
		const sleeps: number[] = [];
		const p = new Pacer({
			sleep: async (ms) => {
				sleeps.push(ms);
				if (sleeps.length > 1_000) throw new Error('the pacer spins on its timer');
				now += ms;
			},
			now: () => now,
			random: () => 0,
		});
		const slots = [];
		const times: number[] = [];
		for (let i = 0; i < AUTO_IN_FLIGHT.max; i++) {
			slots.push(await p.acquire('generatePost'));
			times.push(now);
		}
		// 3 at once, then one by one: the 4th call goes at 250 × log2(4/3) ≈ 104 ms, not with two others at 250 ms.
		expect(times.slice(0, 3)).toEqual([0, 0, 0]);
		expect(times[3]).toBeGreaterThan(100);
		expect(times[3]).toBeLessThan(110);
		expect(new Set(times.slice(3)).size).toBe(AUTO_IN_FLIGHT.max - 3);
		// At the most allowed, with every answer still on its way (an AI model at 15 s a call), the next caller waits for an answer.
		now = 15_000;
		const before = sleeps.length;
		let got = false;
		const next = p.acquire('generatePost').then((slot) => {
			got = true;
			return slot;
		});
		for (let i = 0; i < 20; i++) await Promise.resolve();
		expect(got).toBe(false);
		expect(sleeps.length - before).toBeLessThanOrEqual(1);
		p.settle(slots[0], {}, 'answered');
		expect((await next).ticket).toBe(AUTO_IN_FLIGHT.max + 1);
	});

	test.each([5_000, 15_000])('slow answers (L = %i ms): the refusals of the slow start tell the whole window, and no later window is refused', async (latencyMs) => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const client = new PostWriterClient({ baseUrl: BASE, send: jittered(time, api, 5), sleep: time.sleep, now: time.now, random: () => 0.5, pacer });
		await time.run(pool(100, 100, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(api.stats.charged).toBe(100);
		// Only the overshoot of the slow start, in the first window: a refusal, sent late in its window, no longer
		// foretells the next window's end from its own short span (the window it found full began with our first call).
		expect(refusedAt(time, api).every((at) => at < 1_000)).toBe(true);
		expect(api.stats.refused429).toBeLessThanOrEqual(2);
		// The window's length as the resets show it: 1 s, and the few ms a call takes to reach the server (a window starts with its first call).
		const report = pacer.report('generatePost');
		expect(report.othersSeen).toBe(false);
		expect(report.windowMs).toBeGreaterThanOrEqual(1_000);
		expect(report.windowMs).toBeLessThanOrEqual(1_030);
		// The quota-bound limit: (⌈100/10⌉ − 1) × 1 s + L.
		expect(time.elapsed()).toBeLessThanOrEqual((9_000 + latencyMs) * 1.03);
	});

	test('after the pause of a refusal, the next window starts with its first call: its end is foretold from that call, not from the end of the one before', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const client = new PostWriterClient({ baseUrl: BASE, send: api.send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer });
		await time.run(pool(200, 200, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(api.stats.charged).toBe(200);
		expect(refusedAt(time, api).every((at) => at < 1_000)).toBe(true);
		expect(api.stats.refused429).toBeLessThanOrEqual(2);
		expect(time.elapsed()).toBeLessThanOrEqual(20_000 * 1.03);
	});

	test('answers that come back as their window ends (L = W) start the next window at the told end, not at the foretold one (a slow first connection made the window look longer)', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		// The first call opens the connection (50 ms to the server); later calls take 2 ms.
		let calls = 0;
		const send = async (request: Parameters<typeof api.send>[0]) => {
			await time.sleep(calls++ === 0 ? 50 : 2);
			return api.send(request);
		};
		const client = new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer });
		await time.run(pool(200, 200, (i) => client.generatePost({ prompt: `item ${i}` })));
		expect(api.stats.charged).toBe(200);
		expect(api.stats.refused429).toBeLessThanOrEqual(2);
		// The window looks 1,050 ms long from the first call's span, and each foretold end is later still: waiting for it
		// costs tens of ms a window; the told end costs the 2 ms a call takes to reach the server.
		// The quota-bound limit (20 s), the first call's 50 ms, and at most 5 ms a window for the 19 windows after the first.
		expect(time.elapsed()).toBeLessThanOrEqual(50 + 20_000 + 19 * 5);
	});

	test('calls sent together and counted out of order (the network keeps no order) are not taken for another client', async () => {
		const time = virtualTime();
		const api = fakeService(time, { latencyMs: 1_000, limit: 10, windowMs: 1_000, headers: 'full' });
		const pacer = new Pacer({ sleep: time.sleep, now: time.now, random: () => 0.5 });
		const send = jittered(time, api, 8);
		const executions = Array.from({ length: 12 }, (_, k) => new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random: () => 0.5, pacer, party: `execution ${k}` }));
		await time.run(Promise.all(executions.map((c, k) => pool(10, 10, (i) => c.generatePost({ prompt: `execution ${k} item ${i}` })))));
		expect(api.stats.charged).toBe(120);
		expect(pacer.report('generatePost')).toMatchObject({ othersSeen: false, share: undefined });
		expect(api.stats.refused429).toBeLessThanOrEqual(2);
		expect(time.elapsed()).toBeLessThanOrEqual(12_000 * 1.03);
	});
});
