import type { FieldOverrides } from '../../helpers/layout';

/** Each step takes the workflow ID from the item the previous step returned. */
export const FROM_PREVIOUS_STEP: FieldOverrides = {
	workflowId: {
		default: '={{ $json.workflowId }}',
		hint: 'By default the creation workflow ID of the incoming item, as returned by the previous step',
	},
};
