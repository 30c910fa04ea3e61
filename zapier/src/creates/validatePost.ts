import { WORKFLOW_LOCK, createFromOperation } from './factory';

export default createFromOperation({
	operation: 'validatePost',
	noun: 'Verdict',
	description: 'Checks a written post and returns a verdict.',
	hidden: true,
	fields: { workflowId: { helpText: 'Map the Creation Workflow ID of a workflow whose text is written (Write Post or Refine Post).' } },
	lock: WORKFLOW_LOCK,
});
