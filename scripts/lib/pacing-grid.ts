/**
 * The grid of scenario S8 (issue 26): every way the service may tell its quota × latency × clients, at a quota
 * of 10 calls per 1 s on /generate. One definition for the unit test on virtual time
 * (test/grid/pacing-grid.test.ts) and the bench on the real sandbox (scripts/bench-s8.ts). Its extension
 * (issue 40, virtual time only: test/grid/pacing-windows.test.ts) adds windows of 10 s and 60 s, a server clock
 * 3 s ahead and 3 s behind, delays in milliseconds, resets as durations, and a 429 that says nothing.
 */

/** A way the answers tell the quota: its name in tables and charts, the virtual-time fake's mode, the sandbox's options. */
export interface GridForm {
	id: string;
	label: string;
	/** test/helpers/virtual-time.ts's HeaderMode. */
	fake: 'full' | 'x-ratelimit-no-reset' | 'ratelimit' | 'ietf' | 'retry-after' | 'retry-after-date' | 'retry-after-ms' | 'duration' | 'none';
	/** The sandbox's options for this form. */
	sandbox: { rateLimitHeaders: 'x-ratelimit' | 'ratelimit' | 'ietf' | 'retry-after' | 'retry-after-date' | 'none'; rateLimitReset?: boolean };
	/** The answers tell the quota (limit and more), not only a refusal's delay. */
	told: boolean;
	/** The answers name instants on the server's clock (an epoch reset, a date): the clock cases run it. */
	dates?: boolean;
}

export const GRID_FORMS: readonly GridForm[] = [
	{ id: 'xrl-reset', label: 'X-RateLimit-* with -Reset', fake: 'full', sandbox: { rateLimitHeaders: 'x-ratelimit', rateLimitReset: true }, told: true, dates: true },
	{ id: 'xrl-no-reset', label: 'X-RateLimit-*, no -Reset', fake: 'x-ratelimit-no-reset', sandbox: { rateLimitHeaders: 'x-ratelimit', rateLimitReset: false }, told: true },
	{ id: 'ratelimit-s', label: 'RateLimit-* (-Reset in s to wait)', fake: 'ratelimit', sandbox: { rateLimitHeaders: 'ratelimit' }, told: true },
	{ id: 'ietf', label: 'IETF RateLimit-Policy/RateLimit', fake: 'ietf', sandbox: { rateLimitHeaders: 'ietf' }, told: true },
	{ id: 'retry-after-s', label: 'Retry-After (s) only', fake: 'retry-after', sandbox: { rateLimitHeaders: 'retry-after' }, told: false },
	{ id: 'retry-after-date', label: 'Retry-After (HTTP date) only', fake: 'retry-after-date', sandbox: { rateLimitHeaders: 'retry-after-date' }, told: false, dates: true },
];

/** The forms the extension adds (virtual time only: the sandbox does not speak them). */
export const EXTRA_FORMS: readonly GridForm[] = [
	{ id: 'retry-after-ms', label: 'retry-after-ms only', fake: 'retry-after-ms', sandbox: { rateLimitHeaders: 'retry-after' }, told: false },
	{ id: 'duration', label: 'x-ratelimit-*-requests, reset as a duration', fake: 'duration', sandbox: { rateLimitHeaders: 'x-ratelimit' }, told: true },
	{ id: 'none', label: '429 with no field', fake: 'none', sandbox: { rateLimitHeaders: 'none' }, told: false },
];

export const GRID_LATENCIES_MS: readonly number[] = [200, 1_000, 5_000];

/** Who runs on the key: processes (each its own pacing), executions in each (one pacing, round robin), items per execution. */
export interface GridClients {
	id: string;
	label: string;
	processes: number;
	executions: number;
	items: number;
}

export const GRID_CLIENTS: readonly GridClients[] = [
	{ id: '1x100', label: '1 execution × 100 items', processes: 1, executions: 1, items: 100 },
	{ id: '12x10', label: '12 executions × 10 items', processes: 1, executions: 12, items: 10 },
	{ id: '3x4x20', label: '3 processes × 4 × 20', processes: 3, executions: 4, items: 20 },
];

export const GRID_QUOTA = { limit: 10, windowMs: 1_000 };

/** A quota's window and limit. The longer windows' limits are scaled so that each case spans at least 4 windows (100 items ÷ 25). */
export interface GridWindow {
	id: string;
	limit: number;
	windowMs: number;
}

