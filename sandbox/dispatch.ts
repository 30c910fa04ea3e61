/**
 * The dispatch of a routed request: authentication, the route's scope, the
 * JSON body, the scopes of the fields sent, validation, then the operation's
 * handler; a list is paged in the list shape, and 2xx bodies take the record
 * shape. Refusals are thrown as ApiError.
 */
import type { Outcome } from './api-errors';
import { ApiError } from './api-errors';
import { authenticate, requireScope } from './keys';
import { formatList } from './paging';
import { shapeBody, shapeListItems } from './shapes';
import type { Handlers, ParsedRequest, Route, SandboxRuntime } from './types';
import { isAbsent, validateFields } from './validation';

/** A formatted page with its items reshaped (recordShape), wherever they are; the wrapper and paging keep the list shape. */
function shapeListPage(page: unknown, shape: (items: unknown[]) => unknown[]): unknown {
	if (Array.isArray(page)) return shape(page);
	if (!page || typeof page !== 'object') return page;
	const out = { ...(page as Record<string, unknown>) };
	for (const [k, v] of Object.entries(out)) if (v && typeof v === 'object') out[k] = shapeListPage(v, shape);
	return out;
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
	requireScope(key, route.op.scope);

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
		if (spec.scope && !isAbsent(source[spec.name])) requireScope(key, spec.scope);
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
