/**
 * Node parameters derived from the operation catalogue (shared/catalogue.ts).
 * No field of an API operation is written by hand here: names, labels,
 * descriptions, defaults, bounds, suggestions and dropdown sources all come
 * from the catalogue. Operations only pass overrides for what is specific to
 * n8n (an expression default, a field made optional because the node fills it).
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldSpec, OperationKey, OperationSpec, Resource } from '../../../shared/catalogue';
import { OPERATION_KEYS, costSentence, getOperation, isListOperation, operationsByResource, spendsCredits } from '../../../shared/catalogue';
import { OTHER_FIELD_LABELS } from '../../../shared/labels';
import { AUTO_IN_FLIGHT } from '../../../shared/pacing';
import { DEFAULT_RETRY_POLICY } from '../../../shared/retry';
import { paidMemoryOption, resendUnclearOption } from './paid';

/** Value of the "Custom" choice offered next to suggestions. */
export const CUSTOM = '__custom__';
const CUSTOM_LABEL = 'Custom';

/**
 * Alphabetical order of two labels, as n8n's linter orders options
 * (`localeCompare`) for the plain words of this package's labels: case is
 * ignored first, then lower case comes first. Not `localeCompare` itself: its
 * first call loads the ICU collator, about 7 ms of the node's load when n8n
 * reads its description (test/n8n/description.test.ts checks that both orders agree).
 */
export function compareLabels(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	if (x !== y) return x < y ? -1 : 1;
	return a === b ? 0 : a > b ? -1 : 1;
}

/** Dropdown choices in alphabetical order, as n8n lists them. */
export function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => compareLabels(a.name, b.name));
}

/** Where optional fields without a default are grouped. */
export const ADDITIONAL_FIELDS = 'additionalFields';
export const FILTERS = 'filters';
export const OPTIONS = 'options';

export const MIN_CREDITS_TO_KEEP = 'minCreditsToKeep';
export const CONCURRENCY = 'concurrency';

export const MAX_QUOTA_WAIT = 'maxQuotaWait';

/**
 * Options › Concurrency left out is Auto: the calls in flight are sized from
 * what the answers show (the quota per window and the measured latency,
 * Little's law; without rate-limit headers, AIMD), by the pacing that every
 * run on the key shares (shared/pacing.ts). A number set is a hard cap.
 */
export const MAX_CONCURRENCY = AUTO_IN_FLIGHT.max;
/** The value the option starts with when it is added to the Options. */
export const CONCURRENCY_WHEN_ADDED = 10;
/** Options › Maximum Wait for the Quota, in minutes: how long a refused call (429, WORKFLOW_BUSY) keeps trying. */
export const DEFAULT_MAX_QUOTA_WAIT_MINUTES = DEFAULT_RETRY_POLICY.maxQuotaWaitMs / 60_000;
export const MAX_QUOTA_WAIT_MINUTES = 60;

export type FieldOverrides = Record<string, Partial<INodeProperties>>;

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

/** n8n writes one-sentence descriptions without the final period. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	const sentences = trimmed.split(/(?<=[.!?])\s+(?=[A-Z])/);
	return sentences.length === 1 ? trimmed.replace(/\.$/, '') : trimmed;
}

/** Verbs whose n8n wording is not just the imperative: "Lists drafts" → "Retrieve a list of drafts". */
const N8N_VERBS: Readonly<Record<string, string>> = { Gets: 'Retrieve', Lists: 'Retrieve a list of' };

/**
 * A catalogue description (third person, as Zapier words it: "Creates a new
 * draft…") in n8n's wording, the imperative: "Create a new draft…".
 */
export function imperative(text: string): string {
	return text.replace(/^([A-Z][a-z]+)\b/, (verb) => {
		if (N8N_VERBS[verb]) return N8N_VERBS[verb];
		if (/ies$/.test(verb)) return verb.replace(/ies$/, 'y');
		if (/(ss|sh|ch|x|z)es$/.test(verb)) return verb.replace(/es$/, '');
		return verb.replace(/s$/, '');
	});
}

