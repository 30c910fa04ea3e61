import { createFromOperation } from './factory';
import { DRAFT_FIELD, TEXT_OR_DRAFT, textOrDraft } from './draftText';

export default createFromOperation({
	operation: 'analyzePost',
	noun: 'Analysis',
	description: 'Analyzes a text and returns the writing rules and tactics it uses.',
	fields: TEXT_OR_DRAFT,
	extraFields: [DRAFT_FIELD],
	prepare: (input, { client }) => textOrDraft(input, client, 'analyzePost'),
});
