/**
 * The grid of scenario S8 (issue 26): every way the service may tell its quota × latency × clients, at a quota
 * of 10 calls per 1 s on /generate. One definition for the unit test on virtual time
 * (test/grid/pacing-grid.test.ts) and the bench on the real sandbox (scripts/bench-s8.ts).
 */

/** A way the answers tell the quota: its name in tables and charts, the virtual-time fake's mode, the sandbox's options. */
export interface GridForm {
	id: string;
	label: string;
	/** test/helpers/virtual-time.ts's HeaderMode. */
	fake: 'full' | 'x-ratelimit-no-reset' | 'ratelimit' | 'ietf' | 'retry-after' | 'retry-after-date';
	/** The sandbox's options for this form. */
	sandbox: { rateLimitHeaders: 'x-ratelimit' | 'ratelimit' | 'ietf' | 'retry-after' | 'retry-after-date'; rateLimitReset?: boolean };
	/** The answers tell the quota (limit and more), not only a refusal's delay. */
	told: boolean;
}

export const GRID_FORMS: readonly GridForm[] = [
	{ id: 'xrl-reset', label: 'X-RateLimit-* with -Reset', fake: 'full', sandbox: { rateLimitHeaders: 'x-ratelimit', rateLimitReset: true }, told: true },
	{ id: 'xrl-no-reset', label: 'X-RateLimit-*, no -Reset', fake: 'x-ratelimit-no-reset', sandbox: { rateLimitHeaders: 'x-ratelimit', rateLimitReset: false }, told: true },
	{ id: 'ratelimit-s', label: 'RateLimit-* (-Reset in s to wait)', fake: 'ratelimit', sandbox: { rateLimitHeaders: 'ratelimit' }, told: true },
	{ id: 'ietf', label: 'IETF RateLimit-Policy/RateLimit', fake: 'ietf', sandbox: { rateLimitHeaders: 'ietf' }, told: true },
	{ id: 'retry-after-s', label: 'Retry-After (s) only', fake: 'retry-after', sandbox: { rateLimitHeaders: 'retry-after' }, told: false },
	{ id: 'retry-after-date', label: 'Retry-After (HTTP date) only', fake: 'retry-after-date', sandbox: { rateLimitHeaders: 'retry-after-date' }, told: false },
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

/** The quota-bound limit (⌈N/Q⌉ − 1) × W + L of a case. */
export function gridLimitMs(clients: GridClients, latencyMs: number): number {
	const n = clients.processes * clients.executions * clients.items;
	return (Math.ceil(n / GRID_QUOTA.limit) - 1) * GRID_QUOTA.windowMs + latencyMs;
}

export interface GridCase {
	form: GridForm;
	latencyMs: number;
	clients: GridClients;
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
}
