/**
 * Virtual time for the core's concurrency tests: a clock and a sleep that
 * move only when every pending promise is stuck on a timer, and a fake
 * Post Writer service on that clock (latency per call, a fixed-window quota
 * on /generate with the headers of your choice, a credit balance).
 * Nothing waits for real time; a run that can never finish throws.
 */
import type { HttpRequest, HttpResponse } from '../../shared/base';

export interface VirtualTime {
	now(): number;
	sleep(ms: number): Promise<void>;
	/** Drives time until `work` settles; returns its value (or throws its error). */
	run<T>(work: Promise<T>): Promise<T>;
	/** Elapsed virtual ms since the start. */
	elapsed(): number;
}

export function virtualTime(start = 1_700_000_000_000): VirtualTime {
	let now = start;
	let seq = 0;
	const timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
	const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
	return {
		now: () => now,
		elapsed: () => now - start,
		sleep: (ms) =>
			new Promise<void>((resolve) => {
				timers.push({ at: now + Math.max(0, ms), seq: seq++, resolve });
			}),
		async run<T>(work: Promise<T>): Promise<T> {
			let state: { done: false } | { done: true; ok: true; value: T } | { done: true; ok: false; error: unknown } = { done: false };
			work.then(
				(value) => (state = { done: true, ok: true, value }),
				(error: unknown) => (state = { done: true, ok: false, error }),
			);
			for (let guard = 0; guard < 1_000_000; guard++) {
				await flush();
				if (state.done) break;
				if (timers.length === 0) throw new Error('stuck: the work is pending and no timer is set');
				timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
				const next = timers.shift() as (typeof timers)[number];
				now = Math.max(now, next.at);
				next.resolve();
			}
			const end = state as unknown as { done: true; ok: true; value: T } | { done: true; ok: false; error: unknown };
			if (!end.ok) throw end.error;
			return end.value;
		},
	};
}

/**
 * What the answers say of the quota:
 * - 'none': nothing (a 429 without a delay);
 * - 'retry-after' / 'retry-after-date': only `Retry-After` on a 429, in whole seconds (rounded up) or as an HTTP date (rounded up to the second);
 * - 'full': `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds to the millisecond) on every answer, `Retry-After` on a 429;
 * - 'x-ratelimit-no-reset': `X-RateLimit-Limit` and `-Remaining` on every answer, `Retry-After` on a 429;
 * - 'ratelimit': `RateLimit-Limit`, `-Remaining` and `-Reset` (seconds to wait, whole, rounded up) on every answer, nothing else;
 * - 'ietf': the IETF fields only (`RateLimit-Policy` q and w, `RateLimit` r and t in whole seconds) on every answer;
 * - 'retry-after-ms': only `retry-after-ms` on a 429 (milliseconds, as several AI APIs send);
 * - 'duration': `x-ratelimit-limit-requests`, `-remaining-requests` and `-reset-requests` as a duration (`850ms`,
 *   `1m30.5s`, Go's form) on every answer, nothing else.
 * Every answer carries a `Date` header on the server's clock (serverClockMs from ours), as every HTTP server's does.
 */
export type HeaderMode = 'none' | 'retry-after' | 'retry-after-date' | 'retry-after-ms' | 'full' | 'x-ratelimit-no-reset' | 'ratelimit' | 'ietf' | 'duration';

/** A delay in Go's Duration form, as OpenAI-style APIs write it: `850ms` under a second, else `1m30.5s`, `6m0s`, `12.25s`. */
export function goDuration(ms: number): string {
	const whole = Math.max(0, Math.round(ms));
	if (whole < 1_000) return `${whole}ms`;
	const minutes = Math.floor(whole / 60_000);
	const seconds = (whole % 60_000) / 1_000;
	return `${minutes > 0 ? `${minutes}m` : ''}${seconds}s`;
}

export interface FakeServiceOptions {
	latencyMs?: number;
	/** /generate quota per window (default: none). */
	limit?: number;
	windowMs?: number;
	/** What the answers say of the quota: nothing, Retry-After on 429 only, X-RateLimit-Limit/Remaining/Reset on every answer (and Retry-After on 429), or the IETF fields only (RateLimit-Policy q and w, RateLimit r and t in whole seconds, on every answer). */
	headers?: HeaderMode;
	/** The server's clock, this far (ms) from ours: its `Date`, its dates and epochs are on it. */
	serverClockMs?: number;
	credits?: number;
	/** Answers scripted by the order of arrival of POST /generate (1-based): a status, or a dropped connection after the charge. */
	script?: Record<number, { status: number; body?: unknown; headers?: Record<string, string> } | 'reset-after-charge'>;
}

export interface SentCall {
	method: string;
	path: string;
	at: number;
}

