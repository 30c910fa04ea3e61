/**
 * The n8n properties of one catalogue field, by its kind: a resource locator
 * for a dynamic source, a dropdown for options, a dropdown plus a "Custom"
 * text for suggestions, the input of answers (fields or JSON), and the plain
 * types. Names, labels, descriptions, defaults and bounds all come from the
 * field's catalogue spec; where the value sits is layout.ts's.
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldSpec, OperationKey, OperationSpec } from '../../../shared/catalogue/definitions';
import { getOperation } from '../../../shared/catalogue/definitions';
import { CUSTOM, answersJsonName, answersModeName, customName } from './layout';
import { byName, sentence } from './wording';

const CUSTOM_LABEL = 'Custom';

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
