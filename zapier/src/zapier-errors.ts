/**
 * The one place where the core's typed errors become Zapier errors.
 *
 * - a revoked or expired key (401): z.errors.ExpiredAuthError, so that Zapier
 *   marks the connection expired, pauses its Zaps and emails the user; the
 *   message keeps the service's text and says to create a new key and reconnect;
 * - a missing header or an invalid key (401): z.errors.Error with its fix (the
 *   connection itself may be mistyped, so it is not marked expired);
 * - missing scope (403): z.errors.Error naming the scope;
 * - rate limit (429) and WORKFLOW_BUSY left over after the in-step retries:
 *   z.errors.ThrottledError with the server's delay, so Zapier retries later (a 429 that gave none: the wait until
 *   the window its refusals showed ends, else DEFAULT_THROTTLE_SECONDS);
 * - validation: z.errors.Error naming the field (its label and its key);
 * - everything else: z.errors.Error with the core's message, code and status.
 *
 * Loaded on a perform's first failure (withErrors, perform.ts).
 */
import type { ZObject } from 'zapier-platform-core';
import { BRAND } from '../../shared/base';
import { AuthenticationError, GuidedIncompleteError, MissingScopeError, PostWriterError, RateLimitedError, ValidationError, WorkflowBusyError, redact } from '../../shared/errors';
import { baseField, labelledMessage } from '../../shared/catalogue';

/** Zapier's own error classes pass through untouched. */
const ZAPIER_ERROR_NAMES = new Set([
	'AppError',
	'ThrottledError',
	'HaltedError',
	'ExpiredAuthError',
	'RefreshAuthError',
	'ResponseError',
	'CheckError',
	'StopRequestError',
]);

/** Fallback delay (s) when the server gave none. */
export const DEFAULT_THROTTLE_SECONDS = 60;

/** The 401 message in Zapier's words: the server's reason, then what to do with the connection. */
function authMessage(e: AuthenticationError): string {
	const server = (e.serverMessage ?? 'Authentication failed').replace(/\.$/, '');
	const where = `${BRAND.displayName} under ${BRAND.keysLocation}`;
	const account = `your ${BRAND.displayName} account in Zapier`;
	const todo =
		e.reason === 'revoked' || e.reason === 'expired'
			? `This key can no longer be used: create a new key in ${where}, then reconnect ${account} and replace the key with the new one.`
			: e.reason === 'missing'
				? `Reconnect ${account} and paste the full API key, exactly as ${BRAND.displayName} showed it when it was created in ${where}.`
				: `Check the API key of the connection, or create a new key in ${where} and reconnect ${account} with it.`;
	return redact(`${server}. ${todo}`);
}

/**
 * The creation steps are hidden in Zapier (their ids cannot be picked from a
 * list), so the core's "continue it with <step>" gives way to what a Zap
 * builder can do.
 */
export function guidedMessage(error: GuidedIncompleteError): string {
	if (!error.step) return error.message;
	return `${error.happened} Replay the step from the Zap history to run it again, or lower Maximum Refinements so that it finishes sooner.`;
}

function codeFor(e: PostWriterError): string {
	if (e instanceof AuthenticationError) return `AUTH_${e.reason.toUpperCase()}`;
	return (e.code ?? e.kind).toUpperCase();
}

function seconds(ms: number | undefined): number {
	return ms === undefined ? DEFAULT_THROTTLE_SECONDS : Math.max(1, Math.ceil(ms / 1000));
}

/** Fields of the action that failed, whose labels name a field in a validation error. */
export type FieldLabels = ReadonlyArray<{ key: string; label?: string }>;

/** Maps any error thrown inside a perform to the error Zapier should see. */
export function toZapierError(z: ZObject, error: unknown, fields: FieldLabels = []): Error {
	if (error instanceof Error && ZAPIER_ERROR_NAMES.has(error.name)) return error;
	if (!(error instanceof PostWriterError)) {
		const message = error instanceof Error ? error.message : String(error);
		return new z.errors.Error(redact(message), 'UNEXPECTED_ERROR');
	}
	if (error instanceof RateLimitedError || error instanceof WorkflowBusyError) {
		// A 429 that gave no delay: the window's end its refusals showed, else Zapier's default wait.
		return new z.errors.ThrottledError(error.message, seconds(error.retryAfterMs ?? (error instanceof RateLimitedError ? error.windowEndsInMs : undefined)));
	}
	if (error instanceof ValidationError) {
		const own = fields.find((f) => f.key === baseField(error.field))?.label;
		return new z.errors.Error(labelledMessage(error, { label: own, withKey: true }), 'VALIDATION_ERROR', 400);
	}
	if (error instanceof AuthenticationError) {
		if (error.reason === 'revoked' || error.reason === 'expired') return new z.errors.ExpiredAuthError(authMessage(error));
		return new z.errors.Error(authMessage(error), codeFor(error), 401);
	}
	if (error instanceof MissingScopeError) {
		const message = error.scope
			? `The API key lacks the scope "${error.scope}" (${error.serverMessage ?? 'Forbidden'}). Create a key that includes "${error.scope}" in ${BRAND.displayName} under ${BRAND.keysLocation}, then reconnect your ${BRAND.displayName} account in Zapier with it.`
			: `${error.serverMessage ?? 'Forbidden'}. Create a key with the needed scopes in ${BRAND.displayName} under ${BRAND.keysLocation}, then reconnect your ${BRAND.displayName} account in Zapier with it.`;
		return new z.errors.Error(redact(message), 'MISSING_SCOPE', 403);
	}
	if (error instanceof GuidedIncompleteError) {
		return new z.errors.Error(guidedMessage(error), 'GUIDED_INCOMPLETE', error.status);
	}
	return new z.errors.Error(error.message, codeFor(error), error.status);
}