/** A fake service on virtual time: /generate (1 credit), /credits; counts what it received and how it answered. */
export function fakeService(time: VirtualTime, options: FakeServiceOptions = {}) {
	const latency = options.latencyMs ?? 0;
	const mode = options.headers ?? 'full';
	const skew = options.serverClockMs ?? 0;
	let credits = options.credits ?? 1_000;
	let window = { start: -Infinity, count: 0 };
	let generates = 0;
	let inFlight = 0;
	const sent: SentCall[] = [];
	const answers: Array<{ path: string; status: number | 'reset'; at: number }> = [];
	const stats = { maxInFlight: 0, refused429: 0, charged: 0 };

	const quotaHeaders = (remaining: number, resetAt: number): Record<string, string> => {
		if (mode === 'full') return { 'X-RateLimit-Limit': String(options.limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': ((resetAt + skew) / 1000).toFixed(3) };
		if (mode === 'duration') return { 'x-ratelimit-limit-requests': String(options.limit), 'x-ratelimit-remaining-requests': String(remaining), 'x-ratelimit-reset-requests': goDuration(resetAt - time.now()) };
		if (mode === 'x-ratelimit-no-reset') return { 'X-RateLimit-Limit': String(options.limit), 'X-RateLimit-Remaining': String(remaining) };
		if (mode === 'ratelimit') {
			const t = Math.max(1, Math.ceil((resetAt - time.now()) / 1000));
			return { 'RateLimit-Limit': String(options.limit), 'RateLimit-Remaining': String(remaining), 'RateLimit-Reset': String(t) };
		}
		if (mode === 'ietf') {
			const w = Math.ceil((options.windowMs ?? 1_000) / 1000);
			const t = Math.max(0, Math.ceil((resetAt - time.now()) / 1000));
			return { 'RateLimit-Policy': `"generate";q=${options.limit};w=${w}`, RateLimit: `"generate";r=${remaining};t=${t}` };
		}
		return {};
	};

	const answer = async (path: string, status: number, body: unknown, headers: Record<string, string> = {}, delay = latency): Promise<HttpResponse> => {
		if (delay > 0) await time.sleep(delay);
		answers.push({ path, status, at: time.now() });
		return { status, headers: { Date: new Date(time.now() + skew).toUTCString(), ...headers }, body: JSON.stringify(body) };
	};

	const send = async (request: HttpRequest): Promise<HttpResponse> => {
		const path = new URL(request.url).pathname.replace(/^.*\/api\/v1/, '');
		const at = time.now();
		sent.push({ method: request.method, path, at });
		inFlight++;
		stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
		try {
			if (path === '/credits') return await answer(path, 200, { balance: credits, history: [] });
			const n = ++generates;
			const scripted = options.script?.[n];
			let rate: Record<string, string> = {};
			if (options.limit !== undefined) {
				const windowMs = options.windowMs ?? 1_000;
				if (at >= window.start + windowMs) window = { start: at, count: 0 };
				const resetAt = window.start + windowMs;
				if (window.count >= options.limit) {
					stats.refused429++;
					const retry: Record<string, string> =
						mode === 'none' || mode === 'ietf' || mode === 'ratelimit' || mode === 'duration'
							? {}
							: mode === 'retry-after-date'
								? { 'Retry-After': new Date(Math.ceil((resetAt + skew) / 1000) * 1000).toUTCString() }
								: mode === 'retry-after-ms'
									? { 'retry-after-ms': String(resetAt - at) }
									: { 'Retry-After': String(Math.max(1, Math.ceil((resetAt - at) / 1000))) };
					// The gateway refuses at once.
					return await answer(path, 429, { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' } }, { ...retry, ...quotaHeaders(0, resetAt) }, 0);
				}
				window.count++;
				rate = quotaHeaders(options.limit - window.count, resetAt);
			}
			if (scripted && scripted !== 'reset-after-charge') {
				if (scripted.status === 429) stats.refused429++;
				return await answer(path, scripted.status, scripted.body ?? {}, scripted.headers ?? {});
			}
			if (credits < 1) return await answer(path, 402, { error: { code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits' } }, rate);
			credits--;
			stats.charged++;
			const remaining = credits;
			if (scripted === 'reset-after-charge') {
				if (latency > 0) await time.sleep(latency);
				answers.push({ path, status: 'reset', at: time.now() });
				throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			}
			return await answer(path, 200, { proposals: ['A post'], draftId: null, creditsRemaining: remaining }, rate);
		} finally {
			inFlight--;
		}
	};
	return { send, sent, answers, stats, balance: () => credits };
}

/** Runs `count` tasks with at most `concurrency` at once (the n8n node's pool, reduced to its core). */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<Array<{ ok: true; value: T } | { ok: false; error: unknown }>> {
	const out: Array<{ ok: true; value: T } | { ok: false; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const i = next++;
			try {
				out[i] = { ok: true, value: await task(i) };
			} catch (error) {
				out[i] = { ok: false, error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return out;
}
