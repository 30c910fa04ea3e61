import { createFromOperation } from './factory';
import { DRAFT_FIELD, TEXT_OR_DRAFT, textOrDraft } from './draftText';

export default createFromOperation({
	key: 'predictVirality',
	operation: 'virality',
	noun: 'Virality Prediction',
	fields: TEXT_OR_DRAFT,
	extraFields: [DRAFT_FIELD],
	prepare: (input, { client }) => textOrDraft(input, client, 'virality'),
});
