/**
 * From a failure to its typed error, once for every platform: a response
 * (its status, its code, the server's words) by `errorFromResponse`, a
 * transport rejection by `networkErrorFrom`. The errors that quote the
 * service live here with the reading of its words: a refused key (revoked,
 * expired, missing), a missing scope, a lack of credits. The rest of the
 * hierarchy is classes.ts, re-exported here: this is the one import of
 * the typed errors for the adapters. Every message is redacted.
 */
import { BRAND } from '../base';
import { extractErrorInfo, isBareCode } from './body';
import type { ErrorDetails } from './classes';
import {
	ClientError,
	MalformedResponseError,
	NetworkError,
	PostWriterError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	WorkflowBusyError,
	WorkflowStateError,
	redact,
} from './classes';

export type AuthReason = 'missing' | 'invalid' | 'revoked' | 'expired' | 'unknown';

export const AUTH_MESSAGES: Record<Exclude<AuthReason, 'unknown'>, string> = {
	missing: 'Missing or invalid Authorization header',
	invalid: 'Invalid API key',
	revoked: 'API key has been revoked',
	expired: 'API key has expired',
};

export class AuthenticationError extends PostWriterError {
	override readonly kind = 'authentication' as const;
	readonly reason: AuthReason;
	constructor(serverMessage: string, details: ErrorDetails = {}) {
		const reason = authReason(serverMessage);
		const hint =
			reason === 'revoked' || reason === 'expired'
				? `Create a new key in ${BRAND.displayName} under ${BRAND.keysLocation} and replace the key in this credential.`
				: reason === 'missing'
					? `Check that the credential holds the full API key as created in ${BRAND.displayName} under ${BRAND.keysLocation}.`
					: `Check the API key in the credential, or create a new one in ${BRAND.displayName} under ${BRAND.keysLocation}.`;
		super(`${serverMessage}. ${hint}`, { ...details, status: details.status ?? 401, serverMessage }, hint);
		this.reason = reason;
	}
}

/** The state of a key, from the server's words (its message, and its code when the message does not tell: `API_KEY_REVOKED`, `token_expired`). */
function authReason(message: string): AuthReason {
	const lower = message.toLowerCase().replace(/_/g, ' ');
	if (lower.includes('revoked')) return 'revoked';
	if (lower.includes('expired')) return 'expired';
	if (lower.includes('authorization header')) return 'missing';
	if (lower.includes('invalid api key')) return 'invalid';
	return 'unknown';
}

export class MissingScopeError extends PostWriterError {
	override readonly kind = 'missing_scope' as const;
	readonly scope?: string;
	constructor(serverMessage: string, scope: string | undefined, details: ErrorDetails = {}) {
		const hint = scope
			? `Create a key that includes the scope "${scope}" in ${BRAND.displayName} under ${BRAND.keysLocation}, then update the credential.`
			: `Create a key with the needed scopes in ${BRAND.displayName} under ${BRAND.keysLocation}.`;
		super(
			scope ? `The API key lacks the scope "${scope}" (${serverMessage}). ${hint}` : `${serverMessage}. ${hint}`,
			{ ...details, status: details.status ?? 403, serverMessage },
			hint,
		);
		this.scope = scope;
	}
}

export class InsufficientCreditsError extends PostWriterError {
	override readonly kind = 'insufficient_credits' as const;
	constructor(serverMessage: string, details: ErrorDetails = {}) {
		super(
			`${serverMessage}. Add credits in ${BRAND.displayName}, or wait for the monthly renewal, then run again.`,
			{ ...details, serverMessage },
		);
	}
}

// ---------------------------------------------------------------------------
// From a response or a transport failure to the typed error

const SNIPPET_MAX = 160;

