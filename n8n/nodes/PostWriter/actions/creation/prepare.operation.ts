import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { callForEachItem } from '../../helpers/run';
import { operationFields } from '../../helpers/fields';
import { FROM_PREVIOUS_STEP } from './common';

const KEY = 'preparePost';

const OVERRIDES = {
	...FROM_PREVIOUS_STEP,
	ideaId: {
		default: '={{ $json.ideas[0].id }}',
		hint: "By default the first idea returned by the 'Start' operation; change the index or paste an idea ID",
	},
};

export const description: INodeProperties[] = operationFields(KEY, { overrides: OVERRIDES });

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY, OVERRIDES);
}
