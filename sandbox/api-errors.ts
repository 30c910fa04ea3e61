/**
 * Errors and answers of the sandbox, shared by routing, faults and handlers:
 * the ApiError every layer throws, the error body in the configured shape,
 * and the Outcome the server writes back.
 */

import { STATUS_CODES } from 'node:http';

/**
 * The shape of error bodies: `{ error: { code, message, field } }` (nested),
 * `{ error: message, code, field }` (flat), `{ message, code, field }`
 * (message), OAuth 2's `{ error: code, error_description: message }` (RFC 6749
 * §5.2; a 401 says `invalid_token` and a refused scope `insufficient_scope`, as
 * RFC 6750 §3.1 names them), or problem details' `{ type, title, status,
 * detail }` (RFC 9457; the code only as the last part of `type`).
 */
export type ErrorShape = 'nested' | 'flat' | 'message' | 'oauth' | 'problem';
export const ERROR_SHAPES: readonly ErrorShape[] = ['nested', 'flat', 'message', 'oauth', 'problem'];

/** Where the problem types of the `problem` shape live (a URI the sandbox does not serve: RFC 9457 does not ask for it). */
const PROBLEM_TYPES = 'https://sandbox.post-writer.test/problems/';

/** OAuth 2's codes (RFC 6750 §3.1) for the sandbox's own, where one applies. */
const OAUTH_CODES: Readonly<Record<string, string>> = {
	UNAUTHORIZED: 'invalid_token',
	INVALID_API_KEY: 'invalid_token',
	API_KEY_REVOKED: 'invalid_token',
	API_KEY_EXPIRED: 'invalid_token',
	MISSING_SCOPE: 'insufficient_scope',
	VALIDATION_ERROR: 'invalid_request',
	INVALID_JSON: 'invalid_request',
};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly headers: Record<string, string> = {},
		readonly field?: string,
	) {
		super(message);
	}
}

export const validation = (field: string, message: string) => new ApiError(400, 'VALIDATION_ERROR', message, {}, field);
export const outOfSequence = (message: string) => new ApiError(409, 'WORKFLOW_OUT_OF_SEQUENCE', message);

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

export interface Outcome {
	status: number;
	body: unknown;
	headers: Record<string, string>;
	/** Raw text (HTML, malformed JSON) instead of a JSON body. */
	raw?: { text: string; contentType: string };
}

export function errorBody(shape: ErrorShape, code: string, message: string, field?: string, status = 400): unknown {
	const extra = field ? { field } : {};
	switch (shape) {
		case 'flat':
			return { error: message, code, ...extra };
		case 'message':
			return { message, code, ...extra };
		case 'oauth':
			return { error: OAUTH_CODES[code] ?? code, error_description: message, ...extra };
		case 'problem':
			return { type: `${PROBLEM_TYPES}${code.toLowerCase().replace(/_/g, '-')}`, title: STATUS_CODES[status] ?? 'Error', status, detail: message, ...extra };
		default:
			return { error: { code, message, ...extra } };
	}
}

/** The content type of an error body in the shape (RFC 9457's own for problem details). */
export function errorContentType(shape: ErrorShape): string | undefined {
	return shape === 'problem' ? 'application/problem+json' : undefined;
}

export function errorOutcome(shape: ErrorShape, e: ApiError): Outcome {
	return { status: e.status, body: errorBody(shape, e.code, e.message, e.field, e.status), headers: { ...e.headers } };
}
