import { createFromOperation } from './factory';
import { DRAFT_FIELD, PICKED_OUTPUT_FIELDS, PICKED_SAMPLE, TEXT_OR_DRAFT, textOrDraft, withPicked } from './draftText';

export default createFromOperation({
	operation: 'analyzePost',
	noun: 'Analysis',
	description: 'Analyzes the rules and tactics of a post.',
	fields: TEXT_OR_DRAFT,
	extraFields: [DRAFT_FIELD],
	prepare: (input, { client }) => textOrDraft(input, client, 'analyzePost'),
	shape: withPicked,
	extraOutputFields: PICKED_OUTPUT_FIELDS,
	extraSample: PICKED_SAMPLE,
});
