/**
 * Create Post (Guided): ideas → prepare → write → validate (→ refine) in one
 * step, through the core's runGuided. Topic, context, preferences and
 * language are the catalogue's fields of Start; the rest is specific to the
 * guided run. Nothing is saved or scheduled.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { GuidedInput, IdeaSelection } from '../../../../../shared';
import { ValidationError, getOperation, runGuided } from '../../../../../shared';
import { forEachItem } from '../../helpers/execute';
import { ADDITIONAL_FIELDS, fieldProperties, isTopLevel, showFor } from '../../helpers/fields';
import type { OperationMeta } from '../../helpers/fields';

export const OPERATION = 'createGuided';

export const meta: OperationMeta = {
	value: OPERATION,
	name: 'Create Post (Guided)',
	description: 'Run ideas, questions, writing and validation in one step and return a checked text, without saving it',
	action: 'Create a post (guided)',
};

const display = showFor('creation', OPERATION);
const startFields = getOperation('creationIdeas').fields;

const refineInstruction: INodeProperties = {
	displayName: 'Refine Instruction',
	name: 'refineInstruction',
	type: 'string',
	default: '',
	description: "Added to the validator's suggestions when the text is refined",
};

export const description: INodeProperties[] = [
	...startFields.filter((f) => isTopLevel(f)).flatMap((f) => fieldProperties(f, display)),
	{
		displayName: 'Idea Selection',
		name: 'ideaSelection',
		type: 'options',
		options: [
			{ name: 'First Idea', value: 'first', description: 'Take the first idea proposed' },
			{ name: 'By Position', value: 'index', description: 'Take the idea at a given position (1 = first)' },
			{ name: 'By Text Match', value: 'match', description: 'Take the first idea whose title or text contains some words' },
		],
		default: 'first',
		description: 'Which of the proposed ideas to write',
		displayOptions: display,
	},
	{
		displayName: 'Idea Index',
		name: 'ideaIndex',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Position of the idea among those proposed, 1 for the first',
		displayOptions: { show: { ...display.show, ideaSelection: ['index'] } },
	},
	{
		displayName: 'Idea Text to Match',
		name: 'ideaMatch',
		type: 'string',
		default: '',
		placeholder: 'e.g. meeting',
		description: 'Words looked for in the title and text of the ideas (case does not matter)',
		displayOptions: { show: { ...display.show, ideaSelection: ['match'] } },
	},
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Answer',
		default: {},
		description:
			'Answers to the questions the service asks. Fill Question on every answer (an ID or words of the question) or on none (answers in question order). Questions left unanswered get the topic and context.',
		displayOptions: display,
		options: [
			{
				displayName: 'Answer',
				name: 'answer',
				values: [
					{
						displayName: 'Question',
						name: 'question',
						type: 'string',
						default: '',
						description: 'The question ID, or words that appear in the question; leave empty to answer in order',
					},
					{
						displayName: 'Answer',
						name: 'answer',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
					},
				],
			},
		],
	},
	{
		displayName: 'Max Refinements',
		name: 'maxRefinements',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 0 },
		default: 2,
		description: 'How many times at most the text is refined while the verdict is not ready',
		displayOptions: display,
	},
	{
		displayName: 'Additional Fields',
		name: ADDITIONAL_FIELDS,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: display,
		options: [
			...startFields.filter((f) => !isTopLevel(f)).flatMap((f) => fieldProperties(f, undefined, true)),
			refineInstruction,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

type AnswerRow = { question?: string; answer?: string };

/** Answers keyed on every row (a map) or on none (a list in question order). */
export function answersFrom(rows: AnswerRow[]): GuidedInput['answers'] {
	const filled = rows.filter((r) => typeof r.answer === 'string' && r.answer.trim() !== '');
	if (filled.length === 0) return undefined;
	const keyed = filled.filter((r) => typeof r.question === 'string' && r.question.trim() !== '');
	if (keyed.length === 0) return filled.map((r) => String(r.answer));
	if (keyed.length !== filled.length) {
		throw new ValidationError('answers', 'fill Question on every answer or on none: some answers name their question and some do not.', 'creationIdeas');
	}
	return Object.fromEntries(keyed.map((r) => [String(r.question).trim(), String(r.answer)]));
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function readGuidedInput(ctx: IExecuteFunctions, itemIndex: number): GuidedInput {
	const extra = (ctx.getNodeParameter(ADDITIONAL_FIELDS, itemIndex, {}) ?? {}) as IDataObject;
	const topLevel = (name: string) => ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const value = (name: string) => (startFields.some((f) => f.name === name && isTopLevel(f)) ? topLevel(name) : extra[name]);
	const selection = ctx.getNodeParameter('ideaSelection', itemIndex, 'first') as IdeaSelection;
	const rows = ((ctx.getNodeParameter('answers', itemIndex, {}) as { answer?: AnswerRow[] })?.answer ?? []) as AnswerRow[];
	const topic = value('topic');
	if (typeof topic !== 'string' || topic.trim() === '') {
		throw new ValidationError('topic', 'is required and must not be empty (Topic).', 'creationIdeas');
	}
	return {
		topic,
		context: text(value('context')),
		preferences: text(value('preferences')),
		language: text(value('language')),
		ideaSelection: selection,
		ideaIndex: selection === 'index' ? Number(ctx.getNodeParameter('ideaIndex', itemIndex, 1)) : undefined,
		ideaMatch: selection === 'match' ? String(ctx.getNodeParameter('ideaMatch', itemIndex, '')) : undefined,
		answers: answersFrom(rows),
		maxRefinements: Number(ctx.getNodeParameter('maxRefinements', itemIndex, 2)),
		refineInstruction: text(extra.refineInstruction),
	};
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, 'creationIdeas', async (itemIndex, client) => {
		const result = await runGuided(client, readGuidedInput(this, itemIndex));
		return {
			text: result.text,
			ready: result.ready,
			verdict: result.verdict,
			workflowId: result.workflowId,
			refinements: result.refinements,
			idea: result.idea,
			questions: result.questions,
		} as IDataObject;
	});
}
