/**
 * Routing of the sandbox: "METHOD /path" matched against the operation
 * catalogue's routes, path parameters, query and body parsing, validation from
 * the catalogue's field specs, authentication (bearer key lookup, scopes) and
 * the dispatch of a request to its handler, list formatting included.
 */
import type { IncomingMessage } from 'node:http';
import { OPERATION_KEYS, OPERATIONS } from '../shared/catalogue';
import type { FieldSpec, OperationSpec } from '../shared/catalogue';
import type { Scope } from '../shared/types';
import { ApiError, validation } from './errors';
import type { Outcome } from './errors';
import { keyRefusal } from './faults';
import { formatList } from './paging';
import type { Handlers, Route, SandboxRuntime } from './types';
import { shapeBody, shapeListItems } from './shapes';
import type { KeyRecord, SandboxState } from './state';

export const KEY_PREFIX = 'pw_live_';
const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

// ---------------------------------------------------------------------------
// Routing from the catalogue
// ---------------------------------------------------------------------------

const ROUTES: Route[] = OPERATION_KEYS.map((key) => {
	const op = OPERATIONS[key] as OperationSpec;
	const params: string[] = [];
	const pattern = op.path
		.split('/')
		.map((seg) => {
			if (seg.startsWith(':')) {
				params.push(seg.slice(1));
				return '([^/]+)';
			}
			return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	return { key, op, regex: new RegExp(`^${pattern}$`), params, name: `${op.method} ${op.path}` };
});

export type Match =
	| { kind: 'route'; route: Route; params: Record<string, string> }
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

export function matchRoute(method: string, path: string): Match {
	const allowed: string[] = [];
	for (const route of ROUTES) {
		const m = route.regex.exec(path);
		if (!m) continue;
		if (route.op.method !== method) {
			allowed.push(route.op.method);
			continue;
		}
		const params: Record<string, string> = {};
		route.params.forEach((name, i) => {
			try {
				params[name] = decodeURIComponent(m[i + 1]);
			} catch {
				params[name] = m[i + 1];
			}
		});
		return { kind: 'route', route, params };
	}
	return allowed.length > 0 ? { kind: 'method', allowed: [...new Set(allowed)] } : { kind: 'none' };
}

// ---------------------------------------------------------------------------
// Validation from the catalogue's field specs
// ---------------------------------------------------------------------------

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(text: string): boolean {
	const m = YMD.exec(text);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isAbsent(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function checkField(spec: FieldSpec, raw: unknown, source: Record<string, unknown>, now: number, fromQuery: boolean): unknown {
	const name = spec.name;
	switch (spec.type) {
		case 'string':
		case 'text': {
			if (typeof raw !== 'string') throw validation(name, `${name} must be a string`);
			if (raw.trim() === '') throw validation(name, `${name} must not be empty`);
			if (spec.maxLength !== undefined && raw.length > spec.maxLength) {
				throw validation(name, `${name} must be at most ${spec.maxLength} characters (got ${raw.length})`);
			}
			return raw;
		}
		case 'integer': {
			let n: unknown = raw;
			if (fromQuery && typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) n = Number(raw.trim());
			const range =
				spec.min !== undefined && spec.max !== undefined
					? ` between ${spec.min} and ${spec.max}`
					: spec.min !== undefined
						? ` of at least ${spec.min}`
						: spec.max !== undefined
							? ` of at most ${spec.max}`
							: '';
			if (typeof n !== 'number' || !Number.isInteger(n) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
				throw validation(name, `${name} must be an integer${range}`);
			}
			return n;
		}
		case 'boolean': {
			if (fromQuery && (raw === 'true' || raw === 'false')) return raw === 'true';
			if (typeof raw !== 'boolean') throw validation(name, `${name} must be a boolean (true or false)`);
			return raw;
		}
		case 'datetime': {
			const example = 'such as 2026-12-01T09:00:00Z';
			if (typeof raw !== 'string') throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			const m = ISO_DATETIME.exec(raw.trim());
			if (!m || !isRealDate(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
				throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example} (got "${raw.slice(0, 40)}")`);
			}
			const ms = Date.parse(raw.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
			if (Number.isNaN(ms)) throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			if (spec.future && ms <= now) {
				throw validation(name, `${name} must be in the future (got ${new Date(ms).toISOString()}, sandbox time is ${new Date(now).toISOString()})`);
			}
			return new Date(ms).toISOString();
		}
		case 'date': {
			if (typeof raw !== 'string' || !YMD.test(raw)) throw validation(name, `${name} must be a date written YYYY-MM-DD`);
			if (!isRealDate(raw)) throw validation(name, `${name} is not a real calendar date: ${raw}`);
			if (spec.notBefore) {
				const other = source[spec.notBefore];
				if (typeof other === 'string' && isRealDate(other) && raw < other) {
					throw validation(name, `${name} (${raw}) must not be before ${spec.notBefore} (${other})`);
				}
			}
			return raw;
		}
		case 'answers': {
			if (!Array.isArray(raw) || raw.length === 0) throw validation(name, `${name} must be a non-empty array of {questionId, answer} objects`);
			return raw.map((entry, i) => {
				if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
					throw validation(`${name}[${i}]`, `${name}[${i}] must be an object {questionId, answer}`);
				}
				const { questionId, answer } = entry as Record<string, unknown>;
				if (typeof questionId !== 'string' || questionId.trim() === '') {
					throw validation(`${name}[${i}].questionId`, `${name}[${i}].questionId must be a non-empty string`);
				}
				if (typeof answer !== 'string' || answer.trim() === '') {
					throw validation(`${name}[${i}].answer`, `${name}[${i}].answer must be a non-empty string (question ${questionId})`);
				}
				return { questionId: questionId.trim(), answer };
			});
		}
	}
}

/** Validates the body and query fields of an operation; path fields come from the route. */
function validateFields(op: OperationSpec, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>, now: number): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const querySource: Record<string, unknown> = {};
	for (const [k, v] of query) querySource[k] = v;
	for (const spec of op.fields) {
		if (spec.in === 'path') {
			out[spec.name] = params[spec.name];
			continue;
		}
		const source = spec.in === 'query' ? querySource : body;
		const raw = source[spec.name];
		if (isAbsent(raw)) {
			if (spec.required) throw validation(spec.name, `${spec.name} is required`);
			if (spec.default !== undefined) out[spec.name] = spec.default;
			continue;
		}
		out[spec.name] = checkField(spec, raw, source, now, spec.in === 'query');
	}
	return out;
}

// ---------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------

/** A formatted page with its items reshaped (recordShape), wherever they are; the wrapper and paging keep the list shape. */
function shapeListPage(page: unknown, shape: (items: unknown[]) => unknown[]): unknown {
	if (Array.isArray(page)) return shape(page);
	if (!page || typeof page !== 'object') return page;
	const out = { ...(page as Record<string, unknown>) };
	for (const [k, v] of Object.entries(out)) if (v && typeof v === 'object') out[k] = shapeListPage(v, shape);
	return out;
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** A request as routing reads it from the request line and headers. */
export interface ParsedRequest {
	method: string;
	url: URL;
	/** The path relative to /api/v1 (the whole path outside it). */
	relative: string;
	match: Match;
	/** "METHOD /path" with the catalogue path when a route matched (stats, fault routes). */
	routeName: string;
	/** "METHOD /path" as sent, relative to /api/v1. */
	actualName: string;
	/** Method, path and query as sent, for the log. */
	label: string;
	/** The bearer token as sent, or null. */
	token: string | null;
}

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

/** The matched route and its path parameters; 404 or 405 otherwise. */
export function routeOf(request: ParsedRequest): { route: Route; params: Record<string, string> } {
	const { match, method, url, relative } = request;
	if (match.kind === 'none') {
		throw new ApiError(404, 'NOT_FOUND', `No endpoint ${method} ${url.pathname}. Paths are relative to /api/v1, for example POST /api/v1/generate.`);
	}
	if (match.kind === 'method') {
		throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${relative}; use ${match.allowed.join(' or ')}.`, {
			Allow: match.allowed.join(', '),
		});
	}
	return { route: match.route, params: match.params };
}

/** The key of the bearer token (401 when missing, unknown, revoked or expired); records its use. */
export function authenticate(state: SandboxState, token: string | null): KeyRecord {
	const clock = state.clock;
	if (token === null || !token.startsWith(KEY_PREFIX)) throw new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid Authorization header');
	const key = state.keys.get(token);
	if (!key) throw new ApiError(401, 'INVALID_API_KEY', 'Invalid API key');
	const refused = keyRefusal(key, clock.now());
	if (refused) throw refused;
	key.lastUsedAt = clock.now();
	return key;
}

/**
 * Runs a routed request: authentication, scopes, body, validation, then the
 * operation's handler; lists are paged and shaped. Refusals are thrown as ApiError.
 */
export async function dispatch(
	rt: SandboxRuntime,
	handlers: Handlers,
	request: ParsedRequest,
	routed: { route: Route; params: Record<string, string> },
	bodyText: string,
): Promise<Outcome> {
	const { state } = rt;
	const clock = state.clock;
	const { url } = request;
	const { route, params } = routed;

	// Authentication.
	const key = authenticate(state, request.token);

	// Scope of the route.
	const need = (scope: Scope) => {
		if (!key.scopes.includes(scope)) throw new ApiError(403, 'MISSING_SCOPE', `Missing required scope: ${scope}`);
	};
	need(route.op.scope);

	// Body.
	let json: Record<string, unknown> = {};
	if (route.op.method === 'POST' && bodyText.trim() !== '') {
		let parsed: unknown;
		try {
			parsed = JSON.parse(bodyText);
		} catch {
			throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
		}
		if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw new ApiError(400, 'VALIDATION_ERROR', 'The request body must be a JSON object');
		}
		json = parsed as Record<string, unknown>;
	}

	// Extra scopes carried by fields (scheduledAt needs posts:schedule).
	for (const spec of route.op.fields) {
		const source = spec.in === 'query' ? Object.fromEntries(url.searchParams) : json;
		if (spec.scope && !isAbsent(source[spec.name])) need(spec.scope);
	}

	const input = validateFields(route.op, json, url.searchParams, params, clock.now());
	const account = state.account(key.accountId);
	const result = await handlers[route.key]({ key, account, input, query: url.searchParams, route });
	const shape = rt.opts.recordShape;
	if ('list' in result) {
		const page = formatList(rt.opts.listShape, result.list, url, route.op.list?.keys[0] ?? 'items', rt.opts.listPageMax);
		return { status: 200, body: shapeListPage(page.body, (items) => shapeListItems(shape, route.key, items)), headers: page.headers };
	}
	const status = result.status ?? 200;
	return { status, body: status >= 200 && status < 300 ? shapeBody(shape, route.key, result.body) : result.body, headers: {} };
}
