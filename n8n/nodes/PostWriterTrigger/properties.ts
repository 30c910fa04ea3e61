/**
 * Post Writer Trigger's parameters, derived from the trigger catalogue
 * (shared/triggers/trigger-catalogue.ts) as the action node's are from the operation catalogue:
 * the event picker, then each event's fields, shown only for it. No name,
 * label, bound or option is written here.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { TriggerFieldSpec, TriggerKey } from '../../shared/triggers/definitions';
import { TRIGGER_KEYS, getTrigger, platformField } from '../../shared/triggers/definitions';
import { byName, compareLabels, sentence } from '../PostWriter/helpers/wording';

const EVENT = 'event';

function eventPicker(): INodeProperties {
	const [first] = TRIGGER_KEYS;
	return {
		displayName: 'Trigger On',
		name: EVENT,
		type: 'options',
		noDataExpression: true,
		options: byName(TRIGGER_KEYS.map((key) => ({ name: getTrigger(key).name, value: key, description: sentence(getTrigger(key).fires) }))),
		default: first,
	};
}

/**
 * One field of an event. n8n marks required only a text field, the one kind
 * that can be left empty (a number or a choice always holds a value), and
 * lists choices by name unless they are a scale.
 */
function fieldProperty(key: TriggerKey, field: TriggerFieldSpec): INodeProperties {
	const shown = platformField(field, 'n8n');
	const gate = field.onlyWith;
	const gateField = gate && getTrigger(key).fields.find((f) => f.name === gate.field);
	const common = {
		displayName: shown.label,
		name: shown.name,
		...(shown.description ? { description: sentence(shown.description) } : {}),
		displayOptions: { show: { [EVENT]: [key], ...(gate && gateField ? { [platformField(gateField, 'n8n').name]: [...gate.values] } : {}) } },
	};
	if (field.options) {
		const options: INodePropertyOptions[] = field.options.map((o) => ({ name: o.label, value: o.value, ...(o.description ? { description: sentence(o.description) } : {}) }));
		return { ...common, type: 'options', options: field.ordered ? options : byName(options), default: shown.default ?? field.options[0].value };
	}
	if (field.type === 'string') {
		return {
			...common,
			type: 'string',
			default: shown.default ?? '',
			...(field.required ? { required: true } : {}),
			...(field.placeholder ? { placeholder: `e.g. ${field.placeholder}` } : {}),
		};
	}
	return {
		...common,
		type: 'number',
		typeOptions: {
			...(field.min !== undefined ? { minValue: field.min } : {}),
			...(field.max !== undefined ? { maxValue: field.max } : {}),
			...(field.type === 'integer' ? { numberPrecision: 0 } : {}),
		},
		default: shown.default ?? field.min ?? 0,
	};
}

/** The trigger's parameters: the event picker, then the fields of each event in catalogue order. */
export function triggerProperties(): INodeProperties[] {
	return [eventPicker(), ...TRIGGER_KEYS.flatMap((key) => getTrigger(key).fields.map((field) => fieldProperty(key, field)))];
}

/** The canvas subtitle: the picked event's name (the default event's when none is stored). */
export function triggerSubtitle(): string {
	const [fallback, ...others] = TRIGGER_KEYS;
	const chain = [...others]
		.sort((a, b) => compareLabels(getTrigger(a).name, getTrigger(b).name))
		.map((key) => `$parameter["${EVENT}"] === "${key}" ? "${getTrigger(key).name}" : `)
		.join('');
	return `={{ ${chain}"${getTrigger(fallback).name}" }}`;
}
