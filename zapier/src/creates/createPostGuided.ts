/**
 * Create Post (Guided): the whole creation workflow in one Zapier step, the
 * counterpart of the MCP tool `generate_post`. Zapier stops a step at 30 s,
 * so the run has a 25 s deadline; when it cannot finish, the error names the
 * workflow and the step to continue with, so that the steps can go on by hand.
 */
import { defineCreate } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import { GUIDED_OPERATION, costSentence, getOperation } from '../../../shared/catalogue/definitions';
import { withErrors } from '../perform';
import { inputFieldsOf, outputFieldsFor, sampleFor } from '../fields';

type Obj = Record<string, unknown>;

/** Zapier takes the answers as a list, in question order. */
const inputFields: PlainInputField[] = inputFieldsOf(GUIDED_OPERATION.fields, { answers: { list: true } });

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	// The run's machinery loads on the first call, as every perform's (perform.ts).
	const [{ STEP_DEADLINE_MS, clientFor }, { guidedInputFrom, runGuided }] = await Promise.all([import('../client'), import('../../../shared/client')]);
	const deadline = Date.now() + STEP_DEADLINE_MS;
	const client = clientFor(z, bundle, { deadline });
	const result = await runGuided(client, guidedInputFrom(bundle.inputData as Obj), {
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
		// Zapier's short form; the creation steps it runs cost what they cost.
		description: `Creates a validated post from a topic. ${costSentence('startPostCreation')}`,
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
