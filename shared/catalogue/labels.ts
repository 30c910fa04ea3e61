/**
 * Field labels for error messages: "numProposals: must be …" reads
 * "Number of Proposals: must be …". The labels are the catalogue's, those of
 * Create Guided Post, and the few of fields outside any operation.
 */
import { GUIDED_OPERATION } from './guided';
import type { OperationKey } from './operations';
import { OPERATIONS, OPERATION_KEYS } from './operations';
import type { FieldSpec } from './spec';

/** Fields outside any operation: the credential's, the trigger's notice, the credit floor, the concurrency, the input as a whole. */
export const OTHER_FIELD_LABELS: Readonly<Record<string, string>> = {
	baseUrl: 'Base URL',
	apiKey: 'API Key',
	notifyBefore: 'Notify Me Before',
	minCreditsToKeep: 'Minimum Credits to Keep',
	concurrency: 'Concurrency',
	maxQuotaWait: 'Maximum Wait for the Quota',
	resendUnclear: 'Send Again After an Unclear Failure',
	paidMemoryMinutes: 'Remember Paid Answers For (Minutes)',
	ideas: 'Ideas',
	input: 'Input',
};

/** The field a path names: "answers[0].answer" → "answers". */
export function baseField(field: string): string {
	return field.replace(/[[.].*$/, '');
}

function isOperationKey(key: string | undefined): key is OperationKey {
	return key !== undefined && (OPERATION_KEYS as string[]).includes(key);
}

/** The label of a field: the operation's own first, then Create Guided Post's, any operation's, the others'. */
export function fieldLabel(field: string, operation?: string): string | undefined {
	const name = baseField(field);
	const lists: Array<readonly FieldSpec[]> = [
		...(isOperationKey(operation) ? [OPERATIONS[operation].fields] : []),
		GUIDED_OPERATION.fields,
		...OPERATION_KEYS.map((key) => OPERATIONS[key].fields),
	];
	for (const fields of lists) {
		const label = fields.find((f) => f.name === name)?.label;
		if (label) return label;
	}
	return OTHER_FIELD_LABELS[name];
}

export interface LabelOptions {
	/** The label to use, when the platform has its own for the field. */
	label?: string;
	/** The operation whose fields are looked up first (by default the error's). */
	operation?: string;
	/** Keep the key after the label: "Number of Proposals (numProposals): …". */
	withKey?: boolean;
}

/**
 * The message of an error about a field, with the field's label in place of
 * its key: "numProposals: must be …" → "Number of Proposals: must be …",
 * "answers[0].answer: …" → "Answers #1.answer: …". A message that does not
 * start with its field, or a field without a label, is left as it is.
 */
export function labelledMessage(error: { message: string; field?: string; operation?: string }, options: LabelOptions = {}): string {
	const { message, field } = error;
	if (!field || !message.startsWith(`${field}: `)) return message;
	const label = options.label ?? fieldLabel(field, options.operation ?? error.operation);
	if (!label || label === field) return message;
	const problem = message.slice(field.length + 2);
	if (options.withKey) return `${label} (${field}): ${problem}`;
	const rest = field.slice(baseField(field).length).replace(/\[(\d+)\]/g, (_, n: string) => ` #${Number(n) + 1}`);
	return `${label}${rest}: ${problem}`;
}
