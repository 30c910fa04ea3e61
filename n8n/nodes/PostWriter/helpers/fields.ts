/**
 * Every parameter of a catalogue operation, assembled and shown only for its
 * resource and operation: the fields at the top level, the Additional Fields /
 * Filters collections, Return All / Limit of the lists, then the Options
 * collection. No field of an API operation is written by hand here: names,
 * labels, descriptions, defaults, bounds, suggestions and dropdown sources all
 * come from the catalogue (shared/catalogue/) through field-properties.ts.
 * Operations only pass overrides for what is specific to n8n (an expression
 * default, a field made optional because the node fills it).
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { FieldSpec, OperationKey, Resource } from '../../../shared/catalogue/definitions';
import { getOperation, isListOperation, spendsCredits } from '../../../shared/catalogue/definitions';
import { fieldProperties } from './field-properties';
import type { FieldOverrides } from './layout';
import { ADDITIONAL_FIELDS, FILTERS, collectionOf, isTopLevel } from './layout';
import { concurrencyOption, creditFloorOption, maxQuotaWaitOption, optionsCollection } from './options';
import { paidMemoryOption, resendUnclearOption } from './paid';
import { compareLabels } from './wording';

export interface OperationFieldsOptions {
	/** Per-field changes, keyed by catalogue field name. */
	overrides?: FieldOverrides;
	/** Required fields the node fills itself when left empty: shown without the required mark. */
	optional?: readonly string[];
	/** Extra entries for the Options collection. */
	extraOptions?: INodeProperties[];
	/** Parameters shown after the fields and before the Options collection (Return All / Limit of the lists). */
	before?: INodeProperties[];
}

/** Shown only for one operation of one resource. */
export function showFor(resource: Resource, operation: string): IDisplayOptions {
	return { show: { resource: [resource], operation: [operation] } };
}

/**
 * The parameters of a list of fields, shown only with `display`: top-level
 * fields first, then the Additional Fields / Filters collection.
 */
export function specFields(
	fields: readonly FieldSpec[],
	display: IDisplayOptions,
	overrides: FieldOverrides = {},
	optional: readonly string[] = [],
): INodeProperties[] {
	const top: INodeProperties[] = [];
	const collections: Record<string, INodeProperties[]> = { [ADDITIONAL_FIELDS]: [], [FILTERS]: [] };
	for (const field of fields) {
		if (isTopLevel(field, overrides)) {
			const [first, ...rest] = fieldProperties(field, display);
			const { required, ...shown } = { ...first, ...overrides[field.name] } as INodeProperties;
			top.push({ ...shown, ...(required && !optional.includes(field.name) ? { required } : {}) } as INodeProperties, ...rest);
		} else {
			collections[collectionOf(field)].push(...fieldProperties(field, undefined, true));
		}
	}
	const out = [...top];
	for (const [name, values] of Object.entries(collections)) {
		if (values.length === 0) continue;
		out.push({
			displayName: name === FILTERS ? 'Filters' : 'Additional Fields',
			name,
			type: 'collection',
			placeholder: name === FILTERS ? 'Add Filter' : 'Add Field',
			default: {},
			displayOptions: display,
			options: values.sort((a, b) => compareLabels(a.displayName, b.displayName)),
		});
	}
	return out;
}

/**
 * Every parameter of a catalogue operation, shown only for its resource and
 * operation: its fields (see specFields), then the Options collection
 * (credit floor and the memory of paid calls on paid operations, concurrency
 * on all but the lists, the quota's time budget on all).
 */
export function operationFields(key: OperationKey, options: OperationFieldsOptions = {}): INodeProperties[] {
	const spec = getOperation(key);
	const display = showFor(spec.resource, spec.action);
	const out = specFields(spec.fields, display, options.overrides, options.optional);
	const extra = [
		...(spendsCredits(key) ? [creditFloorOption(), resendUnclearOption(), paidMemoryOption()] : []),
		...(isListOperation(key) ? [] : [concurrencyOption()]),
		maxQuotaWaitOption(),
		...(options.extraOptions ?? []),
	];
	return [...out, ...(options.before ?? []), ...optionsCollection(display, extra)];
}

/** Return All / Limit for list operations. */
export function paginationFields(resource: Resource, operation: string): INodeProperties[] {
	const display = showFor(resource, operation);
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: display,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...display.show, returnAll: [false] } },
		},
	];
}
