/**
 * Create Guided Post: ideas → prepare → write → validate (→ refine) in one
 * step, through the core's runGuided. Its name, description and fields are
 * the core's GUIDED_OPERATION; only how n8n shows some of them is written
 * here. Nothing is saved or scheduled. Its execution is in
 * createGuided.execute.ts, loaded on the first run.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { IdeaSelection } from '../../../../shared/catalogue/definitions';
import { GUIDED_OPERATION } from '../../../../shared/catalogue/definitions';
import { showFor, specFields } from '../../helpers/fields';
import type { FieldOverrides } from '../../helpers/layout';
import type { OperationMeta } from '../../helpers/operation-picker';
import { concurrencyOption, maxQuotaWaitOption, optionsCollection } from '../../helpers/options';
import { actionOf, imperative, sentence } from '../../helpers/wording';
import { paidMemoryOption, resendUnclearOption } from '../../helpers/paid';

export const OPERATION = 'createGuided';

export const meta: OperationMeta = {
	value: OPERATION,
	name: GUIDED_OPERATION.name,
	description: sentence(imperative(GUIDED_OPERATION.description)),
	action: actionOf(GUIDED_OPERATION.name),
};

const display = showFor('creation', OPERATION);
const shownWith = (selection: IdeaSelection) => ({ displayOptions: { show: { ...display.show, ideaSelection: [selection] } } });

/** What is specific to n8n: the idea fields follow Idea Selection, answers are rows that may name their question. */
const OVERRIDES: FieldOverrides = {
	ideaIndex: shownWith('index'),
	ideaMatch: shownWith('match'),
	answers: {
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Answer',
		default: {},
		options: [
			{
				displayName: 'Answer',
				name: 'answer',
				values: [
					{
						displayName: 'Question',
						name: 'question',
						type: 'string',
						default: '',
						description:
							"The question ID, or words that appear in the question. Fill 'Question' on every answer or on none; left empty everywhere, the answers go in question order.",
					},
					{
						displayName: 'Answer',
						name: 'answer',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
					},
				],
			},
		],
	},
};

export const description: INodeProperties[] = [
	...specFields(GUIDED_OPERATION.fields, display, OVERRIDES),
	...optionsCollection(display, [concurrencyOption(), maxQuotaWaitOption(), resendUnclearOption(), paidMemoryOption()]),
];

/**
 * Each item runs its own creation workflow; items run in parallel (Options ›
 * Concurrency), while the steps of one workflow run one after the other, so
 * no two calls are ever on the same workflow at once (WORKFLOW_BUSY).
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { executeGuided } = await import('./createGuided.execute');
	return await executeGuided.call(this, items, { operation: OPERATION, overrides: OVERRIDES });
}
