import { createFromOperation } from './factory';
import { DRAFT_FIELD, TEXT_OR_DRAFT, textOrDraft } from './draftText';

export default createFromOperation({
	operation: 'predictVirality',
	noun: 'Virality Prediction',
	fields: TEXT_OR_DRAFT,
	extraFields: [DRAFT_FIELD],
	prepare: (input, { client }) => textOrDraft(input, client, 'predictVirality'),
});
