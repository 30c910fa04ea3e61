/**
 * The local sandbox: a node:http server implementing API v1 on 127.0.0.1,
 * routed from the operation catalogue (shared/catalogue.ts), with in-memory
 * state, a controllable clock, rate limits and fault injection.
 * The choices it makes where the spec says "not shown" are listed in README.md.
 * This file holds the defaults, the HTTP server, start/stop and the wiring;
 * types.ts the options and the types the parts share; routing.ts, faults.ts,
 * handlers.ts and errors.ts the rest.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '../shared/types';
import { ApiError, ERROR_SHAPES, errorBody, errorContentType, errorOutcome } from './errors';
import type { ErrorShape, Outcome } from './errors';
import { DEFAULT_QUOTAS, createFaults, quotaBucket } from './faults';
import type { RateInfo } from './faults';
import { createHandlers } from './handlers';
import { KEY_PREFIX, dispatch, parseRequest, readBody, routeOf } from './routing';
import { BROKE_ACCOUNT_ID, DAY_MS, DEFAULT_ACCOUNT_ID, OTHER_ACCOUNT_ID, SandboxState } from './state';
import { RECORD_SHAPES } from './shapes';
import { LIST_SHAPES } from './paging';
import type { ListShape } from './paging';
import type { RecordShape } from './shapes';
import { sha256 } from './text';
import { LIST_ORDERS, RATE_LIMIT_HEADERS } from './types';
import type { FaultOptions, ListOrder, QuotaRule, Quotas, RateLimitHeaders, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxRuntime, SandboxStats } from './types';

// Defined in types.ts, routing.ts, faults.ts, errors.ts, paging.ts and shapes.ts; re-exported for the importers of sandbox/server.
export { ApiError, DEFAULT_QUOTAS, KEY_PREFIX, LIST_ORDERS, RATE_LIMIT_HEADERS, RECORD_SHAPES };
export { LIST_SHAPES, PAGING_SHAPES } from './paging';
export type { ErrorShape, FaultOptions, ListOrder, ListShape, QuotaRule, Quotas, RateLimitHeaders, RecordShape, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxRuntime, SandboxStats };

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

function defaults(): SandboxOptions {
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

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

function makeKey(seed: string, name: string): string {
	const secret = seed ? sha256(`${seed}:${name}`).slice(0, 32) : randomBytes(16).toString('hex');
	return `${KEY_PREFIX}${secret}`;
}

function mergeOptions(base: SandboxOptions, partial: Partial<SandboxOptions>): SandboxOptions {
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

/** Starts a sandbox on 127.0.0.1. */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
	let opts = mergeOptions(defaults(), options);
	const state = new SandboxState({
		now: opts.now,
		clockTicks: opts.clockTicks,
		credits: opts.credits,
		seedData: opts.seedData,
		seedPosts: opts.seedPosts,
		workflowLifetimeMs: opts.workflowLifetimeMs,
	});
	const clock = state.clock;

	// Keys.
	const keys: SandboxKeys = {
		full: opts.keys.full ?? makeKey(opts.keySeed, 'full'),
		readonly: opts.keys.readonly ?? makeKey(opts.keySeed, 'readonly'),
		revoked: opts.keys.revoked ?? makeKey(opts.keySeed, 'revoked'),
		expired: opts.keys.expired ?? makeKey(opts.keySeed, 'expired'),
		noCredits: opts.keys.noCredits ?? makeKey(opts.keySeed, 'noCredits'),
		other: opts.keys.other ?? makeKey(opts.keySeed, 'other'),
	};
	for (const [name, key] of Object.entries(keys)) {
		if (!key.startsWith(KEY_PREFIX)) throw new Error(`keys.${name} must start with ${KEY_PREFIX}`);
	}
	const all = [...ALL_SCOPES];
	state.addKey({ key: keys.full, name: 'full', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.readonly, name: 'readonly', accountId: DEFAULT_ACCOUNT_ID, scopes: ['posts:read', 'account:read'], revoked: false, expiresAt: null });
	state.addKey({ key: keys.revoked, name: 'revoked', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: true, expiresAt: null });
	state.addKey({ key: keys.expired, name: 'expired', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: clock.now() - DAY_MS });
	state.addKey({ key: keys.noCredits, name: 'noCredits', accountId: BROKE_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.other, name: 'other', accountId: OTHER_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });

	const stats: SandboxStats = { requests: 0, byRoute: {}, paidCalls: 0, creditsSpent: 0, chargesByInput: {} };

	// Sockets, timers and held responses, all released by close().
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let closing = false;
	const sleep = (ms: number) =>
		new Promise<void>((resolve) => {
			if (ms <= 0 || closing) return resolve();
			const t = setTimeout(() => {
				timers.delete(t);
				resolve();
			}, ms);
			timers.add(t);
		});

	const runtime: SandboxRuntime = {
		get opts() {
			return opts;
		},
		state,
		stats,
		sleep,
	};
	const faults = createFaults(runtime);
	const handlers = createHandlers(runtime);

	// -----------------------------------------------------------------------
	// Request pipeline
	// -----------------------------------------------------------------------

	const held = new Set<ServerResponse>();

	/** The rate-limit fields of an answer, in the form of `rateLimitHeaders` (a 429's retry fields come with its outcome). */
	function rateLimitFields(rate: RateInfo): Record<string, string> {
		switch (opts.rateLimitHeaders) {
			case 'retry-after':
			case 'retry-after-date':
				return {};
			case 'ratelimit': {
				const t = Math.max(1, Math.ceil((rate.resetAt - Date.now()) / 1000));
				return { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining), 'RateLimit-Reset': String(t) };
			}
			case 'ietf': {
				const policy = JSON.stringify(rate.policy);
				const t = Math.max(0, Math.ceil((rate.resetAt - Date.now()) / 1000));
				return { 'RateLimit-Policy': `${policy};q=${rate.limit};w=${Math.ceil(rate.windowMs / 1000)}`, RateLimit: `${policy};r=${rate.remaining};t=${t}` };
			}
			default:
				return {
					'X-RateLimit-Limit': String(rate.limit),
					'X-RateLimit-Remaining': String(rate.remaining),
					...(opts.rateLimitReset ? { 'X-RateLimit-Reset': (rate.resetAt / 1000).toFixed(3) } : {}),
				};
		}
	}

	function write(req: IncomingMessage, res: ServerResponse, outcome: Outcome | 'reset' | 'timeout', rate: RateInfo, label: string): void {
		if (outcome === 'reset') {
			opts.log?.(`${label} -> reset`);
			req.socket.destroy();
			return;
		}
		if (outcome === 'timeout') {
			opts.log?.(`${label} -> held (timeout)`);
			held.add(res);
			res.on('close', () => held.delete(res));
			return;
		}
		if (res.headersSent || res.destroyed || req.socket.destroyed) return;
		const headers: Record<string, string> = { ...rateLimitFields(rate), ...outcome.headers };
		let text: string;
		if (outcome.raw) {
			headers['Content-Type'] = outcome.raw.contentType;
			text = outcome.raw.text;
		} else if (outcome.body === undefined) {
			text = '';
		} else {
			headers['Content-Type'] = `${(outcome.status >= 400 && errorContentType(opts.errorShape)) || 'application/json'}; charset=utf-8`;
			text = JSON.stringify(outcome.body);
		}
		headers['Content-Length'] = String(Buffer.byteLength(text));
		opts.log?.(`${label} -> ${outcome.status}`);
		res.writeHead(outcome.status, headers);
		res.end(text);
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const request = parseRequest(req);
		const { routeName, actualName, label } = request;

		stats.requests++;
		stats.byRoute[routeName] = (stats.byRoute[routeName] ?? 0) + 1;

		// Rate-limit identity: the bearer token as sent (or "anonymous").
		const identity = request.token ?? 'anonymous';
		const bucket = quotaBucket(request.match.kind === 'route' ? request.match.route.key : undefined);
		const peek = () => faults.peek(bucket, identity);

		const body = await readBody(req, opts.maxBodyBytes);
		if (closing) return;
		if (body.tooLarge) {
			write(req, res, errorOutcome(opts.errorShape, new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${opts.maxBodyBytes} bytes`)), peek(), label);
			return;
		}

		state.publishDue();

		// Faults decided before handling.
		const fault = faults.decide(routeName, actualName);
		const after = faults.afterHandling();
		const latency = async (): Promise<void> => {
			if (opts.faults.latencyMs) await sleep(opts.faults.latencyMs);
		};
		if (fault && (fault.kind === 'burst429' || !after)) {
			await latency();
			if (closing) return;
			const retryAt = Date.now() + (opts.faults.burstRetryAfterSec ?? 1) * 1000;
			// The IETF fields are the only retry signal in that form: an injected 429 says r=0 until its retry time.
			const rate = fault.kind === 'burst429' && opts.rateLimitHeaders === 'ietf' ? { ...peek(), remaining: 0, resetAt: retryAt } : peek();
			write(req, res, faults.outcome(fault, retryAt), rate, label);
			return;
		}

		let outcome: Outcome;
		let rate = peek();
		try {
			const routed = routeOf(request);

			// Rate limit (per key identifier, fixed window, real time), counted on arrival as a gateway does: a refusal
			// answers at once, an admitted call then takes the latency (the model's time).
			const admitted = faults.admit(bucket, identity);
			rate = admitted.rate;
			if (admitted.refused) throw admitted.refused;
			await latency();
			if (closing) return;

			outcome = await dispatch(runtime, handlers, request, routed, body.text);
		} catch (e) {
			if (e instanceof ApiError) outcome = errorOutcome(opts.errorShape, e);
			else {
				opts.log?.(`${label} -> internal error: ${e instanceof Error ? e.stack : String(e)}`);
				outcome = errorOutcome(opts.errorShape, new ApiError(500, 'INTERNAL_ERROR', 'Internal sandbox error'));
			}
		}
		if (closing) return;
		if (fault && after) {
			write(req, res, faults.outcome(fault, Date.now() + 1000), rate, label);
			return;
		}
		write(req, res, outcome, rate, label);
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((e: unknown) => {
			opts.log?.(`unhandled: ${e instanceof Error ? e.stack : String(e)}`);
			try {
				if (!res.headersSent && !res.destroyed) {
					const text = JSON.stringify(errorBody(opts.errorShape, 'INTERNAL_ERROR', 'Internal sandbox error', undefined, 500));
					res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
					res.end(text);
				}
			} catch {
				req.socket.destroy();
			}
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('clientError', (_err, socket) => {
		if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
		else socket.destroy();
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;

	let closed: Promise<void> | undefined;
	const sandbox: Sandbox = {
		baseUrl: `http://127.0.0.1:${port}/api/v1`,
		port,
		keys,
		clock: {
			now: () => clock.now(),
			advance: (ms: number) => clock.advance(ms),
			set: (ms: number) => clock.set(ms),
		},
		state,
		stats,
		resetStats() {
			stats.requests = 0;
			stats.byRoute = {};
			stats.paidCalls = 0;
			stats.creditsSpent = 0;
			stats.chargesByInput = {};
		},
		configure(partial: Partial<SandboxOptions>) {
			// The port, the keys and the clock's start are fixed once started (use clock.set to move the clock).
			const rest: Partial<SandboxOptions> = { ...partial };
			delete rest.port;
			delete rest.keys;
			delete rest.now;
			opts = mergeOptions(opts, rest);
			if (partial.seed !== undefined) faults.reseed(partial.seed);
		},
		resetFaults() {
			opts = { ...opts, faults: {}, faultAfterHandling: false };
		},
		resetRateLimits() {
			faults.resetRateLimits();
		},
		publishDue: () => state.publishDue(),
		get options() {
			return opts;
		},
		close() {
			if (closed) return closed;
			closing = true;
			for (const t of timers) clearTimeout(t);
			timers.clear();
			closed = new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const res of held) res.destroy();
				for (const s of sockets) s.destroy();
				server.closeAllConnections?.();
			});
			return closed;
		},
	};
	return sandbox;
}
