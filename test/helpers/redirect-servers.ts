/**
 * Two loopback servers for the redirect tests of every platform:
 * - the front, on 127.0.0.1, the Base URL the credential names: under
 *   `/r<status>-elsewhere/api/v1/…` it answers every request with that status
 *   and a Location on the other server (`http://localhost:<port>/api/v1/…`,
 *   another host); under `/r<status>-same/api/v1/…` with a Location within
 *   its own origin (`…/moved/…`), where it answers as the service would;
 * - the other server, which records every request that reaches it, with its
 *   Authorization header: a key there is a leak.
 * Both stop with close().
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	body: string;
}

export type RedirectKind = 'elsewhere' | 'same';

export interface RedirectServers {
	/** The Base URL (ending in /api/v1) whose requests are answered `status` towards `kind`. */
	baseUrl(status: number, kind: RedirectKind): string;
	/** Where a redirect to another host points (the other server's origin, as `localhost`). */
	elsewhereOrigin: string;
	/** Requests that reached the front, and the other server. */
	front: SeenRequest[];
	elsewhere: SeenRequest[];
	close(): Promise<void>;
}

/** The service's answers at the moved addresses, by path after /api/v1. */
const ANSWERS: Record<string, unknown> = {
	'/generate': { proposals: ['Redirected proposal one.', 'Redirected proposal two.'], draftId: null, creditsRemaining: 42 },
	'/credits': { balance: 42, monthlyAllowance: 100, resetsAt: '2030-01-01T00:00:00Z' },
	'/account/profile': { id: 'acc_redirect', name: 'Redirect Tester', email: 'redirect@example.com' },
};

function listen(server: http.Server): Promise<number> {
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function record(req: http.IncomingMessage, into: SeenRequest[]): Promise<SeenRequest> {
	return new Promise((resolve) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			const seen = { method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization, body };
			into.push(seen);
			resolve(seen);
		});
	});
}

/** Another host: records every request that reaches it, and answers as the service would, so that a client that followed would look "successful". */
export interface OtherHost {
	/** Its origin as `localhost` (the servers of the tests are addressed as 127.0.0.1). */
	origin: string;
	requests: SeenRequest[];
	close(): Promise<void>;
}

async function close(server: http.Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startOtherHost(): Promise<OtherHost> {
	const requests: SeenRequest[] = [];
	const server = http.createServer(async (req, res) => {
		await record(req, requests);
		const answer = ANSWERS[(req.url ?? '').replace(/^\/api\/v1/, '').split('?')[0]] ?? {};
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
	});
	const port = await listen(server);
	return { origin: `http://localhost:${port}`, requests, close: () => close(server) };
}

export async function startRedirectServers(): Promise<RedirectServers> {
	const front: SeenRequest[] = [];
	const other = await startOtherHost();
	const elsewhere = other.requests;
	const elsewhereOrigin = other.origin;
	const server = http.createServer(async (req, res) => {
		const seen = await record(req, front);
		const m = /^\/r(\d{3})-(elsewhere|same)(\/moved)?\/api\/v1(\/[^?]*)(\?.*)?$/.exec(seen.url);
		if (!m) return res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"Not found"}}');
		const [, status, kind, moved, rest, query = ''] = m;
		if (moved) return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(ANSWERS[rest] ?? {}));
		const location = kind === 'same' ? `/r${status}-same/moved/api/v1${rest}${query}` : `${elsewhereOrigin}/api/v1${rest}${query}`;
		res.writeHead(Number(status), { Location: location, 'Content-Type': 'text/html' }).end(`<a href="${location}">Moved</a>`);
	});
	const port = await listen(server);
	return {
		baseUrl: (status, kind) => `http://127.0.0.1:${port}/r${status}-${kind}/api/v1`,
		elsewhereOrigin,
		front,
		elsewhere,
		close: async () => {
			await close(server);
			await other.close();
		},
	};
}

/** The key the redirect tests send (in the spec's format, so that every redaction applies to it). */
export const REDIRECT_TEST_KEY = 'pw_live_0123456789abcdef0123456789abcdef';

/**
 * Registers the jest hooks of a redirect test file: the servers start before
 * its tests, their records are emptied before each, and they stop after.
 * Returns the servers (read them inside a test).
 */
export function useRedirectServers(): () => RedirectServers {
	let servers: RedirectServers | undefined;
	beforeAll(async () => {
		servers = await startRedirectServers();
	});
	afterAll(() => servers?.close());
	beforeEach(() => {
		servers?.front.splice(0);
		servers?.elsewhere.splice(0);
	});
	return () => {
		if (!servers) throw new Error('the redirect servers are not started (call useRedirectServers at the top of the file)');
		return servers;
	};
}
