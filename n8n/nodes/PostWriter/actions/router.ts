/**
 * Sends the run to the operation picked: <resource>[operation].execute.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PostWriterType } from './node.type';
import { RESOURCE_MODULES } from './resources';

type Execute = (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

const RESOURCES: Record<PostWriterType['resource'], Record<string, { execute: Execute } | unknown>> = RESOURCE_MODULES;

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as PostWriterType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = RESOURCES[resource]?.[operation] as { execute?: Execute } | undefined;
	if (!handler || typeof handler.execute !== 'function') {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of the resource "${resource}" is not supported`);
	}
	return [await handler.execute.call(this, items)];
}
