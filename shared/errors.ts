/**
 * One typed error hierarchy, mapped once per platform at the edge.
 * Every message is written for the person building the automation: what
 * happened, which field or scope, what to do. Every message is redacted.
 */
import { BRAND } from './brand';
import { extractErrorInfo, isBareCode } from './error-body';

// The reading of error bodies, where it was first exported.
export type { ErrorInfo } from './error-body';
export { extractErrorInfo, looksLikeErrorEnvelope } from './error-body';

export type ErrorKind =
	| 'validation'
	| 'authentication'
	| 'missing_scope'
	| 'rate_limited'
	| 'workflow_busy'
	| 'workflow_state'
	| 'insufficient_credits'
	| 'client'
	| 'server'
	| 'network'
	| 'timeout'
	| 'malformed'
	| 'credit_floor'
	| 'guided_incomplete';

/** Matches API keys in the spec's format (live prefix + secret) and bearer tokens. */
const KEY_PATTERNS: RegExp[] = [
	/\bBearer\s+[^\s"',;]+/gi,
	/\b[A-Za-z]{2,12}_live_[A-Za-z0-9_-]{6,}\b/g,
];

/**
 * Removes secrets from a text: keys in the spec's format and bearer tokens by
 * pattern, and the given secrets (the client's own API key, whatever its shape)
 * verbatim. There is no process-wide registry: the secrets travel with the
 * client that knows them (see `scrubError`).
 */
export function redact(text: string, secrets: readonly string[] = []): string {
	let out = text;
	for (const secret of secrets) {
		if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join('[redacted]');
	}
	for (const pattern of KEY_PATTERNS) {
		out = out.replace(pattern, (m) => (m.toLowerCase().startsWith('bearer') ? 'Bearer [redacted]' : '[redacted]'));
	}
	return out;
}

export interface ErrorDetails {
	status?: number;
	code?: string;
	/** The field the error concerns, when there is one. */
	field?: string;
	/** Operation key, e.g. `generatePost`. */
	operation?: string;
	/** The server's own message, verbatim (redacted). */
	serverMessage?: string;
	/** A short, redacted snippet of the response body. */
	snippet?: string;
	cause?: unknown;
}

export class PostWriterError extends Error {
	readonly kind: ErrorKind = 'client';
	readonly status?: number;
	readonly code?: string;
	readonly field?: string;
	readonly operation?: string;
	/** Redacted by the constructor, and again by `scrubError` with the client's own key. */
	serverMessage?: string;
	snippet?: string;
	/** What the user should do, one sentence. */
	hint?: string;

	constructor(message: string, details: ErrorDetails = {}, hint?: string) {
		super(redact(message));
		this.name = new.target.name;
		this.status = details.status;
		this.code = details.code;
		this.field = details.field;
		this.operation = details.operation;
		this.serverMessage = details.serverMessage === undefined ? undefined : redact(details.serverMessage);
		this.snippet = details.snippet === undefined ? undefined : redact(details.snippet);
		this.hint = hint === undefined ? undefined : redact(hint);
	}

	/** Whether the request may be sent again without risk (the server refused it). */
	get safeToRetry(): boolean {
		return false;
	}

	toJSON(): Record<string, unknown> {
		return {
			name: this.name,
			kind: this.kind,
			message: this.message,
			status: this.status,
			code: this.code,
			field: this.field,
			operation: this.operation,
			hint: this.hint,
		};
	}
}

/** Input refused before any request. Always names the field. */
export class ValidationError extends PostWriterError {
	override readonly kind = 'validation' as const;
	declare readonly field: string;
	constructor(field: string, problem: string, operation?: string) {
		super(`${field}: ${problem}`, { field, operation });
	}
}

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

/** The quota's time budget that ran out: what the message names. */
export interface QuotaBudget {
	/** The budget (ms) and the time waited (ms). */
	budgetMs: number;
	waitedMs: number;
	/** Refusals of the call. */
	refusals: number;
	/** What the answers said of the quota ("10 calls per 1 s"), when they did. */
	quota?: string;
	/** The setting that sets the budget, as the platform names it. */
	setting?: string;
}

const duration = (ms: number) => (ms >= 180_000 ? `${Number((ms / 60_000).toFixed(1))} min` : `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`);

/** What ran out: the refusals and the wait so far, or (at the first refusal) a delay longer than the whole budget. */
function budgetText(b: QuotaBudget, delayMs: number | undefined): string {
	const quota = b.quota ? ` The service allows ${b.quota}.` : ' The service did not say its quota.';
	const setting = b.setting ? ` (${b.setting})` : '';
	if (b.refusals <= 1 && delayMs !== undefined) {
		return `the service asks to wait ${duration(delayMs)}, longer than the ${duration(b.budgetMs)} allowed${setting}.${quota}`;
	}
	return `the call was refused ${b.refusals} time${b.refusals === 1 ? '' : 's'} and waited ${duration(b.waitedMs)} for the quota; one more wait would pass the ${duration(b.budgetMs)} allowed${setting}.${quota}`;
}

/** The server refused the call for now: safe to send again later. */
export class RateLimitedError extends PostWriterError {
	override readonly kind = 'rate_limited' as const;
	/** The server's delay before a retry, when it gave one. */
	readonly retryAfterMs?: number;
	/** Set when the call gave up because the wait for the quota would pass its budget. */
	readonly budget?: QuotaBudget;
	constructor(retryAfterMs: number | undefined, details: ErrorDetails & { operationName?: string; budget?: QuotaBudget } = {}) {
		const wait = retryAfterMs === undefined ? 'a moment' : `${Math.ceil(retryAfterMs / 1000)} s`;
		const on = details.operationName ?? details.operation;
		const { budget, ...rest } = details;
		super(
			budget
				? `Rate limit reached${on ? ` on ${on}` : ''}: ${budgetText(budget, retryAfterMs)} Nothing was charged. ${budget.setting ? `Raise ${budget.setting}, run` : 'Run'} fewer executions on this API key at once, or spread them out.`
				: `Rate limit reached${on ? ` on ${on}` : ''}: the service asks to wait ${wait} before the next call. Spread the calls out, or lower the batch size.`,
			{ ...rest, status: details.status ?? 429 },
			'Retry later; the call was refused and nothing was charged.',
		);
		this.retryAfterMs = retryAfterMs;
		this.budget = budget;
	}
	override get safeToRetry(): boolean {
		return true;
	}
}

/** A creation workflow operation is still running: safe to send again. */
export class WorkflowBusyError extends PostWriterError {
	override readonly kind = 'workflow_busy' as const;
	readonly retryAfterMs?: number;
	readonly budget?: QuotaBudget;
	constructor(retryAfterMs: number | undefined, details: ErrorDetails & { budget?: QuotaBudget } = {}) {
		const { budget, ...rest } = details;
		super(
			budget
				? `WORKFLOW_BUSY: another operation is still running on this creation workflow; ${budgetText(budget, retryAfterMs)} Nothing was charged. Run the steps of one workflow one after the other, then call again.`
				: 'WORKFLOW_BUSY: another operation is still running on this creation workflow. Wait for it to finish, then call again.',
			{ ...rest, code: 'WORKFLOW_BUSY' },
			'Run the steps of one workflow one after the other, not in parallel.',
		);
		this.retryAfterMs = retryAfterMs;
		this.budget = budget;
	}
	override get safeToRetry(): boolean {
		return true;
	}
}

/** A creation call out of sequence, on an expired or unknown workflow. Keeps the server's message. */
export class WorkflowStateError extends PostWriterError {
	override readonly kind = 'workflow_state' as const;
	constructor(serverMessage: string, details: ErrorDetails = {}) {
		super(serverMessage, { ...details, serverMessage });
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

/** Any other 4xx. */
export class ClientError extends PostWriterError {
	override readonly kind = 'client' as const;
}

export class ServerError extends PostWriterError {
	override readonly kind = 'server' as const;
}

export class NetworkError extends PostWriterError {
	override readonly kind: 'network' | 'timeout' = 'network';
	/** True when the request may have reached the server (reset, timeout): never resend a paid call. */
	readonly ambiguous: boolean;
	constructor(message: string, ambiguous: boolean, details: ErrorDetails = {}) {
		super(message, details);
		this.ambiguous = ambiguous;
	}
	override get safeToRetry(): boolean {
		return !this.ambiguous;
	}
}

export class TimeoutError extends NetworkError {
	override readonly kind = 'timeout' as const;
}

/** The body could not be read as the expected JSON. */
export class MalformedResponseError extends PostWriterError {
	override readonly kind = 'malformed' as const;
}

/** Refused locally: the call would spend credits below the floor the user set. */
export class CreditFloorError extends PostWriterError {
	override readonly kind = 'credit_floor' as const;
}

/** The guided creation could not finish; names the workflow so it can go on by hand. */
export class GuidedIncompleteError extends PostWriterError {
	override readonly kind = 'guided_incomplete' as const;
	readonly workflowId?: string;
	/** The step the run did not reach, when it ran out of time (`prepare`, `write`, …). */
	readonly step?: string;
	/**
	 * `message` says what happened; `hint`, when given, what to do by hand. The
	 * full message is both, like every other error's; a platform that offers
	 * other remedies replaces the hint (Zapier hides the creation steps).
	 */
	constructor(message: string, workflowId: string | undefined, details: ErrorDetails = {}, step?: { name: string; hint: string }) {
		super(step ? `${message} ${step.hint}` : message, details, step?.hint);
		this.workflowId = workflowId;
		this.step = step?.name;
	}

	/** What happened, without the hint. */
	get happened(): string {
		return this.hint && this.message.endsWith(this.hint) ? this.message.slice(0, -this.hint.length).trim() : this.message;
	}
}

export function isPostWriterError(e: unknown): e is PostWriterError {
	return e instanceof PostWriterError;
}

/**
 * Redacts an error's texts with the client's own secrets (its API key), on top
 * of the pattern redaction every error gets when it is made. The client runs
 * every error it throws through this, so a key of any shape never reaches a
 * message, whatever produced the error.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
	if (!(error instanceof Error) || secrets.length === 0) return error;
	const clean = (t: string | undefined) => (t === undefined ? undefined : redact(t, secrets));
	error.message = redact(error.message, secrets);
	if (error instanceof PostWriterError) {
		error.serverMessage = clean(error.serverMessage);
		error.snippet = clean(error.snippet);
		error.hint = clean(error.hint);
	}
	return error;
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
		return new RateLimitedError(response.retryAfterMs, { ...base, operationName: op.name });
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
