/**
 * The operation picker of each resource and the node's canvas subtitle, from
 * the operation catalogue: each operation's value, title-case name,
 * description in n8n's wording (with its credit cost when it writes or
 * generates) and action, plus the node-only operations a resource adds.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationKey, Resource } from '../../../shared/catalogue/definitions';
import { OPERATION_KEYS, costSentence, getOperation, operationsByResource } from '../../../shared/catalogue/definitions';
import { actionOf, compareLabels, imperative, sentence, titleOf } from './wording';

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
