/**
 * Reading a request: its method, URL (on the Host it came to), path relative
 * to /api/v1, matched route, names for the stats and the log, and bearer
 * token; and its body, up to a size limit.
 */
import type { IncomingMessage } from 'node:http';
import { matchRoute } from './routing';
import type { Match, ParsedRequest } from './types';

/** Past this many bytes an oversized body is no longer drained for the 413: the connection is dropped. */
const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

/** The request line and headers as routing, the stats, the log and the rate limit read them. */
export function parseRequest(req: IncomingMessage): ParsedRequest {
	const method = (req.method ?? 'GET').toUpperCase();
	// The Host header gives the origin (with its port) for the absolute links of the list shapes.
	let url: URL;
	try {
		url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
	} catch {
		url = new URL(req.url ?? '/', 'http://127.0.0.1');
	}
	const path = url.pathname.replace(/\/+$/, '') || '/';
	const underApi = path === '/api/v1' || path.startsWith('/api/v1/');
	const relative = underApi ? path.slice('/api/v1'.length) || '/' : path;
	const match = underApi ? matchRoute(method, relative) : ({ kind: 'none' } as Match);
	const routeName = match.kind === 'route' ? match.route.name : `${method} ${relative}`;
	const actualName = `${method} ${relative}`;
	const label = `${method} ${url.pathname}${url.search}`;
	const auth = req.headers.authorization;
	const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
	return { method, url, relative, match, routeName, actualName, label, token: bearer ? bearer[1] : null };
}

/** Reads the body as text, up to `max` bytes (`tooLarge` past it). */
export function readBody(req: IncomingMessage, max: number): Promise<{ tooLarge: boolean; text: string }> {
	return new Promise((resolve) => {
		const declared = Number(req.headers['content-length'] ?? NaN);
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		let over = Number.isFinite(declared) && declared > max;
		const finish = (value: { tooLarge: boolean; text: string }) => {
			if (!settled) {
				settled = true;
				resolve(value);
			}
		};
		if (over) finish({ tooLarge: true, text: '' });
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (over) {
				// Keep draining (without storing) so the client can read the 413; give up past a hard cap.
				if (size > DRAIN_CAP_BYTES) req.destroy();
				return;
			}
			if (size > max) {
				over = true;
				chunks.length = 0;
				finish({ tooLarge: true, text: '' });
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => finish({ tooLarge: over, text: over ? '' : Buffer.concat(chunks).toString('utf8') }));
		req.on('error', () => finish({ tooLarge: over, text: '' }));
		req.on('close', () => finish({ tooLarge: over, text: over ? '' : Buffer.concat(chunks).toString('utf8') }));
	});
}
