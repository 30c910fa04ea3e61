import { WORKFLOW_LOCK, createFromOperation } from './factory';

export default createFromOperation({
	operation: 'preparePost',
	noun: 'Creation Workflow',
	description: 'Chooses an idea and returns its questions.',
	hidden: true,
	fields: {
		workflowId: { helpText: 'Map the Creation Workflow ID from the Start Post Creation step.' },
		ideaId: { helpText: 'Map an idea from the Start Post Creation step, for example its First Idea ID.' },
	},
	lock: WORKFLOW_LOCK,
});
