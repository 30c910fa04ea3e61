/**
 * The pipeline every request goes through, in the order of README.md
 * ("Behaviour"): count it, read the body (413), publish the due drafts, decide
 * a fault, route (404 / 405), rate limit (429), the latency, dispatch (auth,
 * scopes, validation, credits, handler), then a fault after handling; an
 * unexpected exception becomes 500 INTERNAL_ERROR.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorOutcome } from './api-errors';
import type { Outcome } from './api-errors';
import { dispatch } from './dispatch';
import { quotaBucket } from './faults';
import type { Faults } from './faults';
import { readBody, parseRequest } from './request';
import type { Write } from './response';
import { routeOf } from './routing';
import type { Handlers, SandboxRuntime } from './types';

/** What the pipeline runs on; `closing()` is true once close() began (a request in flight then stops). */
export interface PipelineParts {
	rt: SandboxRuntime;
	faults: Faults;
	handlers: Handlers;
	write: Write;
	closing(): boolean;
}

/** The handler of one request over the running sandbox (`rt.opts` is read at each use: configure() applies at once). */
export function createPipeline({ rt, faults, handlers, write, closing }: PipelineParts): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
	return async (req, res) => {
		const { state, stats, sleep } = rt;
		const request = parseRequest(req);
		const { routeName, actualName, label } = request;

		stats.requests++;
		stats.byRoute[routeName] = (stats.byRoute[routeName] ?? 0) + 1;

		// Rate-limit identity: the bearer token as sent (or "anonymous").
		const identity = request.token ?? 'anonymous';
		const bucket = quotaBucket(request.match.kind === 'route' ? request.match.route.key : undefined);
		const peek = () => faults.peek(bucket, identity);

		const body = await readBody(req, rt.opts.maxBodyBytes);
		if (closing()) return;
		if (body.tooLarge) {
			write(req, res, errorOutcome(rt.opts.errorShape, new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${rt.opts.maxBodyBytes} bytes`)), peek(), label);
			return;
		}

		state.publishDue();

		// Faults decided before handling.
		const fault = faults.decide(routeName, actualName);
		const after = faults.afterHandling();
		const latency = async (): Promise<void> => {
			if (rt.opts.faults.latencyMs) await sleep(rt.opts.faults.latencyMs);
		};
		if (fault && (fault.kind === 'burst429' || fault.kind === 'redirect' || !after)) {
			await latency();
			if (closing()) return;
			const retryAt = Date.now() + (rt.opts.faults.burstRetryAfterSec ?? 1) * 1000;
			// The IETF fields are the only retry signal in that form: an injected 429 says r=0 until its retry time.
			const rate = fault.kind === 'burst429' && rt.opts.rateLimitHeaders === 'ietf' ? { ...peek(), remaining: 0, resetAt: retryAt } : peek();
			write(req, res, faults.outcome(fault, retryAt, req.url ?? '/'), rate, label);
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
			if (closing()) return;

			outcome = await dispatch(rt, handlers, request, routed, body.text);
		} catch (e) {
			if (e instanceof ApiError) outcome = errorOutcome(rt.opts.errorShape, e);
			else {
				rt.opts.log?.(`${label} -> internal error: ${e instanceof Error ? e.stack : String(e)}`);
				outcome = errorOutcome(rt.opts.errorShape, new ApiError(500, 'INTERNAL_ERROR', 'Internal sandbox error'));
			}
		}
		if (closing()) return;
		if (fault && after) {
			write(req, res, faults.outcome(fault, Date.now() + 1000, req.url ?? '/'), rate, label);
			return;
		}
		write(req, res, outcome, rate, label);
	};
}
