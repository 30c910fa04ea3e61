/**
 * The local sandbox: a node:http server implementing API v1 on 127.0.0.1,
 * routed from the operation catalogue (shared/catalogue/), with in-memory
 * state, a controllable clock, rate limits and fault injection.
 * The choices it makes where the spec says "not shown" are listed in README.md.
 * This file holds startSandbox(): the HTTP server, start/stop, the handle and
 * the wiring of the parts (options.ts, keys.ts, pipeline.ts, response.ts,
 * faults.ts, handlers.ts…); it is the entry point other code imports, so it
 * re-exports what they need. types.ts holds the types the parts share.
 */
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Socket, AddressInfo } from 'node:net';
import { ApiError, errorBody } from './api-errors';
import type { ErrorShape } from './api-errors';
import { DEFAULT_QUOTAS, createFaults } from './faults';
import { createHandlers } from './handlers';
import { KEY_PREFIX, addSandboxKeys } from './keys';
import { defaults, mergeOptions } from './options';
import type { ListShape } from './paging';
import { createPipeline } from './pipeline';
import { createWriter } from './response';
import { RECORD_SHAPES } from './shapes';
import type { RecordShape } from './shapes';
import { SandboxState } from './state';
import { LIST_ORDERS, RATE_LIMIT_HEADERS } from './types';
import type { FaultOptions, ListOrder, QuotaRule, Quotas, RateLimitHeaders, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxRuntime, SandboxStats } from './types';

// Defined in types.ts, keys.ts, faults.ts, errors.ts, paging.ts and shapes.ts; re-exported for the importers of sandbox/server.
export { ApiError, DEFAULT_QUOTAS, KEY_PREFIX, LIST_ORDERS, RATE_LIMIT_HEADERS, RECORD_SHAPES };
export { LIST_SHAPES, PAGING_SHAPES } from './paging';
export type { ErrorShape, FaultOptions, ListOrder, ListShape, QuotaRule, Quotas, RateLimitHeaders, RecordShape, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxRuntime, SandboxStats };

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
	const keys = addSandboxKeys(state, opts);

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

	const held = new Set<ServerResponse>();
	const write = createWriter(runtime, held);
	const handle = createPipeline({ rt: runtime, faults, handlers, write, closing: () => closing });

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
