/**
 * The per-item loop shared by every operation: items in order, one client per
 * run (so the retry policy and the credit floor see the whole run), pairedItem
 * on every output, continueOnFail honoured, errors mapped once.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { OperationKey } from '../../../shared/catalogue';
import type { PostWriterClient } from '../../../shared/client';
import { createClient } from '../transport';
import { errorItemText, toNodeError } from './errors';
import type { FieldOverrides } from './fields';
import { readCreditFloor, readInput } from './input';

export type ItemHandler = (itemIndex: number, client: PostWriterClient) => Promise<IDataObject | IDataObject[]>;

export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey | undefined,
	handler: ItemHandler,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	let client: PostWriterClient | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let failure: unknown;
		try {
			client ??= await createClient(this);
			const result = await handler(itemIndex, client);
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json, pairedItem: { item: itemIndex } });
			}
			continue;
		} catch (error) {
			failure = error;
		}
		const nodeError = toNodeError(this.getNode(), failure, itemIndex, key);
		if (!this.continueOnFail()) throw nodeError;
		output.push({ json: { error: errorItemText(failure, nodeError, key) }, pairedItem: { item: itemIndex } });
	}
	return output;
}

/** Runs a single (non-list) catalogue operation on each item, with the credit floor when set. */
export async function callForEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey,
	overrides: FieldOverrides = {},
	prepare?: (input: Record<string, unknown>, itemIndex: number) => Record<string, unknown>,
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, key, async (itemIndex, client) => {
		const read = readInput(this, key, itemIndex, overrides);
		const input = prepare ? prepare(read, itemIndex) : read;
		const minCreditsToKeep = readCreditFloor(this, itemIndex);
		return (await client.call(key, input, { minCreditsToKeep })) as IDataObject;
	});
}

/** Runs a list operation on each item with Return All / Limit. */
export async function listForEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey,
	shape?: (record: IDataObject, itemIndex: number) => IDataObject,
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, key, async (itemIndex, client) => {
		const input = readInput(this, key, itemIndex);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		const records = (await client.list(key, input, { limit })) as IDataObject[];
		return shape ? records.map((r) => shape(r, itemIndex)) : records;
	});
}
