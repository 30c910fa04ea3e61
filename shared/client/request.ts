/**
 * The request builder: pure, from the catalogue. `describeRequest` gives the
 * operation's request as plain data (octokit style), `buildRequest` the same
 * as an HTTP request for a transport. No I/O, no platform, no timers.
 */
import type { OperationKey } from '../catalogue';
import { getOperation } from '../catalogue';
import type { HttpRequest } from '../base';

export type Query = Record<string, string | number | undefined>;

/** An operation's request as plain data: what `describeRequest` returns. */
export interface RequestDescription {
	method: 'GET' | 'POST';
	/** Relative to the base URL, path fields filled in (encoded). */
	path: string;
	/** Query parameters, in field order, then the extra ones (pagination). */
	query: Record<string, string>;
	/** The JSON body of a POST; undefined for a GET. */
	body?: Record<string, unknown>;
}

/** `(operation, input) → {method, path, query, body}`: each field goes where the catalogue says. */
export function describeRequest(key: OperationKey, input: Record<string, unknown>, extraQuery: Query = {}): RequestDescription {
	const op = getOperation(key);
	let path = op.path;
	const query: Record<string, string> = {};
	const body: Record<string, unknown> = {};
	for (const field of op.fields) {
		const value = input[field.name];
		if (value === undefined) continue;
		if (field.in === 'path') path = path.replace(`:${field.name}`, encodeURIComponent(String(value)));
		else if (field.in === 'query') query[field.name] = String(value);
		else body[field.name] = value;
	}
	for (const [name, value] of Object.entries(extraQuery)) {
		if (value !== undefined) query[name] = String(value);
	}
	return op.method === 'POST' ? { method: op.method, path, query, body } : { method: op.method, path, query };
}

/** The description as an HTTP request on `baseUrl` (which ends in /api/v1). */
export function buildRequest(key: OperationKey, input: Record<string, unknown>, baseUrl: string, extraQuery: Query = {}): HttpRequest {
	const d = describeRequest(key, input, extraQuery);
	const qs = Object.entries(d.query)
		.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
		.join('&');
	const request: HttpRequest = { method: d.method, url: `${baseUrl}${d.path}${qs ? `?${qs}` : ''}`, headers: { Accept: 'application/json' } };
	if (d.body !== undefined) {
		request.headers['Content-Type'] = 'application/json';
		request.body = d.body;
	}
	return request;
}
