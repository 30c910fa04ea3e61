/**
 * beforeRequest: the Bearer header (auth stays out of the core).
 *
 * There is no afterResponse: every request of the app is sent by the core
 * client over z.request, which reads the response itself, retries what may be
 * retried within the step (429 with a short delay, WORKFLOW_BUSY) and throws a
 * typed error that the perform's wrapper maps with toZapierError. A 429 reaches
 * the core because the app sets flags.throwForThrottlingEarly = false, so that
 * HTTP-date and reset-header delays are honoured instead of Zapier's
 * seconds-only Retry-After reading.
 */
import type { BeforeRequestMiddleware, Bundle } from 'zapier-platform-core';
import { BRAND } from '../../shared/brand';
import { normaliseBaseUrl } from '../../shared/validate';

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

export const befores = [includeBearerToken];
