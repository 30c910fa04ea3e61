import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listForEachItem } from '../../helpers/run';
import { operationFields, paginationFields } from '../../helpers/fields';

const KEY = 'listWritingProfiles';

export const description: INodeProperties[] = operationFields(KEY, { before: paginationFields('writingProfile', 'getMany') });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await listForEachItem.call(this, items, KEY);
}
