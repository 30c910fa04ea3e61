/**
 * Reads the parameters of a catalogue operation for one item and turns them
 * into the core's input: values come from where layout.ts puts them (top level
 * or a collection), "Custom" choices are replaced by the custom text, dates
 * are converted with the workflow's timezone, answers are collected.
 * Validation itself stays in the core, which names the field.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { FieldSpec, OperationKey } from '../../../shared/catalogue';
import { getOperation } from '../../../shared/catalogue';
import { ValidationError } from '../../../shared/errors';
import { toUtcDate, toZonedTimestamp } from './dates';
import type { FieldOverrides } from './layout';
import { CUSTOM, answersJsonName, answersModeName, collectionOf, customName, isTopLevel } from './layout';
import { MIN_CREDITS_TO_KEEP, OPTIONS } from './options';

function readCollection(ctx: IExecuteFunctions, name: string, itemIndex: number): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {}) as IDataObject | undefined;
	return value && typeof value === 'object' ? value : {};
}

/** Parses the JSON parameter of answers (a string or an already evaluated expression). */
function parseAnswersJson(raw: unknown, field: FieldSpec, operation: string): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return undefined;
	let parsed: unknown;
	let valid = true;
	try {
		parsed = JSON.parse(raw);
	} catch {
		valid = false;
	}
	if (!valid) {
		throw new ValidationError(field.name, `is not valid JSON. Write a list such as [{"questionId": "q_1", "answer": "…"}].`, operation);
	}
	return parsed;
}

function readAnswers(ctx: IExecuteFunctions, field: FieldSpec, operation: string, itemIndex: number): unknown {
	const mode = ctx.getNodeParameter(answersModeName(field), itemIndex, 'fields') as string;
	if (mode === 'json') return parseAnswersJson(ctx.getNodeParameter(answersJsonName(field), itemIndex, '[]'), field, operation);
	const collection = ctx.getNodeParameter(field.name, itemIndex, {}) as { answer?: IDataObject[] };
	const entries = collection?.answer ?? [];
	return entries.length === 0 ? undefined : entries.map((e) => ({ questionId: e.questionId, answer: e.answer }));
}

/** The value of one field as the core expects it. */
function convert(field: FieldSpec, value: unknown, timeZone: string): unknown {
	if (field.type === 'datetime') return toZonedTimestamp(value, timeZone);
	if (field.type === 'date') return toUtcDate(value);
	return value;
}

/**
 * The values of `fields` for item `itemIndex`, read from where specFields put
 * them (`operation` names the operation in errors).
 */
export function readFields(
	ctx: IExecuteFunctions,
	fields: readonly FieldSpec[],
	operation: string,
	itemIndex: number,
	overrides: FieldOverrides = {},
): Record<string, unknown> {
	const timeZone = ctx.getTimezone();
	const input: Record<string, unknown> = {};
	const collections: Record<string, IDataObject> = {};
	for (const field of fields) {
		let value: unknown;
		if (field.type === 'answers') {
			value = readAnswers(ctx, field, operation, itemIndex);
		} else if (field.dynamic) {
			value = ctx.getNodeParameter(field.name, itemIndex, '', { extractValue: true });
		} else if (isTopLevel(field, overrides)) {
			// A parameter hidden by its display options is absent: read it as empty.
			value = ctx.getNodeParameter(field.name, itemIndex, '');
			if (value === CUSTOM) value = ctx.getNodeParameter(customName(field), itemIndex, '');
		} else {
			const name = collectionOf(field);
			collections[name] ??= readCollection(ctx, name, itemIndex);
			value = collections[name][field.name];
			if (value === CUSTOM) value = collections[name][customName(field)];
			// An empty choice in a collection means "any".
			if (value === '') value = undefined;
		}
		const converted = convert(field, value, timeZone);
		if (converted !== undefined) input[field.name] = converted;
	}
	return input;
}

/**
 * The core input of `key` for item `itemIndex`. Fields made optional by
 * overrides keep their empty value out, for the operation to fill.
 */
export function readInput(ctx: IExecuteFunctions, key: OperationKey, itemIndex: number, overrides: FieldOverrides = {}): Record<string, unknown> {
	return readFields(ctx, getOperation(key).fields, key, itemIndex, overrides);
}

/** The credit floor from the Options collection, when set above 0. */
export function readCreditFloor(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const options = readCollection(ctx, OPTIONS, itemIndex);
	const floor = options[MIN_CREDITS_TO_KEEP];
	if (floor === undefined || floor === null || floor === '' || floor === 0) return undefined;
	const n = Number(floor);
	if (!Number.isInteger(n) || n < 0) {
		throw new ValidationError(MIN_CREDITS_TO_KEEP, `must be a whole number of 0 or more, got ${String(floor)}.`);
	}
	return n;
}