export const GRID_WINDOWS: readonly GridWindow[] = [
	{ id: '10/1s', ...GRID_QUOTA },
	{ id: '25/10s', limit: 25, windowMs: 10_000 },
	{ id: '25/60s', limit: 25, windowMs: 60_000 },
];

/** The server's clock from ours in the clock cases (ms): 3 s ahead and 3 s behind, as clocks seconds apart are common. */
export const GRID_CLOCKS_MS: readonly number[] = [3_000, -3_000];

/** The targets of issue 26. */
export const GRID_TARGETS = {
	/** Wall ÷ quota-bound limit, one process and three. */
	ratioOneProcess: 1.25,
	ratioProcesses: 1.35,
	/** Share of requests answered 429: where the answers tell the quota, and where only refusals do. */
	share429Told: 0.1,
	share429Refusals: 0.25,
	/** A header form no slower than this × the Retry-After-only case of the same latency and clients. */
	vsRetryAfter: 1.05,
};

/** The targets of issue 40, over the extended grid (every window, clock and form). */
export const WINDOW_TARGETS = {
	ratioOneProcess: 1.15,
	ratioProcesses: 1.25,
	/** The fullest answers (limit, remaining, exact reset) in one process. */
	ratioFullest: 1.05,
	share429Told: 0.1,
	share429Refusals: 0.25,
	vsRetryAfter: 1.03,
};

/** The quota-bound limit (⌈N/Q⌉ − 1) × W + L of a case. */
export function gridLimitMs(clients: GridClients, latencyMs: number, quota: { limit: number; windowMs: number } = GRID_QUOTA): number {
	const n = clients.processes * clients.executions * clients.items;
	return (Math.ceil(n / quota.limit) - 1) * quota.windowMs + latencyMs;
}

export interface GridCase {
	form: GridForm;
	latencyMs: number;
	clients: GridClients;
	/** The quota's window (S8's: 10 per 1 s). */
	window?: GridWindow;
	/** The server's clock from ours (ms; 0 when left out). */
	serverClockMs?: number;
}

/**
 * The cases S8 adds on the real sandbox (issue 40): a window of 10 s, one execution of 100 items at L = 1 s, for the
 * fullest answers, the IETF fields, `Retry-After` in seconds alone, and a 429 that says nothing.
 */
export function s8WindowCases(): GridCase[] {
	const window = GRID_WINDOWS.find((w) => w.id === '25/10s') as GridWindow;
	const clients = GRID_CLIENTS.find((c) => c.id === '1x100') as GridClients;
	return ['xrl-reset', 'ietf', 'retry-after-s', 'none'].map((id) => ({ form: [...GRID_FORMS, ...EXTRA_FORMS].find((f) => f.id === id) as GridForm, latencyMs: 1_000, clients, window }));
}

/**
 * The extension's cases: every form (S8's and EXTRA_FORMS) × window × latency × clients on the server's clock
 * as ours, and the forms with dates again with the clock 3 s ahead and behind. S8's own cases (1 s window, the
 * six forms, same clock) are left to gridCases().
 */
export function windowCases(): GridCase[] {
	const out: GridCase[] = [];
	for (const window of GRID_WINDOWS)
		for (const clients of GRID_CLIENTS)
			for (const latencyMs of GRID_LATENCIES_MS)
				for (const form of [...GRID_FORMS, ...EXTRA_FORMS]) {
					const s8 = window.windowMs === GRID_QUOTA.windowMs && GRID_FORMS.includes(form);
					if (!s8) out.push({ form, latencyMs, clients, window });
					if (form.dates) for (const serverClockMs of GRID_CLOCKS_MS) out.push({ form, latencyMs, clients, window, serverClockMs });
				}
	return out;
}

export function gridCases(): GridCase[] {
	const out: GridCase[] = [];
	for (const clients of GRID_CLIENTS) for (const latencyMs of GRID_LATENCIES_MS) for (const form of GRID_FORMS) out.push({ form, latencyMs, clients });
	return out;
}

/** What one case measured. */
export interface GridResult {
	form: string;
	latencyMs: number;
	clients: string;
	wallMs: number;
	limitMs: number;
	ratio: number;
	failed: number;
	credits: number;
	items: number;
	requests: number;
	refused429: number;
	/** When the case ran several times (the result is their mean): each run's wall ÷ limit, in order. */
	runRatios?: number[];
	/** The window's id and the server's clock, in the extension's cases. */
	window?: string;
	serverClockMs?: number;
}
