import { createFromOperation } from './factory';

type Obj = Record<string, unknown>;

export default createFromOperation({
	operation: 'startPostCreation',
	noun: 'Creation Workflow',
	description: 'Creates a creation workflow with ideas for a topic.',
	hidden: true,
	shape: (output: Obj) => {
		const ideas = Array.isArray(output.ideas) ? (output.ideas as Obj[]) : [];
		return { ...output, firstIdeaId: ideas[0]?.id ?? null, firstIdeaTitle: ideas[0]?.title ?? null };
	},
	extraOutputFields: [
		{ key: 'firstIdeaId', label: 'First Idea ID' },
		{ key: 'firstIdeaTitle', label: 'First Idea Title' },
	],
	extraSample: { firstIdeaId: 'idea_1', firstIdeaTitle: 'The meeting we deleted' },
});
