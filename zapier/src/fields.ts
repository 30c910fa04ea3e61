/**
 * Zapier fields, samples and output fields derived from the operation
 * catalogue (shared/catalogue/). No field list is written twice: a create
 * or search names its catalogue operation and, at most, overrides a field.
 */
import type { PlainInputField, PlainOutputField } from 'zapier-platform-core';
import { getOperation } from '../../shared/catalogue/definitions';
import type { FieldSpec, OperationKey } from '../../shared/catalogue/definitions';

/**
 * Dynamic dropdowns: a catalogue list operation is both a hidden trigger that
 * fills the dropdown (`key.id.label`) and the search that finds one (`key.id`),
 * under its own key.
 */
const dropdown = (key: OperationKey) => ({ dynamic: `${key}.id.label`, search: `${key}.id` });
export const DROPDOWNS: Record<string, { dynamic: string; search?: string }> = {
	listWritingProfiles: dropdown('listWritingProfiles'),
	listDrafts: dropdown('listDrafts'),
};

const TYPE: Record<FieldSpec['type'], PlainInputField['type']> = {
	string: 'string',
	text: 'text',
	integer: 'integer',
	boolean: 'boolean',
	datetime: 'datetime',
	date: 'string',
	answers: undefined,
};

function helpTextOf(spec: FieldSpec): string {
	let text = spec.description;
	if (spec.type === 'integer' && spec.min !== undefined && spec.max !== undefined && !/\bfrom \d+ to \d+/.test(text)) {
		text += ` From ${spec.min} to ${spec.max}.`;
	}
	if (spec.scope) text += ` Needs an API key with the scope \`${spec.scope}\`.`;
	return text;
}

/** One catalogue field as a Zapier input field. */
export function inputFieldFor(spec: FieldSpec): PlainInputField {
	if (spec.type === 'answers') {
		// Line items: one {questionId, answer} per question.
		return {
			key: spec.name,
			label: spec.label,
			required: Boolean(spec.required),
			children: [
				{ key: 'questionId', label: 'Question ID', required: true, helpText: 'The ID of a question returned by Prepare Post.' },
				{ key: 'answer', label: 'Answer', type: 'text', required: true, helpText: 'Your answer to that question.' },
			],
		};
	}
	const field: PlainInputField = {
		key: spec.name,
		label: spec.label,
		helpText: helpTextOf(spec),
		type: TYPE[spec.type],
		required: Boolean(spec.required),
	};
	if (spec.default !== undefined) field.default = String(spec.default);
	if (spec.placeholder) field.placeholder = spec.placeholder;
	if (spec.dynamic && DROPDOWNS[spec.dynamic]) {
		field.dynamic = DROPDOWNS[spec.dynamic].dynamic;
		if (DROPDOWNS[spec.dynamic].search) field.search = DROPDOWNS[spec.dynamic].search;
	} else if (spec.options?.length || spec.suggestions?.length) {
		field.choices = (spec.options ?? spec.suggestions ?? []).map((s) => ({ value: s.value, sample: s.value, label: s.label }));
	}
	return field;
}

export type FieldOverrides = Record<string, Partial<PlainInputField> | false>;

/** Input fields of field specs, in their order; `false` drops a field, an object amends it. */
export function inputFieldsOf(specs: readonly FieldSpec[], overrides: FieldOverrides = {}): PlainInputField[] {
	const out: PlainInputField[] = [];
	for (const spec of specs) {
		const o = overrides[spec.name];
		if (o === false) continue;
		out.push({ ...inputFieldFor(spec), ...(o ?? {}) } as PlainInputField);
	}
	return out;
}

/** The input fields of an operation, in catalogue order (see inputFieldsOf). */
export function inputFieldsFor(key: OperationKey, overrides: FieldOverrides = {}): PlainInputField[] {
	return inputFieldsOf(getOperation(key).fields, overrides);
}

/** The catalogue's labelled output fields of an operation, plus extras. */
export function outputFieldsFor(key: OperationKey, extra: PlainOutputField[] = []): PlainOutputField[] {
	const fields: PlainOutputField[] = getOperation(key).outputFields.map((f) => {
		const field: PlainOutputField = { key: f.key, label: f.label };
		if (f.type) field.type = f.type;
		return field;
	});
	for (const e of extra) {
		const i = fields.findIndex((f) => f.key === e.key);
		if (i >= 0) fields[i] = { ...fields[i], ...e };
		else fields.push(e);
	}
	return fields;
}

/** The catalogue's sample of an operation, plus extras. */
export function sampleFor(key: OperationKey, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { ...structuredClone(getOperation(key).sample), ...extra };
}

/** Catalogue suggestions of a field, as Zapier choices. */
export function choicesOf(key: OperationKey, field: string): { value: string; sample: string; label: string }[] {
	const spec = getOperation(key).fields.find((f) => f.name === field);
	return (spec?.suggestions ?? []).map((s) => ({ value: s.value, sample: s.value, label: s.label }));
}
