/**
 * The pure half of the client: builds requests from the catalogue and reads
 * responses into data or a typed error. No I/O, no platform, no timers.
 */
import type { OperationKey, OperationSpec } from './catalogue';
import { getOperation } from './catalogue';
import {
	AUTH_MESSAGES,
	AuthenticationError,
	ClientError,
	InsufficientCreditsError,
	MalformedResponseError,
	MissingScopeError,
	NetworkError,
	PostWriterError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	WorkflowBusyError,
	WorkflowStateError,
	redact,
} from './errors';

export interface HttpRequest {
	method: 'GET' | 'POST';
	/** Absolute URL including the query string. */
	url: string;
	headers: Record<string, string>;
	/** JSON body (an object); adapters serialise it. */
	body?: Record<string, unknown>;
	/** Per-attempt timeout the adapter should apply. */
	timeoutMs?: number;
}

export type HeaderValue = string | string[] | number | undefined | null;

export interface HttpResponse {
	status: number;
	headers: Record<string, HeaderValue>;
	/** The raw text (preferred) or an already parsed value. */
	body: unknown;
}

/** The injected transport. Must resolve for every HTTP status; reject only when no response came. */
export type Send = (request: HttpRequest) => Promise<HttpResponse>;
export type Sleep = (ms: number) => Promise<void>;

export function buildRequest(
	key: OperationKey,
	input: Record<string, unknown>,
	baseUrl: string,
	extraQuery: Record<string, string | number | undefined> = {},
): HttpRequest {
	const op = getOperation(key);
	let path = op.path;
	const query: string[] = [];
	const body: Record<string, unknown> = {};
	for (const field of op.fields) {
		const value = input[field.name];
		if (value === undefined) continue;
		if (field.in === 'path') {
			path = path.replace(`:${field.name}`, encodeURIComponent(String(value)));
		} else if (field.in === 'query') {
			query.push(`${encodeURIComponent(field.name)}=${encodeURIComponent(String(value))}`);
		} else {
			body[field.name] = value;
		}
	}
	for (const [name, value] of Object.entries(extraQuery)) {
		if (value !== undefined) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
	}
	const headers: Record<string, string> = { Accept: 'application/json' };
	const request: HttpRequest = {
		method: op.method,
		url: `${baseUrl}${path}${query.length ? `?${query.join('&')}` : ''}`,
		headers,
	};
	if (op.method === 'POST') {
		headers['Content-Type'] = 'application/json';
		request.body = body;
	}
	return request;
}

export function headerValue(headers: Record<string, HeaderValue> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [k, v] of Object.entries(headers)) {
		if (k.toLowerCase() !== wanted || v === undefined || v === null) continue;
		return Array.isArray(v) ? v[0] : String(v);
	}
	return undefined;
}

/**
 * The server's retry delay in ms, from `Retry-After` (seconds or HTTP date),
 * `X-RateLimit-Reset` / `RateLimit-Reset` (epoch seconds, epoch ms, or seconds
 * from now), or a `retryAfter` number in the body.
 */
export function parseRetryDelay(headers: Record<string, HeaderValue> | undefined, now: number, body?: unknown): number | undefined {
	const retryAfter = headerValue(headers, 'retry-after')?.trim();
	if (retryAfter) {
		if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
		const at = Date.parse(retryAfter);
		if (!Number.isNaN(at)) return Math.max(0, at - now);
	}
	for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
		const raw = headerValue(headers, name)?.trim();
		if (!raw) continue;
		if (/^\d+(\.\d+)?$/.test(raw)) {
			const n = Number(raw);
			if (n > 1e12) return Math.max(0, n - now); // epoch ms
			if (n > 1e9) return Math.max(0, n * 1000 - now); // epoch s
			return Math.round(n * 1000); // seconds from now
		}
		const at = Date.parse(raw);
		if (!Number.isNaN(at)) return Math.max(0, at - now);
	}
	if (body && typeof body === 'object') {
		const b = body as Record<string, unknown>;
		const inner = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : {};
		for (const v of [b.retryAfter, b.retry_after, inner.retryAfter, inner.retry_after]) {
			if (typeof v === 'number' && v >= 0) return Math.round(v * 1000);
		}
	}
	return undefined;
}

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

export interface ParsedBody {
	ok: boolean;
	value: unknown;
	/** The body looked like HTML. */
	html: boolean;
}

/** Reads a raw body: JSON text is parsed; an object is taken as is. */
export function parseBody(body: unknown): ParsedBody {
	if (body === undefined || body === null) return { ok: true, value: undefined, html: false };
	if (typeof body === 'string') {
		const text = body.trim();
		if (text === '') return { ok: true, value: undefined, html: false };
		try {
			return { ok: true, value: JSON.parse(text), html: false };
		} catch {
			return { ok: false, value: body, html: /^<(!doctype|html|head|body)|<\/html>/i.test(text) };
		}
	}
	if (typeof Buffer !== 'undefined' && Buffer.isBuffer(body)) return parseBody(body.toString('utf8'));
	return { ok: true, value: body, html: false };
}

export interface ErrorInfo {
	code?: string;
	message?: string;
}

