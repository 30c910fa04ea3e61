import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listForEachItem } from '../../helpers/run';
import { operationFields, paginationFields } from '../../helpers/fields';

const KEY = 'listDrafts';

export const description: INodeProperties[] = operationFields(KEY, { before: paginationFields('draft', 'getMany') });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await listForEachItem.call(this, items, KEY);
}
