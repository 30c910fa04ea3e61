/**
 * The polling triggers of the trigger catalogue (shared/triggers/trigger-catalogue.ts), as the
 * creates and searches are of the operation catalogue: key, noun, label,
 * help text, input fields, sample and output fields come from the event's
 * declaration, and what a poll returns from the event's logic
 * (TRIGGER_EVENTS in shared/triggers/events.ts): every current event, newest
 * first, each with its `id`, which Zapier's dedupe fires once (the first
 * poll only seeds).
 */
import type { Bundle, PlainInputField, PlainOutputField, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/base';
import type { EventInput, TriggerWarning, TriggerFieldSpec, TriggerKey } from '../../../shared/triggers';
import { TRIGGER_EVENTS, getTrigger, platformField } from '../../../shared/triggers';
import type { Obj } from '../../../shared/base';
import { clientFor } from '../client';
import { defineTrigger } from '../define';
import { withErrors } from '../zapier-errors';
import { isoInZoneOf, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';
import { MAX_PAGES, PAGE_SIZE, pollCount, reportStalled } from './paging';

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

/** The event's fields as the Zap gave them (no defaults: the event's logic has Zapier's), under the catalogue's names. */
function eventInput(key: TriggerKey, inputData: Record<string, unknown>): EventInput {
	return Object.fromEntries(getTrigger(key).fields.map((field) => [field.name, inputData[platformField(field, 'zapier').name]]));
}

/**
 * Each time field the declaration names (zapier.localTimes) gets a twin
 * `<field>Local` in the user's zone, null when the field holds no time. The
 * twin takes the place the event's output keeps for it, else comes last.
 * `inZone` is isoInZoneOf(the zone), one formatter for the whole poll.
 */
function withLocalTimes<E extends Obj>(event: E, fields: readonly string[], inZone: (ms: number) => string): E {
	const out: Obj = { ...event };
	for (const field of fields) {
		const value = event[field];
		out[`${field}Local`] = typeof value === 'string' ? inZone(Date.parse(value)) : null;
	}
	return out as E;
}

/** What the poll met, in the Zap's log; unreadable records are an error on a first poll (see reportUnreadable). */
function report(z: ZObject, bundle: Bundle, label: string, warnings: TriggerWarning[]): void {
	for (const warning of warnings) {
		if (warning.kind === 'unreadable') reportUnreadable(z, bundle, label, warning.message);
		else if (warning.kind === 'stalled') reportStalled(z, label, warning.read);
		else z.console.log(`${BRAND.displayName} ${label}: ${warning.message}`);
	}
}

/** A polling trigger of the catalogue: its declaration and its event's logic. */
export function eventTrigger(key: TriggerKey) {
	const spec = getTrigger(key);
	const logic = TRIGGER_EVENTS[key];
	const label = spec.zapier?.label ?? spec.name;
	const inputFields = eventInputFields(key);
	const poll = async (z: ZObject, bundle: Bundle): Promise<Array<Obj & { id: string }>> => {
		const config = logic.config(eventInput(key, bundle.inputData as Record<string, unknown>), 'zapier');
		const zone = zoneOf(bundle.meta);
		const found = await logic.candidates(clientFor(z, bundle), config, {
			now: Date.now(),
			options: { pageSize: PAGE_SIZE, maxPages: MAX_PAGES },
			count: pollCount(bundle),
			zone,
		});
		report(z, bundle, label, found.warnings);
		const inZone = isoInZoneOf(zone);
		return found.events.map((event) => withLocalTimes(event, spec.zapier?.localTimes ?? [], inZone));
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
