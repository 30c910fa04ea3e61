import { createFromOperation } from './factory';
import { DRAFT_FIELD, TEXT_OR_DRAFT, textOrDraft } from './draftText';
import { instructionFields, withInstruction } from './instruction';

export default createFromOperation({
	operation: 'rewritePost',
	noun: 'Post',
	fields: { ...TEXT_OR_DRAFT, instruction: false },
	extraFields: [DRAFT_FIELD, ...instructionFields('rewritePost')],
	prepare: async (input, { client }) => withInstruction(await textOrDraft(input, client, 'rewritePost'), 'rewritePost'),
});
