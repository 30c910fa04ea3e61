/**
 * The one place where the core's typed errors become n8n errors: input
 * problems become NodeOperationError (naming the parameter), answers of the
 * service become NodeApiError (with the HTTP code and what to do).
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationKey } from '../../../shared/catalogue';
import { CreditFloorError, GuidedIncompleteError, PostWriterError, ValidationError } from '../../../shared/errors';
import { fieldLabel, labelledMessage } from '../../../shared/labels';

/** "numProposals: must be …" → "Number of Proposals: must be …" (the labels of the operation `key` first). */
function withLabel(error: PostWriterError, key: OperationKey | undefined): string {
	return labelledMessage(error, { operation: key });
}

export function toNodeError(node: INode, error: unknown, itemIndex: number, key?: OperationKey): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ValidationError || error instanceof CreditFloorError) {
		const label = error.field ? fieldLabel(error.field, key ?? error.operation) : undefined;
		return new NodeOperationError(node, withLabel(error, key), {
			itemIndex,
			description: error.hint ?? (label ? `Check the "${label}" parameter.` : undefined),
		});
	}
	if (error instanceof GuidedIncompleteError && error.status === undefined) {
		return new NodeOperationError(node, withLabel(error, key), { itemIndex, description: error.hint });
	}
	if (error instanceof PostWriterError) {
		const message = withLabel(error, key);
		const apiError = new NodeApiError(node, error.toJSON() as JsonObject, {
			itemIndex,
			message,
			description: error.hint ?? error.serverMessage,
			...(error.status !== undefined ? { httpCode: String(error.status) } : {}),
		});
		// n8n swaps messages that mention a network code (ECONNREFUSED…) for a generic text; ours says more.
		apiError.message = message;
		return apiError;
	}
	const generic = new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
	if (error instanceof Error) generic.message = error.message;
	return generic;
}
