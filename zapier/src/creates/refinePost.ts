import { WORKFLOW_LOCK, createFromOperation } from './factory';
import { instructionFields, withInstruction } from './instruction';

export default createFromOperation({
	operation: 'refinePost',
	noun: 'Post',
	description: 'Corrects the written text of a creation workflow with an instruction; run Validate Post again afterwards.',
	fields: { workflowId: { helpText: 'Map the Creation Workflow ID of a workflow whose text is written.' }, instruction: false },
	extraFields: instructionFields('refinePost'),
	prepare: (input) => withInstruction(input, 'refinePost'),
	lock: WORKFLOW_LOCK,
});
