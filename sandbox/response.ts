/**
 * Writing an answer back: the rate-limit fields in the form of option
 * `rateLimitHeaders`, then the outcome's status, headers and body (JSON, an
 * error's content type, or a raw text); or, for the socket-level faults, a
 * dropped connection or a response held until close.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorContentType } from './api-errors';
import type { Outcome } from './api-errors';
import type { RateInfo } from './faults';
import type { SandboxOptions } from './types';

/** Writes `outcome` with the rate-limit fields of `rate`; `label` names the request in the log. */
export type Write = (req: IncomingMessage, res: ServerResponse, outcome: Outcome | 'reset' | 'timeout', rate: RateInfo, label: string) => void;

/** The rate-limit fields of an answer, in the form of `rateLimitHeaders` (a 429's retry fields come with its outcome). */
export function rateLimitFields(opts: SandboxOptions, rate: RateInfo): Record<string, string> {
	switch (opts.rateLimitHeaders) {
		case 'retry-after':
		case 'retry-after-date':
		case 'none':
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

/** The writer over the options in force (`rt.opts`, read at each answer); a held response goes into `held` until it closes. */
export function createWriter(rt: { readonly opts: SandboxOptions }, held: Set<ServerResponse>): Write {
	return (req, res, outcome, rate, label) => {
		const opts = rt.opts;
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
		const headers: Record<string, string> = { ...rateLimitFields(opts, rate), ...outcome.headers };
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
	};
}
