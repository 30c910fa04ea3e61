/**
 * The polling triggers of the trigger catalogue (shared/triggers/trigger-catalogue.ts), as the
 * creates and searches are of the operation catalogue: key, noun, label,
 * help text, input fields, sample and output fields come from the event's
 * declaration, and what a poll returns from the event's logic
 * (TRIGGER_EVENTS in shared/triggers/events.ts, run by event-poll.ts, which
 * loads on the first poll): every current event, newest first, each with its
 * `id`, which Zapier's dedupe fires once (the first poll only seeds).
 */
import type { Bundle, PlainInputField, PlainOutputField, ZObject } from 'zapier-platform-core';
import type { TriggerFieldSpec, TriggerKey } from '../../../shared/triggers/definitions';
import { getTrigger, platformField } from '../../../shared/triggers/definitions';
import { defineTrigger } from '../define';
import { withErrors } from '../perform';

/**
 * One field of an event. Zapier shows every field at once and cannot require
 * a field only with another's value: such a field is optional and says when
 * it applies.
 */
function inputField(key: TriggerKey, field: TriggerFieldSpec): PlainInputField {
	const shown = platformField(field, 'zapier');
	const gate = field.onlyWith;
	let helpText = shown.description ?? '';
	if (gate) {
		const choices = getTrigger(key).fields.find((f) => f.name === gate.field)?.options ?? [];
		const when = gate.values.map((v) => `"${choices.find((o) => o.value === v)?.label ?? v}"`).join(' or ');
		helpText = `Only with ${when}: ${helpText.replace(/^./, (c) => c.toLowerCase())}`;
	}
	return {
		key: shown.name,
		label: shown.label,
		...(field.type === 'string' ? {} : { type: field.type }),
		required: Boolean(field.required && !gate),
		...(shown.default !== undefined ? { default: String(shown.default) } : {}),
		...(field.placeholder ? { placeholder: field.placeholder } : {}),
		...(field.options ? { choices: field.options.map((o) => ({ value: o.value, sample: o.value, label: o.label })) } : {}),
		helpText,
	};
}

/** The input fields of an event, in catalogue order. */
export function eventInputFields(key: TriggerKey): PlainInputField[] {
	return getTrigger(key).fields.map((field) => inputField(key, field));
}

/** A polling trigger of the catalogue: its declaration, and its event's logic on the first poll. */
export function eventTrigger(key: TriggerKey) {
	const spec = getTrigger(key);
	const label = spec.zapier?.label ?? spec.name;
	const inputFields = eventInputFields(key);
	const poll = async (z: ZObject, bundle: Bundle) => {
		const { pollEvent } = await import('./event-poll');
		return await pollEvent(z, bundle, key);
	};
	return defineTrigger({
		key,
		noun: spec.noun,
		display: { label, description: spec.description },
		operation: {
			type: 'polling',
			...(inputFields.length > 0 ? { inputFields } : {}),
			perform: withErrors(poll, inputFields),
			sample: structuredClone(spec.sample),
			outputFields: spec.outputFields.map((f): PlainOutputField => ({ key: f.key, label: f.label, ...(f.type ? { type: f.type } : {}) })),
		},
	});
}
