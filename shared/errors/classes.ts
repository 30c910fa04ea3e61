/**
 * The typed error hierarchy: the base error every failure is, and the errors
 * whose words do not come from the service's answer (validation, quota,
 * network, the local refusals), with the redaction every message goes
 * through. Every message is written for the person building the automation:
 * what happened, which field or scope, what to do. Every message is redacted.
 *
 * A leaf of the core: it imports nothing but quota-budget.ts (the words of a
 * budget run out), so that the modules reading answers and deciding retries
 * stay within the import depth of shared/. The
 * errors that quote the service (key, scope, credits) and the mapping from a
 * failure to its error are mapping.ts, which re-exports all of this.
 */
import { budgetText, type QuotaBudget } from './quota-budget';

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
	| 'guided_incomplete'
	| 'redirect';

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

/** The server refused the call for now: safe to send again later. */
export class RateLimitedError extends PostWriterError {
	override readonly kind = 'rate_limited' as const;
	/** The server's delay before a retry, when it gave one. */
	readonly retryAfterMs?: number;
	/** How far before that delay's end the window may end (ms): 0 when told to the millisecond; unknown, a whole second. */
	readonly retryAfterPrecisionMs?: number;
	/** That delay's end lies within its precision for good (not an instant on a server clock still being learned, not a zero): a window's length may be learned from it. */
	readonly retryAfterSettled?: boolean;
	/** Set when the call gave up because the wait for the quota would pass its budget. */
	readonly budget?: QuotaBudget;
	/** Without a delay: when the window its refusals showed ends (ms from the error; silent-window.ts). Not the server's word. */
	readonly windowEndsInMs?: number;
	constructor(retryAfterMs: number | undefined, details: ErrorDetails & { operationName?: string; budget?: QuotaBudget; retryAfterPrecisionMs?: number; retryAfterSettled?: boolean; windowEndsInMs?: number } = {}) {
		const wait = retryAfterMs === undefined ? 'a moment' : `${Math.ceil(retryAfterMs / 1000)} s`;
		const on = details.operationName ?? details.operation;
		const { budget, retryAfterPrecisionMs, retryAfterSettled, windowEndsInMs, ...rest } = details;
		super(
			budget
				? `Rate limit reached${on ? ` on ${on}` : ''}: ${budgetText(budget, retryAfterMs)} Nothing was charged. ${budget.setting ? `Raise ${budget.setting}, run` : 'Run'} fewer executions on this API key at once, or spread them out.`
				: `Rate limit reached${on ? ` on ${on}` : ''}: the service asks to wait ${wait} before the next call. Spread the calls out, or lower the batch size.`,
			{ ...rest, status: details.status ?? 429 },
			'Retry later; the call was refused and nothing was charged.',
		);
		this.retryAfterMs = retryAfterMs;
		this.retryAfterPrecisionMs = retryAfterPrecisionMs;
		this.retryAfterSettled = retryAfterSettled;
		this.budget = budget;
		this.windowEndsInMs = windowEndsInMs;
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

/**
 * A redirect the client did not follow (to another address than the Base URL,
 * without a usable Location, or in a loop): the request was not sent there.
 * Definite, except after a 303 to a POST, which answers a handled request.
 */
export class RedirectError extends PostWriterError {
	override readonly kind = 'redirect' as const;
	/** True when the service may have carried the call out (a 303 to a POST): never resend a paid call. */
	readonly ambiguous: boolean;
	/** Where the redirect pointed (origin and path only). */
	readonly location?: string;
	constructor(message: string, ambiguous: boolean, details: ErrorDetails & { location?: string } = {}) {
		const { location, ...rest } = details;
		super(message, rest);
		this.ambiguous = ambiguous;
		this.location = location;
	}
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
