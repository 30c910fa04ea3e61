import { WORKFLOW_LOCK, createFromOperation } from './factory';
import { instructionFields, withInstruction } from './instruction';

export default createFromOperation({
	operation: 'refinePost',
	noun: 'Post',
	description: 'Corrects a written post with an instruction.',
	hidden: true,
	fields: { workflowId: { helpText: 'Map the Creation Workflow ID of a workflow whose text is written.' }, instruction: false },
	extraFields: instructionFields('refinePost'),
	prepare: (input) => withInstruction(input, 'refinePost'),
	lock: WORKFLOW_LOCK,
});