/** "getMany" → "Get Many". */
export function titleOf(camel: string): string {
	return camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/** "Get Many Published Posts" → "Get many published posts". */
export function actionOf(name: string): string {
	const [first, ...rest] = name.split(' ');
	return [first, ...rest.map((w) => (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase()))].join(' ');
}

export function showFor(resource: Resource, operation: string): IDisplayOptions {
	return { show: { resource: [resource], operation: [operation] } };
}

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

function placeholderFor(spec: OperationSpec): string | undefined {
	const id = spec.sample.id;
	return typeof id === 'string' ? `e.g. ${id}` : undefined;
}

/** The properties of one catalogue field; `display` is omitted inside collections. */
export function fieldProperties(field: FieldSpec, display: IDisplayOptions | undefined, inCollection = false): INodeProperties[] {
	const common = {
		displayName: field.label,
		name: field.name,
		description: sentence(field.description),
		...(field.required && !inCollection ? { required: true } : {}),
		...(field.placeholder ? { placeholder: field.placeholder } : {}),
		...(display ? { displayOptions: display } : {}),
	};
	if (field.dynamic) {
		const source = getOperation(field.dynamic as OperationKey);
		return [
			{
				...common,
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						placeholder: `Select a ${field.label.toLowerCase()}...`,
						typeOptions: { searchListMethod: field.dynamic, searchable: true },
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						placeholder: placeholderFor(source),
					},
				],
			},
		];
	}
	if (field.options && field.options.length > 0) {
		const options: INodePropertyOptions[] = field.options.map((o) => ({
			name: o.label,
			value: o.value,
			...(o.description ? { description: sentence(o.description) } : {}),
		}));
		// In a collection too the default is a choice: the one the field gets when added.
		return [{ ...common, type: 'options', options: byName(options), default: field.default ?? field.options[0].value }];
	}
	if (field.suggestions && field.suggestions.length > 0) {
		const options: INodePropertyOptions[] = field.suggestions.map((s) => ({ name: s.label, value: s.value }));
		options.push({ name: CUSTOM_LABEL, value: CUSTOM, description: `Type your own ${field.label.toLowerCase()}` });
		const custom: INodeProperties = {
			displayName: `${CUSTOM_LABEL} ${field.label}`,
			name: customName(field),
			type: 'string',
			default: '',
			description: inCollection
				? `Used when '${field.label}' is '${CUSTOM_LABEL}': ${sentence(field.description).replace(/^./, (c) => c.toLowerCase())}`
				: sentence(field.description),
			...(inCollection ? {} : { displayOptions: { show: { ...(display?.show ?? {}), [field.name]: [CUSTOM] } } }),
		};
		if (field.maxLength && field.maxLength > 200) custom.typeOptions = { rows: 2 };
		return [{ ...common, type: 'options', options: byName(options), default: field.default ?? field.suggestions[0].value }, custom];
	}
	switch (field.type) {
		case 'string':
			return [{ ...common, type: 'string', default: field.default ?? '' }];
		case 'text':
			return [{ ...common, type: 'string', typeOptions: { rows: 4 }, default: field.default ?? '' }];
		case 'integer':
			return [
				{
					...common,
					type: 'number',
					typeOptions: {
						...(field.min !== undefined ? { minValue: field.min } : {}),
						...(field.max !== undefined ? { maxValue: field.max } : {}),
						numberPrecision: 0,
					},
					default: field.default ?? field.min ?? 0,
				},
			];
		case 'boolean':
			return [{ ...common, type: 'boolean', default: field.default ?? false }];
		case 'datetime':
			return [
				{
					...common,
					type: 'dateTime',
					default: '',
					description: `${field.description.trim().replace(/\.?$/, '.')} A time without a zone is read in the workflow's timezone.`,
				},
			];
		case 'date':
			return [{ ...common, type: 'string', placeholder: field.placeholder ?? 'YYYY-MM-DD', default: field.default ?? '' }];
		case 'answers': {
			const modeShow = (mode: string): IDisplayOptions => ({
				show: { ...(display?.show ?? {}), [answersModeName(field)]: [mode] },
			});
			return [
				{
					displayName: `${field.label} Input`,
					name: answersModeName(field),
					type: 'options',
					options: [
						{ name: 'Using Fields Below', value: 'fields' },
						{ name: 'Using JSON', value: 'json', description: 'A list of {"questionId", "answer"} objects, for example built by an expression' },
					],
					default: 'fields',
					...(display ? { displayOptions: display } : {}),
				},
				{
					...common,
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Answer',
					default: {},
					displayOptions: modeShow('fields'),
					options: [
						{
							displayName: 'Answer',
							name: 'answer',
							values: [
								{
									displayName: 'Question ID',
									name: 'questionId',
									type: 'string',
									default: '',
									description: "The ID of the question, as returned by the 'Prepare' operation",
								},
								{
									displayName: 'Answer',
									name: 'answer',
									type: 'string',
									typeOptions: { rows: 2 },
									default: '',
									description: 'Your answer to that question',
								},
							],
						},
					],
				},
				{
					displayName: `${field.label} (JSON)`,
					name: answersJsonName(field),
					type: 'json',
					default: '[]',
					description: sentence(field.description),
					displayOptions: modeShow('json'),
				},
			];
		}
	}
}

