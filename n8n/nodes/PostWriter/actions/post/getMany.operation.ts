import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { operationFields, paginationFields, showFor } from '../../helpers/fields';

const KEY = 'listPosts';

export const description: INodeProperties[] = operationFields(KEY, {
	before: [
		...paginationFields('post', 'getMany'),
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return the ID, text, publication time, URL and every metric the service sent as flat fields instead of the whole record',
			displayOptions: showFor('post', 'getMany'),
		},
	],
});

/** The run, with Simplify's flat records, is in getMany.execute.ts, loaded on the first run (it reads posts with the core's readers). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { executeGetManyPosts } = await import('./getMany.execute');
	return await executeGetManyPosts.call(this, items);
}
