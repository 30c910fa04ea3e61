import { WORKFLOW_LOCK, createFromOperation } from './factory';

export default createFromOperation({
	operation: 'validatePost',
	noun: 'Verdict',
	description: 'Checks the written text of a creation workflow and returns a verdict and whether it is ready.',
	fields: { workflowId: { helpText: 'Map the Creation Workflow ID of a workflow whose text is written (Write Post or Refine Post).' } },
	lock: WORKFLOW_LOCK,
});
