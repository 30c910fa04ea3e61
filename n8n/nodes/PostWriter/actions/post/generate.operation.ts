import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { callForEachItem } from '../../helpers/run';
import { operationFields, showFor } from '../../helpers/fields';

const KEY = 'generatePost';

/** Schedule At is shown next to Save as Draft, only when a draft is saved. */
const OVERRIDES = {
	scheduledAt: { displayOptions: { show: { ...showFor('post', 'generate').show, saveDraft: [true] } } },
};

export const description: INodeProperties[] = operationFields(KEY, { overrides: OVERRIDES });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY, OVERRIDES);
}