/** Reads `{error}`, `{message}`, `{error:{code,message}}`, `{errors:[…]}`, `{detail}` and friends. */
export function extractErrorInfo(value: unknown): ErrorInfo {
	if (typeof value === 'string') {
		const t = value.trim();
		return t === 'WORKFLOW_BUSY' ? { code: t, message: t } : { message: t || undefined };
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
	const b = value as Record<string, unknown>;
	const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	let code = str(b.code) ?? str(b.error_code) ?? str(b.errorCode);
	let message: string | undefined;
	if (b.error && typeof b.error === 'object' && !Array.isArray(b.error)) {
		const e = b.error as Record<string, unknown>;
		code = str(e.code) ?? str(e.type) ?? code;
		message = str(e.message) ?? str(e.detail) ?? str(e.description);
	} else if (typeof b.error === 'string') {
		message = str(b.error);
		if (!message || /^[A-Z][A-Z0-9_]+$/.test(message)) code = code ?? message;
	}
	message = message ?? str(b.message) ?? str(b.detail) ?? str(b.error_description) ?? str(b.title);
	if (!message && Array.isArray(b.errors) && b.errors.length > 0) {
		const first = extractErrorInfo(b.errors[0]);
		message = first.message;
		code = code ?? first.code;
	}
	if (message === 'WORKFLOW_BUSY') code = code ?? 'WORKFLOW_BUSY';
	// An upper-case code in `error` and a human message beside it.
	if (typeof b.error === 'string' && /^[A-Z][A-Z0-9_]+$/.test(b.error) && str(b.message)) {
		message = str(b.message);
	}
	return { code, message };
}

/** True when a 2xx body is in fact an error envelope. */
function looksLikeErrorEnvelope(value: unknown): boolean {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
	const b = value as Record<string, unknown>;
	if (b.success === false || b.ok === false) return true;
	if (b.error && (typeof b.error === 'string' || typeof b.error === 'object')) return true;
	return b.code === 'WORKFLOW_BUSY' || b.message === 'WORKFLOW_BUSY';
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

export interface ReadContext {
	key: OperationKey;
	now: number;
}

/**
 * Turns a response into data, or throws the typed error it stands for.
 * WORKFLOW_BUSY is recognised by its code at any status, 2xx included.
 */
export function readResponse(response: HttpResponse, ctx: ReadContext): unknown {
	const op: OperationSpec = getOperation(ctx.key);
	const { status, headers } = response;
	const parsed = parseBody(response.body);
	const label = `${op.method} ${op.path}`;
	const base = { status, operation: op.key };

	if (status >= 200 && status < 300) {
		if (!parsed.ok) {
			throw new MalformedResponseError(
				`${label} answered ${status} with a body that is not valid JSON: "${snippetOf(parsed.value)}". This is a fault on the service side${op.method === 'POST' ? '; the call may have been carried out, so check before running it again' : ''}.`,
				{ ...base, snippet: snippetOf(parsed.value) },
			);
		}
		if (looksLikeErrorEnvelope(parsed.value)) {
			throw errorFor(status, headers, parsed.value, ctx, op, label, true);
		}
		return parsed.value;
	}
	throw errorFor(status, headers, parsed.value, ctx, op, label, parsed.ok, parsed.html);
}

function errorFor(
	status: number,
	headers: Record<string, HeaderValue>,
	value: unknown,
	ctx: ReadContext,
	op: OperationSpec,
	label: string,
	jsonOk: boolean,
	html = false,
): PostWriterError {
	const info = jsonOk ? extractErrorInfo(value) : html ? {} : extractErrorInfo(value);
	const base = { status, operation: op.key, code: info.code, snippet: snippetOf(value) };
	const serverMessage = info.message;

	if (info.code === 'WORKFLOW_BUSY' || serverMessage === 'WORKFLOW_BUSY') {
		return new WorkflowBusyError(parseRetryDelay(headers, ctx.now, value), base);
	}
	if (status === 429) {
		return new RateLimitedError(parseRetryDelay(headers, ctx.now, value), base);
	}
	if (status === 401) {
		const known = Object.values(AUTH_MESSAGES).find((m) => serverMessage?.toLowerCase().includes(m.toLowerCase()));
		return new AuthenticationError(known ?? serverMessage ?? 'Authentication failed', base);
	}
	if (status === 403) {
		const m = /missing required scope:\s*([A-Za-z_]+:[A-Za-z_]+)/i.exec(serverMessage ?? '');
		if (m || !serverMessage) return new MissingScopeError(serverMessage ?? 'Forbidden', m?.[1] ?? op.scope, base);
		return new ClientError(`${label} was refused (403): ${serverMessage}`, { ...base, serverMessage });
	}
	const creditCode = /credit/i.test(info.code ?? '') || (status === 402 && !info.code);
	if (status === 402 || creditCode) {
		return new InsufficientCreditsError(serverMessage ?? 'Not enough credits for this call', base);
	}
	if (status >= 500) {
		const paid = op.method === 'POST';
		return new ServerError(
			`${label} failed on the service side (${reasonPhrase(status)})${serverMessage ? `: ${serverMessage}` : html ? ' with an HTML error page' : ''}. ${
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

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Codes that prove the request never reached the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function findCode(e: unknown, depth = 0): string | undefined {
	if (!e || typeof e !== 'object' || depth > 4) return undefined;
	const o = e as Record<string, unknown>;
	if (typeof o.code === 'string' && /^[A-Z_]+$/.test(o.code)) return o.code;
	return findCode(o.cause, depth + 1) ?? findCode(o.error, depth + 1);
}

/** Turns a transport rejection (no response) into a NetworkError. */
export function networkErrorFrom(e: unknown, key: OperationKey): NetworkError {
	if (e instanceof NetworkError) return e;
	const op = getOperation(key);
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
