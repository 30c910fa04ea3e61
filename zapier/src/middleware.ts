/**
 * beforeRequest: the Bearer header (auth stays out of the core).
 * afterResponse: the shared error model for every response from the API.
 *
 * Requests sent by the core client (marked CORE_REQUEST) pass through
 * afterResponse untouched: the core reads them itself, retries what may be
 * retried within the step (429 with a short delay, WORKFLOW_BUSY) and throws
 * a typed error that the perform's wrapper maps with toZapierError. Any other
 * request to the API (a shorthand request, an ad-hoc z.request) is read here
 * by the same core function (readResponse) and mapped by the same
 * toZapierError. Either way a 429 reaches this code because the app sets
 * flags.throwForThrottlingEarly = false, so that HTTP-date and reset-header
 * delays are honoured instead of Zapier's seconds-only Retry-After reading.
 */
import type { AfterResponseMiddleware, BeforeRequestMiddleware, Bundle } from 'zapier-platform-core';
import { BRAND, OPERATION_KEYS, getOperation, normaliseBaseUrl, readResponse } from '../../shared';
import type { OperationKey } from '../../shared';
import { CORE_REQUEST, headersOf } from './client';
import { toZapierError } from './errors';

function apiBase(bundle: Pick<Bundle, 'authData'>): string | undefined {
	const raw = bundle.authData?.baseUrl;
	try {
		return normaliseBaseUrl(typeof raw === 'string' && raw.trim() !== '' ? raw : BRAND.defaultBaseUrl);
	} catch {
		return undefined;
	}
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
	return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** Adds `Authorization: Bearer <key>` to requests bound for the connection's API, and only to those. */
export const includeBearerToken: BeforeRequestMiddleware = (request, _z, bundle) => {
	const key = typeof bundle.authData?.apiKey === 'string' ? bundle.authData.apiKey.trim() : '';
	const base = apiBase(bundle);
	request.headers = { ...(request.headers ?? {}) };
	if (key && base && typeof request.url === 'string' && (request.url === base || request.url.startsWith(`${base}/`) || request.url.startsWith(`${base}?`))) {
		if (!hasHeader(request.headers, 'authorization')) request.headers.Authorization = `Bearer ${key}`;
	}
	if (!hasHeader(request.headers, 'user-agent')) request.headers['User-Agent'] = BRAND.userAgent;
	return request;
};

const ROUTES = OPERATION_KEYS.map((key) => {
	const op = getOperation(key);
	const pattern = op.path
		.split('/')
		.map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
		.join('/');
	return { key, method: op.method, regex: new RegExp(`^${pattern}$`) };
});

/** The catalogue operation a URL of the API stands for. */
export function operationFor(method: string | undefined, url: string, base: string): OperationKey | undefined {
	if (!url.startsWith(base)) return undefined;
	const path = url.slice(base.length).split('?')[0].replace(/\/+$/, '') || '/';
	const verb = (method ?? 'GET').toUpperCase();
	return ROUTES.find((r) => r.method === verb && r.regex.test(path))?.key;
}

/** Maps error responses of the API through the core's error model (see the file comment). */
export const handleErrors: AfterResponseMiddleware = (response, z, bundle) => {
	const request = (response.request ?? {}) as { middlewareData?: Record<string, unknown>; method?: string; url?: string; raw?: boolean };
	if (request.middlewareData?.[CORE_REQUEST] || request.raw) return response;
	const base = apiBase(bundle);
	const key = base && typeof request.url === 'string' ? operationFor(request.method, request.url, base) : undefined;
	if (!key) return response;
	try {
		readResponse({ status: response.status, headers: headersOf(response), body: response.content }, { key, now: Date.now() });
	} catch (e) {
		throw toZapierError(z, e);
	}
	return response;
};

export const befores = [includeBearerToken];
export const afters = [handleErrors];
