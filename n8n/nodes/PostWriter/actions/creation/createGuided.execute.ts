/**
 * The execution of Create Guided Post (createGuided.operation.ts), loaded on
 * its first run: each item's parameters become the core's input, and the
 * core's runGuided runs the creation workflow on the item's client.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { GuidedInput } from '../../../../shared/client';
import { GUIDED_OPERATION } from '../../../../shared/catalogue';
import { guidedInputFrom, runGuided } from '../../../../shared/client';
import { concurrencyOf, forEachItem } from '../../helpers/execute';
import { readFields } from '../../helpers/input';
import type { FieldOverrides } from '../../helpers/layout';

/** How the operation shows its fields (createGuided.operation.ts): its parameter value and overrides, where readFields finds the values. */
export interface GuidedLayout {
	operation: string;
	overrides: FieldOverrides;
}

/** The parameters of one item → the run's input (the mapping is the core's, shared with Zapier). */
export function readGuidedInput(ctx: IExecuteFunctions, itemIndex: number, layout: GuidedLayout): GuidedInput {
	return guidedInputFrom(readFields(ctx, GUIDED_OPERATION.fields, layout.operation, itemIndex, layout.overrides));
}

/**
 * Each item runs its own creation workflow; items run in parallel (Options ›
 * Concurrency), while the steps of one workflow run one after the other, so
 * no two calls are ever on the same workflow at once (WORKFLOW_BUSY).
 */
export async function executeGuided(this: IExecuteFunctions, items: INodeExecutionData[], layout: GuidedLayout): Promise<INodeExecutionData[]> {
	const concurrency = concurrencyOf(this, 'startPostCreation');
	return await forEachItem.call(
		this,
		items,
		'startPostCreation',
		async (itemIndex, client, memo) => {
			const result = await runGuided(client, readGuidedInput(this, itemIndex, layout), { memo });
			return {
				text: result.text,
				ready: result.ready,
				verdict: result.verdict,
				workflowId: result.workflowId,
				refinements: result.refinements,
				idea: result.idea,
				questions: result.questions,
			} as IDataObject;
		},
		{ concurrency },
	);
}
