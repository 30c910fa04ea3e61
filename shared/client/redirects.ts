/**
 * Redirects are answers, not instructions. No transport follows a redirect on
 * its own (n8n's `disableFollowRedirect`, Zapier's `redirect: 'manual'`,
 * axios' `maxRedirects: 0`): each hands the 3xx to the core, and the core
 * decides here, once for every platform:
 * - a redirect within the Base URL's origin (scheme, host and port) is
 *   followed, at most MAX_SAME_ORIGIN_REDIRECTS times per request;
 * - any other redirect is a RedirectError: it names the status and where it
 *   pointed, says that the key was not sent there, and what to do.
 * The key goes only where the user sent it: the transports add it to every
 * request they send, so a request to another origin is never sent at all.
 * Pure: the sending is the injected `send`.
 */
import type { OperationRef } from '../errors';
import { RedirectError } from '../errors';
import type { HttpRequest, HttpResponse, Send } from '../base';
import { headerValue, originOf } from '../base';
import { REDIRECT_STATUSES } from './definitions';

/**
 * Same-origin redirects followed for one request. A service that moved a path
 * needs one or two; a loop shows itself well within five, and each hop is a
 * request on the key's quota (browsers allow 20, for pages, not for a metered API).
 */
export const MAX_SAME_ORIGIN_REDIRECTS = 5;

const REASONS: Readonly<Record<number, string>> = {
	301: 'Moved Permanently',
	302: 'Found',
	303: 'See Other',
	307: 'Temporary Redirect',
	308: 'Permanent Redirect',
};

/** Where a redirect points, shown without user info, query or fragment (they may hold secrets). */
function shown(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

/**
 * The request to send after `response`: undefined when it is no redirect to
 * follow (not a redirect, or one the caller must refuse with redirectError).
 * A 303 is followed with a GET (its answer is the result); the other four
 * keep the method and the body, as 307 and 308 require and an API expects.
 */
export function sameOriginRedirect(request: HttpRequest, response: HttpResponse, baseUrl: string): HttpRequest | undefined {
	const target = locationOf(request, response);
	if (!target || target.origin !== originOf(baseUrl)) return undefined;
	if (response.status !== 303 || request.method === 'GET') return { ...request, url: target.toString(), headers: { ...request.headers } };
	const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
	return { method: 'GET', url: target.toString(), headers };
}

function locationOf(request: HttpRequest, response: HttpResponse): URL | undefined {
	if (!REDIRECT_STATUSES.has(response.status)) return undefined;
	const location = headerValue(response.headers, 'location')?.trim();
	if (!location || !URL.canParse(location, request.url)) return undefined;
	return new URL(location, request.url);
}

/**
 * Sends `request` and follows the redirects within the Base URL's origin, up
 * to the limit, each with the timeout `timeoutMs()` gives at the time; returns
 * the last request sent and its answer. A redirect it
 * did not follow is still in that answer, for redirectError.
 */
export async function sendFollowingRedirects(
	send: Send,
	request: HttpRequest,
	baseUrl: string,
	timeoutMs: () => number,
): Promise<{ request: HttpRequest; response: HttpResponse }> {
	let current = request;
	for (let hops = 0; ; hops++) {
		// Each hop's timeout is what is left of the attempt's time (the deadline counts every hop).
		const response = await send({ ...current, headers: { ...current.headers }, timeoutMs: timeoutMs() });
		const next = hops < MAX_SAME_ORIGIN_REDIRECTS ? sameOriginRedirect(current, response, baseUrl) : undefined;
		if (!next) return { request: current, response };
		current = next;
	}
}

/**
 * The error for a redirect that was not followed (to another origin, without
 * a usable Location, or past the limit); undefined for any other answer.
 * A 3xx is a definite answer: the call was not carried out at the address
 * asked, and nothing was charged. A 303 to a POST is the exception: it
 * answers a request the service handled, so that call may have been carried out.
 */
export function redirectError(op: OperationRef, request: HttpRequest, response: HttpResponse, baseUrl: string): RedirectError | undefined {
	const { status } = response;
	if (!REDIRECT_STATUSES.has(status)) return undefined;
	const label = `${op.method} ${op.path}`;
	const answered = `${label} was answered ${status} ${REASONS[status]}`;
	const target = locationOf(request, response);
	const base = originOf(baseUrl) ?? baseUrl;
	const handled = status === 303 && request.method === 'POST';
	const outcome = handled
		? 'A 303 answers a request the service handled, so the call may have been carried out (and charged); it was not sent again. Check your drafts or credit history before running it again.'
		: `The call was not carried out${op.method === 'POST' ? ', and nothing was charged' : ''}.`;
	const details = { status, operation: op.key, code: 'REDIRECTED' };
	if (!target) {
		const location = headerValue(response.headers, 'location');
		const said = location ? `a Location that is not a URL ("${location.slice(0, 120)}")` : 'no Location';
		return new RedirectError(`${answered} with ${said}. ${outcome} Check the Base URL in the credential.`, handled, { ...details });
	}
	if (target.origin === base) {
		return new RedirectError(
			`${answered}: it was redirected more than ${MAX_SAME_ORIGIN_REDIRECTS} times within ${base} (last to ${shown(target)}), so the service seems to redirect in a loop. ${outcome} Check the Base URL in the credential, or try again later.`,
			handled,
			{ ...details, location: shown(target) },
		);
	}
	return new RedirectError(
		`${answered}, pointing to ${shown(target)}: another address than the Base URL (${base}). The request was not sent there, and the API key did not leave for it. ${outcome} Check the Base URL in the credential: if the service has moved, enter its new address (ending in /api/v1).`,
		handled,
		{ ...details, location: shown(target) },
	);
}
