/**
 * The execution of Post › Get Many (getMany.operation.ts), loaded on its
 * first run: the list, each post as the whole record or, with Simplify, as
 * one flat record, and a hint when a labelled metric is missing.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getOperation } from '../../../../shared/catalogue';
import { metricsOf, readPost } from '../../../../shared/records';
import { missingMetricsHint } from '../../../../shared/triggers';
import { listForEachItem } from '../../helpers/execute';

const KEY = 'listPosts';

/** The metrics among the catalogue's output fields of the operation (`metrics__likes` → `likes`). */
const METRIC_PREFIX = 'metrics__';
const METRICS = getOperation(KEY)
	.outputFields.filter((f) => f.key.startsWith(METRIC_PREFIX))
	.map((f) => f.key.slice(METRIC_PREFIX.length));

/**
 * One flat record per post: what a spreadsheet or a message needs. The
 * labelled fields, the four labelled metrics (null when the service sent
 * none: the output pane then says so, see missingMetricsHint), then every
 * other metric it sent, whatever its name or container (`saves`,
 * `clickCount`, `public_metrics.quote_count`…). The post is read by the core's reader first, so `reposts`
 * is the labelled `shares` and `published_at` the labelled `publishedAt`.
 */
export function simplifyPost(raw: IDataObject): IDataObject {
	const post = readPost(raw) as IDataObject;
	const metrics = metricsOf(post) as IDataObject;
	const flat: IDataObject = { id: post.id, text: post.text, publishedAt: post.publishedAt };
	if (post.url !== undefined) flat.url = post.url;
	if (post.draftId !== undefined) flat.draftId = post.draftId;
	for (const name of METRICS) flat[name] = typeof metrics[name] === 'number' ? metrics[name] : null;
	for (const [name, value] of Object.entries(metrics)) if (!(name in flat)) flat[name] = value;
	return flat;
}

export async function executeGetManyPosts(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await listForEachItem.call(
		this,
		items,
		KEY,
		(post, itemIndex) => (this.getNodeParameter('simplify', itemIndex, true) ? simplifyPost(post) : post),
		(posts) => missingMetricsHint(posts),
	);
}
