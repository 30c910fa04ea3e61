/**
 * The options of a sandbox: the defaults (README.md, "Options"), and how a
 * partial set is merged into the options in force (faults, quota and keys key
 * by key) and checked (an unknown shape or order is refused).
 */
import { DAY_MS } from './clock';
import { ERROR_SHAPES } from './api-errors';
import { DEFAULT_QUOTAS } from './faults';
import { LIST_SHAPES } from './paging';
import { RECORD_SHAPES } from './shapes';
import { LIST_ORDERS, RATE_LIMIT_HEADERS } from './types';
import type { FaultOptions, Quotas, SandboxKeys, SandboxOptions } from './types';

/** The options of a sandbox started with none. */
export function defaults(): SandboxOptions {
	return {
		port: 0,
		now: Date.now(),
		clockTicks: false,
		seed: 1,
		keySeed: '',
		keys: {},
		credits: 100,
		seedData: true,
		seedPosts: 12,
		errorShape: 'nested',
		listShape: 'data-cursor',
		listOrder: 'newest-first',
		recordShape: 'native',
		retryHeader: 'seconds',
		rateLimitReset: false,
		rateLimitHeaders: 'x-ratelimit',
		quota: { ...DEFAULT_QUOTAS },
		faults: {},
		faultAfterHandling: false,
		creationLatencyMs: 0,
		workflowBusyStatus: 409,
		validateReadyAfterRefines: 0,
		workflowLifetimeMs: 7 * DAY_MS,
		maxBodyBytes: 64 * 1024,
	};
}

/** `partial` merged into `base`; throws on a value the sandbox does not know. */
export function mergeOptions(base: SandboxOptions, partial: Partial<SandboxOptions>): SandboxOptions {
	const next: SandboxOptions = { ...base };
	for (const [k, v] of Object.entries(partial) as [keyof SandboxOptions, unknown][]) {
		if (v === undefined) continue;
		if (k === 'faults') next.faults = { ...base.faults, ...(v as FaultOptions) };
		else if (k === 'quota') next.quota = { ...base.quota, ...(v as Partial<Quotas>) };
		else if (k === 'keys') next.keys = { ...base.keys, ...(v as Partial<SandboxKeys>) };
		else (next as unknown as Record<string, unknown>)[k] = v;
	}
	if (!LIST_SHAPES.includes(next.listShape)) throw new Error(`listShape must be one of ${LIST_SHAPES.join(', ')}, got ${String(next.listShape)}`);
	if (next.listPageMax !== undefined && !(Number.isInteger(next.listPageMax) && next.listPageMax >= 1)) throw new Error(`listPageMax must be a whole number of at least 1, got ${String(next.listPageMax)}`);
	if (!LIST_ORDERS.includes(next.listOrder)) throw new Error(`listOrder must be one of ${LIST_ORDERS.join(', ')}, got ${String(next.listOrder)}`);
	if (!ERROR_SHAPES.includes(next.errorShape)) throw new Error(`errorShape must be one of ${ERROR_SHAPES.join(', ')}, got ${String(next.errorShape)}`);
	if (!RECORD_SHAPES.includes(next.recordShape)) throw new Error(`recordShape must be one of ${RECORD_SHAPES.join(', ')}, got ${String(next.recordShape)}`);
	if (!RATE_LIMIT_HEADERS.includes(next.rateLimitHeaders)) throw new Error(`rateLimitHeaders must be one of ${RATE_LIMIT_HEADERS.join(', ')}, got ${String(next.rateLimitHeaders)}`);
	return next;
}