/** The Options collection offered on operations that may spend credits. */
export function creditFloorOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[MIN_CREDITS_TO_KEEP],
		name: MIN_CREDITS_TO_KEEP,
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			"Stop before the call when it would leave fewer credits than this; 0 means no minimum. The balance comes from the last answer of the service, or from 'Get Credits' (the API key then needs the scope account:read).",
	};
}

/** Options › Concurrency, on every operation that calls the API once per item (not on the lists, which follow their pages in order). */
export function concurrencyOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[CONCURRENCY],
		name: CONCURRENCY,
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: CONCURRENCY_WHEN_ADDED,
		description: `Most items sent to the service at once, from 1 to ${MAX_CONCURRENCY}. Leave this option out for Auto: the node sizes the calls in flight from the quota the service reports and how long its answers take, shared with every run on the same API key. Output items keep the input order.`,
	};
}

/** Options › Maximum Wait for the Quota, on every operation: the time budget of a call the service refuses for now (429, WORKFLOW_BUSY). */
export function maxQuotaWaitOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[MAX_QUOTA_WAIT],
		name: MAX_QUOTA_WAIT,
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_QUOTA_WAIT_MINUTES, numberPrecision: 1 },
		default: DEFAULT_MAX_QUOTA_WAIT_MINUTES,
		description: `Minutes a call refused by the rate limit (429) or WORKFLOW_BUSY keeps waiting and trying again before its item fails (${DEFAULT_MAX_QUOTA_WAIT_MINUTES} when not set). A refused call was not carried out and cost nothing.`,
	};
}

/** The Options collection of an operation, its entries sorted by name; none when empty. */
export function optionsCollection(display: IDisplayOptions, options: INodeProperties[]): INodeProperties[] {
	if (options.length === 0) return [];
	return [
		{
			displayName: 'Options',
			name: OPTIONS,
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: display,
			options: [...options].sort((a, b) => compareLabels(a.displayName, b.displayName)),
		},
	];
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

export interface OperationMeta {
	value: string;
	name: string;
	description: string;
	action: string;
}

/** The operation picker entry of a catalogue operation; operations that write or generate state their credit cost. */
export function operationMeta(key: OperationKey): OperationMeta {
	const spec = getOperation(key);
	const description = spec.method === 'POST' ? `${spec.description} ${costSentence(key)}` : spec.description;
	return { value: spec.action, name: titleOf(spec.action), description: sentence(imperative(description)), action: actionOf(spec.name) };
}

/**
 * The node's canvas subtitle: the title-case name of the operation picked
 * ("Generate Post", "Get Many Drafts"), looked up by resource and operation,
 * since several resources share an operation value such as getMany. `extra`
 * adds node-only operations (value → name) per resource.
 */
export function operationSubtitle(extra: Partial<Record<Resource, Array<Pick<OperationMeta, 'value' | 'name'>>>> = {}): string {
	const names: Record<string, string> = {};
	for (const key of OPERATION_KEYS) {
		const spec = getOperation(key);
		names[`${spec.resource}:${spec.action}`] = spec.name;
	}
	for (const [resource, metas] of Object.entries(extra)) {
		for (const meta of metas ?? []) names[`${resource}:${meta.value}`] = meta.name;
	}
	return `={{ ${JSON.stringify(names)}[$parameter["resource"] + ":" + $parameter["operation"]] ?? $parameter["operation"] }}`;
}

/** The operation picker of a resource: the catalogue's operations plus node-only ones, sorted by name. */
export function operationPicker(resource: Resource, extra: OperationMeta[] = [], defaultValue?: string): INodeProperties {
	const fromCatalogue = (operationsByResource().get(resource) ?? []).map((spec) => operationMeta(spec.key as OperationKey));
	const options = [...fromCatalogue, ...extra].sort((a, b) => compareLabels(a.name, b.name));
	const firstOperation = defaultValue ?? fromCatalogue[0]?.value ?? options[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: firstOperation,
	};
}
