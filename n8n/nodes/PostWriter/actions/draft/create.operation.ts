import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { callForEachItem } from '../../helpers/run';
import { operationFields } from '../../helpers/fields';

const KEY = 'createDraft';

/** Schedule At stays visible: leaving it empty keeps an unscheduled draft. */
const OVERRIDES = { scheduledAt: {} };

export const description: INodeProperties[] = operationFields(KEY, { overrides: OVERRIDES });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY, OVERRIDES);
}
