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
import { BRAND } from '../../shared/base/definitions';

/** What the middleware checks a request with, loaded on the first request: the Base URL's check and the origin of a URL. */
type Boundary = { normaliseBaseUrl: (raw: unknown) => string; originOf: (url: unknown) => string | undefined };

async function boundary(): Promise<Boundary> {
	const [{ normaliseBaseUrl }, { originOf }] = await Promise.all([import('../../shared/catalogue'), import('../../shared/base')]);
	return { normaliseBaseUrl, originOf };
}

/** The origin (scheme, host and port) of the connection's Base URL: the one address the key is sent to. */
function apiOrigin(bundle: Pick<Bundle, 'authData'>, { normaliseBaseUrl, originOf }: Boundary): string | undefined {
	const raw = bundle.authData?.baseUrl;
	try {
		return originOf(normaliseBaseUrl(typeof raw === 'string' && raw.trim() !== '' ? raw : BRAND.defaultBaseUrl));
	} catch {
		return undefined;
	}
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
	return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/**
 * Adds `Authorization: Bearer <key>` to requests bound for the origin of the
 * connection's Base URL, and only to those: the boundary the core keeps for
 * redirects and next-page links (a redirect within it is followed with the key).
 */
export const includeBearerToken: BeforeRequestMiddleware = async (request, _z, bundle) => {
	const check = await boundary();
	const key = typeof bundle.authData?.apiKey === 'string' ? bundle.authData.apiKey.trim() : '';
	const origin = apiOrigin(bundle, check);
	request.headers = { ...(request.headers ?? {}) };
	if (key && origin && check.originOf(request.url) === origin) {
		if (!hasHeader(request.headers, 'authorization')) request.headers.Authorization = `Bearer ${key}`;
	}
	if (!hasHeader(request.headers, 'user-agent')) request.headers['User-Agent'] = BRAND.userAgent;
	return request;
};

export const befores = [includeBearerToken];
