/**
 * One case of scenario S8's grid (scripts/lib/pacing-grid.ts) on virtual time: the processes (each its own
 * Pacer), their executions (one client each, on the process's pacer, a party of their own) and the items, all
 * at once through the client's Generate, against the fake service in the case's form. Each call reaches the
 * server 0–8 ms after it left (seeded), so that clients are not in step.
 */
import { PostWriterClient } from '../../shared/client';
import { Pacer } from '../../shared/pacing';
import type { RateControllerOptions } from '../../shared/pacing';
import { gridLimitMs, type GridCase, type GridResult, GRID_QUOTA } from '../../scripts/lib/pacing-grid';
import { fakeService, pool, virtualTime } from './virtual-time';

const BASE = 'https://api.test.example/api/v1';
/** A whole second (virtual-time's default start). */
const VIRTUAL_EPOCH_MS = 1_700_000_000_000;

export interface GridRunOptions {
	/** Seeds the arrival delays and the jitter. */
	seed?: number;
	/** The rate controller's constants, when not the defaults. */
	rate?: Partial<RateControllerOptions>;
	/** Process p starts p × this after the first (0: all together). */
	startSpreadMs?: number;
	/**
	 * Where in its second the clock starts. The server's windows start at the first call, anywhere in a second, and
	 * an HTTP date rounds their end up to the next whole second: at 0 the windows began on whole seconds, and the
	 * `Retry-After` date was as exact as a reset time (the real sandbox's was not: 1.27 × where seconds gave 1.14 ×).
	 */
	clockOffsetMs?: number;
}

export async function runGridCase(c: GridCase, options: GridRunOptions = {}): Promise<GridResult> {
	const { seed = 991, rate, startSpreadMs = 0, clockOffsetMs = 0 } = options;
	const time = virtualTime(VIRTUAL_EPOCH_MS + clockOffsetMs);
	const quota = c.window ?? GRID_QUOTA;
	const api = fakeService(time, { latencyMs: c.latencyMs, limit: quota.limit, windowMs: quota.windowMs, headers: c.form.fake, credits: 100_000, serverClockMs: c.serverClockMs });
	let s = seed;
	const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
	const send = async (request: Parameters<typeof api.send>[0]) => {
		await time.sleep(Math.floor(random() * 8));
		return api.send(request);
	};
	const { processes, executions, items } = c.clients;
	const results = await time.run(
		Promise.all(
			Array.from({ length: processes }, async (_, p) => {
				if (p > 0 && startSpreadMs > 0) await time.sleep(p * startSpreadMs);
				const pacer = new Pacer({ sleep: time.sleep, now: time.now, random, rate });
				const runs = Array.from({ length: executions }, (__, e) => new PostWriterClient({ baseUrl: BASE, send, sleep: time.sleep, now: time.now, random, pacer, party: `e${e}` }));
				const out = await Promise.all(runs.map((client, e) => pool(items, items, (i) => client.generatePost({ prompt: `p${p} e${e} i${i}` }))));
				return out.flat();
			}),
		),
	);
	const all = results.flat();
	const limitMs = gridLimitMs(c.clients, c.latencyMs, quota);
	return {
		form: c.form.id,
		latencyMs: c.latencyMs,
		clients: c.clients.id,
		wallMs: time.elapsed(),
		limitMs,
		ratio: time.elapsed() / limitMs,
		failed: all.filter((r) => !r.ok).length,
		credits: api.stats.charged,
		items: all.length,
		requests: api.sent.filter((x) => x.path === '/generate').length,
		refused429: api.stats.refused429,
		...(c.window ? { window: c.window.id, serverClockMs: c.serverClockMs ?? 0 } : {}),
	};
}