/** A short, single-line, redacted excerpt of a body, HTML tags removed. */
export function snippetOf(body: unknown): string {
	let text: string;
	if (typeof body === 'string') text = body;
	else {
		try {
			text = JSON.stringify(body) ?? String(body);
		} catch {
			text = String(body);
		}
	}
	text = text
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	text = redact(text);
	return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX)}…` : text;
}

function reasonPhrase(status: number): string {
	const phrases: Record<number, string> = {
		400: 'Bad Request',
		402: 'Payment Required',
		404: 'Not Found',
		405: 'Method Not Allowed',
		409: 'Conflict',
		410: 'Gone',
		413: 'Payload Too Large',
		415: 'Unsupported Media Type',
		422: 'Unprocessable Entity',
		500: 'Internal Server Error',
		502: 'Bad Gateway',
		503: 'Service Unavailable',
		504: 'Gateway Timeout',
	};
	return phrases[status] ? `${status} ${phrases[status]}` : String(status);
}

/** What the error mapping needs to know of an operation (a catalogue entry has all of it). */
export interface OperationRef {
	readonly key: string;
	readonly name: string;
	readonly method: 'GET' | 'POST';
	readonly path: string;
	readonly resource: string;
	readonly scope: string;
}

/** A refused or failed response, as read from the wire. */
export interface FailedResponse {
	status: number;
	/** The parsed body (or the raw text when it was not JSON). */
	value: unknown;
	/** The body was valid JSON (or empty). */
	jsonOk: boolean;
	/** The body looked like an HTML page. */
	html?: boolean;
	/** The server's retry delay in ms, when it gave one (Retry-After, X-RateLimit-Reset, a body field). */
	retryAfterMs?: number;
	/** How far before that delay's end the window may end (ms): 0 when told to the millisecond. */
	retryAfterPrecisionMs?: number;
	/** That delay's end lies within its precision for good (rate-fields.ts's RetryDelay). */
	retryAfterSettled?: boolean;
}

/**
 * The scope a 403 names: in a field of its own (`scope`), or in its message
 * (`Missing required scope: posts:generate`, `The key lacks the posts:generate
 * scope`, `insufficient scope (posts:generate)`): a `resource:action` word of
 * a message that speaks of a scope.
 */
function scopeOf(message: string | undefined, info: { code?: string; scope?: string }): string | undefined {
	if (info.scope) return info.scope;
	const text = message ?? '';
	const named = /missing required scope:\s*([A-Za-z_]+:[A-Za-z_]+)/i.exec(text);
	if (named) return named[1];
	if (!/scope/i.test(`${text} ${info.code ?? ''}`)) return undefined;
	return /\b([a-z_]+:[a-z_]+)\b/i.exec(text)?.[1];
}

/**
 * A 401's words when they are not one of the spec's four: the server's
 * message, or, when it gave only a code, what the code says of the key
 * (`API_KEY_REVOKED` is the spec's "API key has been revoked").
 */
function authText(message: string | undefined, code: string | undefined): string {
	const said = [message, code].filter((t): t is string => t !== undefined).join(' ');
	const reason = authReason(said);
	if ((message === undefined || isBareCode(message)) && reason !== 'unknown') return AUTH_MESSAGES[reason];
	return message ?? 'The API key was not accepted';
}

/**
 * The one status → error mapping. WORKFLOW_BUSY is recognised by its code at
 * any status, 2xx included; a 2xx error envelope comes here too.
 */
export function errorFromResponse(op: OperationRef, response: FailedResponse): PostWriterError {
	const { status, value, jsonOk } = response;
	const html = response.html ?? false;
	const label = `${op.method} ${op.path}`;
	const info = html ? {} : extractErrorInfo(value);
	const base = { status, operation: op.key, code: info.code, snippet: snippetOf(value) };
	const serverMessage = info.message;

	if (info.code === 'WORKFLOW_BUSY' || serverMessage === 'WORKFLOW_BUSY') {
		return new WorkflowBusyError(response.retryAfterMs, base);
	}
	if (status === 429) {
		return new RateLimitedError(response.retryAfterMs, { ...base, operationName: op.name, retryAfterPrecisionMs: response.retryAfterPrecisionMs, retryAfterSettled: response.retryAfterSettled });
	}
	if (status === 401) {
		const known = Object.values(AUTH_MESSAGES).find((m) => serverMessage?.toLowerCase().includes(m.toLowerCase()));
		return new AuthenticationError(known ?? authText(serverMessage, info.code), base);
	}
	if (status === 403) {
		// A refusal that names a scope, or speaks of one (OAuth's `insufficient_scope`), or says nothing: the operation's scope is the one missing.
		const scope = scopeOf(serverMessage, info);
		if (scope || !serverMessage || /scope/i.test(`${serverMessage} ${info.code ?? ''}`)) return new MissingScopeError(serverMessage ?? 'Forbidden', scope ?? op.scope, base);
		return new ClientError(`${label} was refused (403): ${serverMessage}`, { ...base, serverMessage });
	}
	const creditCode = /credit/i.test(info.code ?? '') || (status === 402 && !info.code);
	if (status === 402 || creditCode) {
		return new InsufficientCreditsError(serverMessage ?? 'Not enough credits for this call', base);
	}
	if (status >= 500) {
		const paid = op.method === 'POST';
		return new ServerError(
			`${label} could not be completed by the service (${reasonPhrase(status)})${serverMessage ? `: ${serverMessage}` : html ? ' with an HTML page' : ''}. ${
				paid
					? 'It was not retried, because the call may already have been carried out (and charged); check your drafts or credit history before running it again.'
					: 'It was retried as far as the retry limits allow; try again later.'
			}`,
			{ ...base, serverMessage },
		);
	}
	if (!jsonOk && !html && serverMessage === undefined) {
		return new MalformedResponseError(`${label} answered ${status} with an unreadable body: "${snippetOf(value)}".`, base);
	}
	if (op.resource === 'creation' && status >= 400 && status !== 400 && status !== 413 && status !== 415) {
		return new WorkflowStateError(serverMessage ?? `${label} was refused (${reasonPhrase(status)})`, base);
	}
	if (html) {
		return new ClientError(`${label} was refused (${reasonPhrase(status)}) with an HTML page: "${snippetOf(value)}".`, base);
	}
	return new ClientError(
		`${label} was refused (${reasonPhrase(status)})${serverMessage ? `: ${serverMessage}` : ''}.`,
		{ ...base, serverMessage },
	);
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Codes that prove the request never reached the server. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function findCode(e: unknown, depth = 0): string | undefined {
	if (!e || typeof e !== 'object' || depth > 4) return undefined;
	const o = e as Record<string, unknown>;
	if (typeof o.code === 'string' && /^[A-Z_]+$/.test(o.code)) return o.code;
	return findCode(o.cause, depth + 1) ?? findCode(o.error, depth + 1);
}

/** Turns a transport rejection (no response) into a NetworkError. */
export function networkErrorFrom(e: unknown, op: OperationRef): NetworkError {
	if (e instanceof NetworkError) return e;
	const label = `${op.method} ${op.path}`;
	const code = findCode(e);
	const text = e instanceof Error ? e.message : String(e);
	const isTimeout = (code && TIMEOUT_CODES.has(code)) || /time(d)?\s*out/i.test(text);
	const details = { operation: op.key, code, cause: e };
	const paidNote =
		op.method === 'POST'
			? ' It was not retried, because the service may have received it (and charged for it); check your drafts or credit history before running it again.'
			: '';
	if (isTimeout) {
		return new TimeoutError(`${label} timed out without an answer.${paidNote}`, true, details);
	}
	if (code && NOT_SENT_CODES.has(code)) {
		return new NetworkError(
			`${label} could not reach the service (${code}). Check the Base URL in the credential and the network.`,
			false,
			details,
		);
	}
	return new NetworkError(`${label} lost its connection (${code ?? redact(text).slice(0, 80)}).${paidNote}`, true, details);
}
