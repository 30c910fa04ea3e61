import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { callForEachItem } from '../../helpers/run';
import { operationFields } from '../../helpers/fields';

/** Instruction presets (punchier, shorter…) and the Custom choice come from the catalogue's suggestions. */
const KEY = 'rewritePost';

export const description: INodeProperties[] = operationFields(KEY);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY);
}
