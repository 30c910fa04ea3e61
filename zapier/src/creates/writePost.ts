import { WORKFLOW_LOCK, createFromOperation } from './factory';

export default createFromOperation({
	operation: 'writePost',
	noun: 'Post',
	description: 'Writes the post from the answers.',
	hidden: true,
	fields: { workflowId: { helpText: 'Map the Creation Workflow ID from the Start Post Creation or Prepare Post step.' } },
	lock: WORKFLOW_LOCK,
});
