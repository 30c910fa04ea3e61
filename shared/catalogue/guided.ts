/**
 * Create Guided Post: a node-only composite of the creation operations (run by shared/client/guided.ts), its
 * fields as both platforms show them.
 */
import { CREATION_OPERATIONS } from './creation';
import type { FieldSpec } from './spec';

export type IdeaSelection = 'first' | 'index' | 'match';

/** A node-only operation: its name, what it does and its input fields, for both platforms' UIs. */
export interface GuidedOperationSpec {
	readonly name: string;
	readonly description: string;
	readonly fields: readonly FieldSpec[];
}

const IDEA_NUMBER = {
	name: 'ideaIndex',
	label: 'Idea Number',
	description: "With 'Idea Selection' set to 'By Number': the number of the idea among those proposed, 1 for the first.",
	type: 'integer',
	in: 'body',
	default: 1,
	min: 1,
} as const;

const MAX_REFINEMENTS = {
	name: 'maxRefinements',
	label: 'Maximum Refinements',
	description: 'How many times at most the text is refined while the verdict is not ready, from 0 to 5.',
	type: 'integer',
	in: 'body',
	default: 2,
	min: 0,
	max: 5,
} as const;

/**
 * Create Guided Post as the platforms show it. Topic, context, preferences
 * and language are the catalogue's fields of Start Post Creation; the rest
 * steers the run. Every label, description, default and bound is written here.
 */
export const GUIDED_OPERATION = {
	name: 'Create Guided Post',
	description:
		'Creates a post in one step through the whole guided creation workflow: ideas, questions, writing, validation and refinements. Nothing is saved or scheduled.',
	fields: [
		...CREATION_OPERATIONS.startPostCreation.fields,
		{
			name: 'ideaSelection',
			label: 'Idea Selection',
			description: 'Which of the proposed ideas to write: the first, the one at a number, or the first whose title or text contains some words.',
			type: 'string',
			in: 'body',
			default: 'first',
			options: [
				{ value: 'first', label: 'First Idea', description: 'Take the first idea proposed.' },
				{ value: 'index', label: 'By Number', description: 'Take the idea at a given number, 1 for the first.' },
				{ value: 'match', label: 'By Text Match', description: 'Take the first idea whose title or text contains some words.' },
			],
		},
		IDEA_NUMBER,
		{
			name: 'ideaMatch',
			label: 'Idea Text to Match',
			description: "With 'Idea Selection' set to 'By Text Match': words looked for in the title and text of the ideas (case does not matter).",
			type: 'string',
			in: 'body',
			placeholder: 'e.g. meeting',
		},
		{
			name: 'answers',
			label: 'Answers',
			description: 'Answers to the questions the service asks, in the order they are asked. A question left without an answer gets the topic and context.',
			type: 'text',
			in: 'body',
		},
		MAX_REFINEMENTS,
		{
			name: 'refineInstruction',
			label: 'Refine Instruction',
			description: 'An instruction added to the validator\'s suggestions each time the text is refined, for example "keep it under 200 words".',
			type: 'string',
			in: 'body',
		},
	],
} as const satisfies GuidedOperationSpec;

/** The guided fields whose bounds the run itself checks. */
export const GUIDED_STEP_FIELDS = { ideaIndex: IDEA_NUMBER, maxRefinements: MAX_REFINEMENTS } as const;
