/**
 * The operations' way into their execution, loaded on the node's first run rather than with the node. n8n
 * reads the node's description when it loads the package, and the description needs none of the call
 * machinery: execute.ts and what it loads (the transport, the core's client, its pacing and paid calls, the
 * errors). Each function here loads execute.ts on its first call (a relative dynamic import: later calls find
 * it loaded) and runs its namesake there, with the same `this` and arguments.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type * as Execute from './execute';

async function execution(): Promise<typeof Execute> {
	return await import('./execute');
}

/** execute.ts's callForEachItem: a single catalogue operation on each item. */
export async function callForEachItem(this: IExecuteFunctions, ...args: Parameters<typeof Execute.callForEachItem>): Promise<INodeExecutionData[]> {
	return await (await execution()).callForEachItem.apply(this, args);
}

/** execute.ts's listForEachItem: a list operation on each item, with Return All / Limit. */
export async function listForEachItem(this: IExecuteFunctions, ...args: Parameters<typeof Execute.listForEachItem>): Promise<INodeExecutionData[]> {
	return await (await execution()).listForEachItem.apply(this, args);
}
