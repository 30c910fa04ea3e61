import { createFromOperation } from './factory';
import { DRAFT_FIELD, PICKED_OUTPUT_FIELDS, PICKED_SAMPLE, TEXT_OR_DRAFT, textOrDraft, withPicked } from './draftText';

export default createFromOperation({
	operation: 'predictVirality',
	noun: 'Virality Prediction',
	description: 'Predicts the virality score of a post.',
	fields: TEXT_OR_DRAFT,
	extraFields: [DRAFT_FIELD],
	prepare: (input, { client }) => textOrDraft(input, client, 'predictVirality'),
	shape: withPicked,
	extraOutputFields: PICKED_OUTPUT_FIELDS,
	extraSample: PICKED_SAMPLE,
});
