import { createFromOperation } from './factory';
import { DRAFT_FIELD, PICKED_OUTPUT_FIELDS, PICKED_SAMPLE, TEXT_OR_DRAFT, textOrDraft, withPicked } from './draftText';
import { instructionFields, withInstruction } from './instruction';

export default createFromOperation({
	operation: 'rewritePost',
	noun: 'Post',
	description: 'Rewrites a post with an instruction.',
	fields: { ...TEXT_OR_DRAFT, instruction: false },
	extraFields: [DRAFT_FIELD, ...instructionFields('rewritePost')],
	prepare: async (input, { client }) => withInstruction(await textOrDraft(input, client, 'rewritePost'), 'rewritePost'),
	shape: withPicked,
	extraOutputFields: PICKED_OUTPUT_FIELDS,
	extraSample: PICKED_SAMPLE,
});
