/**
 * Errors and answers of the sandbox, shared by routing, faults and handlers:
 * the ApiError every layer throws, the error body in the configured shape,
 * and the Outcome the server writes back.
 */

/** The shape of error bodies: `{ error: { code, message, field } }`, `{ code, message, field }` or `{ message }`. */
export type ErrorShape = 'nested' | 'flat' | 'message';

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

export function errorBody(shape: ErrorShape, code: string, message: string, field?: string): unknown {
	const extra = field ? { field } : {};
	switch (shape) {
		case 'flat':
			return { error: message, code, ...extra };
		case 'message':
			return { message, code, ...extra };
		default:
			return { error: { code, message, ...extra } };
	}
}

export function errorOutcome(shape: ErrorShape, e: ApiError): Outcome {
	return { status: e.status, body: errorBody(shape, e.code, e.message, e.field), headers: { ...e.headers } };
}
