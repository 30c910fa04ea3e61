/**
 * Create Post (Guided): the whole creation workflow in one Zapier step, the
 * counterpart of the MCP tool `generate_post`. Zapier stops a step at 30 s,
 * so the run has a 25 s deadline; when it cannot finish, the error names the
 * workflow and the step to continue with, so that the steps can go on by hand.
 */
import { defineCreate } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import { GUIDED_OPERATION, getOperation } from '../../../shared/catalogue';
import { runGuided } from '../../../shared/guided';
import type { IdeaSelection } from '../../../shared/catalogue';
import type { GuidedInput } from '../../../shared/guided';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { inputFieldsOf, outputFieldsFor, sampleFor } from '../fields';

/** Time the run may take, of Zapier's 30 s. */
export const GUIDED_DEADLINE_MS = 25_000;

type Obj = Record<string, unknown>;

function text(v: unknown): string | undefined {
	return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function int(v: unknown): number | undefined {
	if (typeof v === 'number') return v;
	if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
	return undefined;
}

export function guidedInputOf(input: Obj): GuidedInput {
	const answers = Array.isArray(input.answers)
		? input.answers.filter((a): a is string => typeof a === 'string')
		: typeof input.answers === 'string' && input.answers.trim() !== ''
			? [input.answers]
			: undefined;
	return {
		topic: String(input.topic ?? ''),
		context: text(input.context),
		preferences: text(input.preferences),
		language: text(input.language),
		ideaSelection: (text(input.ideaSelection) as IdeaSelection | undefined) ?? 'first',
		ideaIndex: int(input.ideaIndex),
		ideaMatch: text(input.ideaMatch),
		answers,
		maxRefinements: int(input.maxRefinements),
		refineInstruction: text(input.refineInstruction),
	};
}

/** Zapier takes the answers as a list, in question order. */
const inputFields: PlainInputField[] = inputFieldsOf(GUIDED_OPERATION.fields, { answers: { list: true } });

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const deadline = Date.now() + GUIDED_DEADLINE_MS;
	const client = clientFor(z, bundle, { deadline });
	const result = await runGuided(client, guidedInputOf(bundle.inputData as Obj), {
		deadline,
		onStep: (step, workflowId) => z.console.log(`${GUIDED_OPERATION.name}: ${step}${workflowId ? ` (workflow ${workflowId})` : ''}`),
	});
	return result;
}, inputFields);

const ideas = getOperation('startPostCreation').sample as { ideas: Obj[] };
const questions = getOperation('preparePost').sample as { questions: Obj[] };
const validated = getOperation('validatePost').sample as { verdict: Obj };

export default defineCreate({
	key: 'createPostGuided',
	noun: 'Post',
	display: {
		label: GUIDED_OPERATION.name,
		description: GUIDED_OPERATION.description,
	},
	operation: {
		inputFields,
		perform,
		sample: {
			workflowId: 'wf_2b7c90',
			text: sampleFor('refinePost').text,
			ready: true,
			verdict: validated.verdict,
			idea: ideas.ideas[0],
			questions: [{ ...questions.questions[0], answer: 'Fewer meetings, and written updates every Friday.' }],
			refinements: 0,
		},
		outputFields: outputFieldsFor('validatePost', [
			{ key: 'text', label: 'Text' },
			{ key: 'idea__id', label: 'Idea ID' },
			{ key: 'idea__title', label: 'Idea Title' },
			{ key: 'questions[]question', label: 'Question' },
			{ key: 'questions[]answer', label: 'Answer' },
			{ key: 'refinements', label: 'Refinements', type: 'integer' },
		]),
	},
});
