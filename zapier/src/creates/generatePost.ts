import { createFromOperation } from './factory';

type Obj = Record<string, unknown>;

export default createFromOperation({
	operation: 'generatePost',
	noun: 'Post',
	description: 'Generates post proposals from a prompt.',
	shape: (output: Obj) => {
		const proposals = Array.isArray(output.proposals) ? output.proposals : [];
		return { ...output, firstProposal: proposals[0] ?? null };
	},
	extraOutputFields: [{ key: 'firstProposal', label: 'First Proposal' }],
	extraSample: { firstProposal: 'Three lessons from shipping our API in public…' },
});
