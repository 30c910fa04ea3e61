import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { callForEachItem } from '../../helpers/run';
import { operationFields } from '../../helpers/fields';
import { FROM_PREVIOUS_STEP } from './common';

const KEY = 'writePost';

export const description: INodeProperties[] = operationFields(KEY, { overrides: FROM_PREVIOUS_STEP });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY, FROM_PREVIOUS_STEP);
}
