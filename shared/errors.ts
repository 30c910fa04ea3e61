/**
 * One typed error hierarchy, mapped once per platform at the edge.
 * Every message is written for the person building the automation: what
 * happened, which field or scope, what to do. Every message is redacted.
 */
import { BRAND } from './brand';

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

/** Secrets registered by clients, most recent last; bounded so a long-lived worker serving many credentials stays small. */
const extraSecrets = new Set<string>();
export const MAX_REGISTERED_SECRETS = 64;

/**
 * Registers a secret (an API key) so that no error message ever contains it.
 * Keys in the spec's format are redacted by pattern anyway; the registry also
 * covers keys of another shape. The oldest registration goes first past the bound.
 */
export function registerSecret(secret: string | undefined): void {
	if (!secret || secret.length < 6) return;
	extraSecrets.delete(secret);
	extraSecrets.add(secret);
	if (extraSecrets.size > MAX_REGISTERED_SECRETS) {
		const oldest = extraSecrets.values().next().value;
		if (oldest !== undefined) extraSecrets.delete(oldest);
	}
}

export function redact(text: string): string {
	let out = text;
	for (const secret of extraSecrets) {
		if (out.includes(secret)) out = out.split(secret).join('[redacted]');
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
	/** Operation key, e.g. `generate`. */
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
	readonly serverMessage?: string;
	readonly snippet?: string;
	/** What the user should do, one sentence. */
	readonly hint?: string;

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

function authReason(message: string): AuthReason {
	const lower = message.toLowerCase();
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

/** The server refused the call for now: safe to send again later. */
export class RateLimitedError extends PostWriterError {
	override readonly kind = 'rate_limited' as const;
	/** The server's delay before a retry, when it gave one. */
	readonly retryAfterMs?: number;
	constructor(retryAfterMs: number | undefined, details: ErrorDetails = {}) {
		const wait = retryAfterMs === undefined ? 'a moment' : `${Math.ceil(retryAfterMs / 1000)} s`;
		super(
			`Rate limit reached${details.operation ? ` on ${details.operation}` : ''}: the service asks to wait ${wait} before the next call. Spread the calls out, or lower the batch size.`,
			{ ...details, status: details.status ?? 429 },
			'Retry later; the call was refused and nothing was charged.',
		);
		this.retryAfterMs = retryAfterMs;
	}
	override get safeToRetry(): boolean {
		return true;
	}
}

/** A creation workflow operation is still running: safe to send again. */
export class WorkflowBusyError extends PostWriterError {
	override readonly kind = 'workflow_busy' as const;
	readonly retryAfterMs?: number;
	constructor(retryAfterMs: number | undefined, details: ErrorDetails = {}) {
		super(
			'WORKFLOW_BUSY: another operation is still running on this creation workflow. Wait for it to finish, then call again.',
			{ ...details, code: 'WORKFLOW_BUSY' },
			'Run the steps of one workflow one after the other, not in parallel.',
		);
		this.retryAfterMs = retryAfterMs;
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
	constructor(message: string, workflowId: string | undefined, details: ErrorDetails = {}) {
		super(message, details);
		this.workflowId = workflowId;
	}
}

export function isPostWriterError(e: unknown): e is PostWriterError {
	return e instanceof PostWriterError;
}
