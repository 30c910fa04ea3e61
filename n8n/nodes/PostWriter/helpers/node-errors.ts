/**
 * The one place where the core's typed errors become n8n errors: input
 * problems become NodeOperationError (naming the parameter), answers of the
 * service become NodeApiError (with the HTTP code and what to do).
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationKey } from '../../../shared/catalogue';
import { CreditFloorError, GuidedIncompleteError, PostWriterError, ValidationError } from '../../../shared/errors';
import { fieldLabel, labelledMessage } from '../../../shared/catalogue';

/** "numProposals: must be …" → "Number of Proposals: must be …" (the labels of the operation `key` first). */
function withLabel(error: PostWriterError, key: OperationKey | undefined): string {
	return labelledMessage(error, { operation: key });
}

/** A sentence ends at a period, question or exclamation mark followed by a capital. */
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z])/;

export interface ErrorTexts {
	/** What happened: the first sentence, without its final period. */
	title: string;
	/** What to do: the rest of the message, then the hint; else `fallback`. */
	description?: string;
}

/**
 * An error message as n8n shows it: the red title says what happened, the
 * description what to do. The core's messages say both ("What happened.
 * What to do."), some ending with their hint: the hint is cut off the message
 * and shown once, in the description.
 */
export function errorTexts(message: string, hint?: string, fallback?: string): ErrorTexts {
	let text = message.trim();
	if (hint && text.endsWith(hint)) text = text.slice(0, -hint.length).trim();
	const [first, ...rest] = text.split(SENTENCE_BREAK);
	const title = (first ?? text).replace(/\.$/, '');
	const advice = [...rest, ...(hint ? [hint] : [])].join(' ');
	const description = advice || (fallback && !title.includes(fallback.trim().replace(/\.$/, '')) ? fallback : undefined);
	return description ? { title, description } : { title };
}

/**
 * The text of the error item under Continue On Fail, where there is no
 * separate description: the core's whole message (what happened and what to
 * do), labelled. Other errors keep their message.
 */
export function errorItemText(error: unknown, nodeError: NodeApiError | NodeOperationError, key?: OperationKey): string {
	return error instanceof PostWriterError ? withLabel(error, key) : nodeError.message;
}

export function toNodeError(node: INode, error: unknown, itemIndex: number, key?: OperationKey): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ValidationError || error instanceof CreditFloorError) {
		const label = error.field ? fieldLabel(error.field, key ?? error.operation) : undefined;
		const { title, description } = errorTexts(withLabel(error, key), error.hint, label ? `Check the '${label}' parameter.` : undefined);
		return new NodeOperationError(node, title, { itemIndex, description });
	}
	if (error instanceof GuidedIncompleteError && error.status === undefined) {
		const { title, description } = errorTexts(withLabel(error, key), error.hint);
		return new NodeOperationError(node, title, { itemIndex, description });
	}
	if (error instanceof PostWriterError) {
		const { title, description } = errorTexts(withLabel(error, key), error.hint, error.serverMessage);
		const apiError = new NodeApiError(node, error.toJSON() as JsonObject, {
			itemIndex,
			message: title,
			description,
			...(error.status !== undefined ? { httpCode: String(error.status) } : {}),
		});
		// n8n swaps messages that mention a network code (ECONNREFUSED…) for a generic text; ours says more.
		apiError.message = title;
		return apiError;
	}
	const generic = new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
	if (error instanceof Error) generic.message = error.message;
	return generic;
}
