import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getOperation } from '../../../../shared/catalogue';
import { listForEachItem } from '../../helpers/execute';
import { operationFields, paginationFields, showFor } from '../../helpers/fields';

const KEY = 'listPosts';

export const description: INodeProperties[] = [
	...operationFields(KEY),
	...paginationFields('post', 'getMany'),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return the ID, text, publication time, URL and metrics as flat fields instead of the raw record',
		displayOptions: showFor('post', 'getMany'),
	},
];

/** The metrics among the catalogue's output fields of the operation (`metrics__likes` → `likes`). */
const METRIC_PREFIX = 'metrics__';
const METRICS = getOperation(KEY)
	.outputFields.filter((f) => f.key.startsWith(METRIC_PREFIX))
	.map((f) => f.key.slice(METRIC_PREFIX.length));

/** One flat record per post: what a spreadsheet or a message needs. */
export function simplifyPost(post: IDataObject): IDataObject {
	const metrics = (post.metrics && typeof post.metrics === 'object' ? post.metrics : {}) as IDataObject;
	const flat: IDataObject = { id: post.id, text: post.text, publishedAt: post.publishedAt };
	if (post.url !== undefined) flat.url = post.url;
	if (post.draftId !== undefined) flat.draftId = post.draftId;
	for (const name of METRICS) flat[name] = typeof metrics[name] === 'number' ? metrics[name] : null;
	return flat;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await listForEachItem.call(this, items, KEY, (post, itemIndex) =>
		this.getNodeParameter('simplify', itemIndex, true) ? simplifyPost(post) : post,
	);
}
