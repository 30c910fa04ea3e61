/**
 * The response reader: turns what the transport returned into data, or into
 * the typed error it stands for (the mapping itself is mapping.ts; the retry
 * delay is rate-fields.ts's). Pure: no I/O, no timers.
 */
import type { OperationRef } from '../errors';
import { MalformedResponseError, errorFromResponse, looksLikeErrorEnvelope, snippetOf } from '../errors';
import type { HttpResponse } from '../base';
import { OWN_CLOCK, readRetryDelay, type ServerTime } from './rate-fields';

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

/**
 * Turns a response into data, or throws the typed error it stands for.
 * WORKFLOW_BUSY is recognised by its code at any status, 2xx included.
 */
export function readResponse(response: HttpResponse, op: OperationRef, now: number, clock: ServerTime = OWN_CLOCK, sentAt = now): unknown {
	const { status, headers } = response;
	const parsed = parseBody(response.body);
	if (status >= 200 && status < 300) {
		if (!parsed.ok) {
			throw new MalformedResponseError(
				`${op.method} ${op.path} answered ${status} with a body that is not valid JSON: "${snippetOf(parsed.value)}". This is a fault on the service side${op.method === 'POST' ? '; the call may have been carried out, so check before running it again' : ''}.`,
				{ status, operation: op.key, snippet: snippetOf(parsed.value) },
			);
		}
		if (!looksLikeErrorEnvelope(parsed.value)) return parsed.value;
	}
	const delay = readRetryDelay(headers, now, parsed.value, clock, sentAt);
	throw errorFromResponse(op, {
		status,
		value: parsed.value,
		jsonOk: parsed.ok,
		html: parsed.html,
		retryAfterMs: delay?.ms,
		retryAfterPrecisionMs: delay?.precisionMs,
		retryAfterSettled: delay?.settled,
	});
}
