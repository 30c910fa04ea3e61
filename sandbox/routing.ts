/**
 * Routing of the sandbox: the routes of the operation catalogue as patterns,
 * "METHOD /path" matched against them (path parameters decoded), and the
 * route of a parsed request, or its 404 / 405.
 */
import { OPERATION_KEYS, OPERATIONS } from '../shared/catalogue';
import type { OperationSpec } from '../shared/catalogue';
import { ApiError } from './api-errors';
import type { Match, ParsedRequest, Route } from './types';

/** Every catalogue operation as a route: its path as a pattern, `:name` segments captured. */
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

/** What "METHOD path" (relative to /api/v1) matches: the route and its decoded parameters, else the methods the path allows. */
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
