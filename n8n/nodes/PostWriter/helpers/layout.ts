/**
 * Where a catalogue field's value sits among the node's parameters: at the
 * top level or in the Additional Fields / Filters collection, and the names of
 * the parameters that go with it (the text of a "Custom" choice, the input
 * mode and JSON of answers). Shared by what writes the parameters
 * (field-properties.ts, fields.ts) and what reads them (input.ts), so that
 * both agree by construction.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue/definitions';

/** Value of the "Custom" choice offered next to suggestions. */
export const CUSTOM = '__custom__';

/** Where optional fields without a default are grouped. */
export const ADDITIONAL_FIELDS = 'additionalFields';
export const FILTERS = 'filters';

export type FieldOverrides = Record<string, Partial<INodeProperties>>;

/** Whether the field sits at the top level (required or with a default) or in a collection. */
export function isTopLevel(field: FieldSpec, overrides: FieldOverrides = {}): boolean {
	return Boolean(field.required || field.default !== undefined || overrides[field.name]);
}

export function collectionOf(field: FieldSpec): string {
	return field.in === 'query' ? FILTERS : ADDITIONAL_FIELDS;
}

export function customName(field: FieldSpec): string {
	return `${field.name}Custom`;
}

export function answersModeName(field: FieldSpec): string {
	return `${field.name}Input`;
}

export function answersJsonName(field: FieldSpec): string {
	return `${field.name}Json`;
}
