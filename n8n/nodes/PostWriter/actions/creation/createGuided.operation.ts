/**
 * Create Post (Guided): ideas → prepare → write → validate (→ refine) in one
 * step, through the core's runGuided. Its name, description and fields are
 * the core's GUIDED_OPERATION; only how n8n shows some of them is written
 * here. Nothing is saved or scheduled.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { IdeaSelection } from '../../../../shared/catalogue';
import type { GuidedInput } from '../../../../shared/guided';
import { GUIDED_OPERATION } from '../../../../shared/catalogue';
import { ValidationError } from '../../../../shared/errors';
import { runGuided } from '../../../../shared/guided';
import { forEachItem } from '../../helpers/execute';
import { actionOf, sentence, showFor, specFields } from '../../helpers/fields';
import type { FieldOverrides, OperationMeta } from '../../helpers/fields';
import { readFields } from '../../helpers/input';

export const OPERATION = 'createGuided';

export const meta: OperationMeta = {
	value: OPERATION,
	name: GUIDED_OPERATION.name,
	description: sentence(GUIDED_OPERATION.description),
	action: actionOf(GUIDED_OPERATION.name),
};

const display = showFor('creation', OPERATION);
const shownWith = (selection: IdeaSelection) => ({ displayOptions: { show: { ...display.show, ideaSelection: [selection] } } });

/** What is specific to n8n: the idea fields follow Idea Selection, answers are rows that may name their question. */
const OVERRIDES: FieldOverrides = {
	ideaIndex: shownWith('index'),
	ideaMatch: shownWith('match'),
	answers: {
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Answer',
		default: {},
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
						description:
							'The question ID, or words that appear in the question. Fill it on every answer or on none; left empty everywhere, the answers go in question order.',
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
};

export const description: INodeProperties[] = specFields(GUIDED_OPERATION.fields, display, OVERRIDES);

type AnswerRow = { question?: string; answer?: string };

/** Answers keyed on every row (a map) or on none (a list in question order). */
export function answersFrom(rows: AnswerRow[]): GuidedInput['answers'] {
	const filled = rows.filter((r) => typeof r.answer === 'string' && r.answer.trim() !== '');
	if (filled.length === 0) return undefined;
	const keyed = filled.filter((r) => typeof r.question === 'string' && r.question.trim() !== '');
	if (keyed.length === 0) return filled.map((r) => String(r.answer));
	if (keyed.length !== filled.length) {
		throw new ValidationError('answers', 'fill Question on every answer or on none: some answers name their question and some do not.', 'startPostCreation');
	}
	return Object.fromEntries(keyed.map((r) => [String(r.question).trim(), String(r.answer)]));
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function whole(value: unknown): number | undefined {
	return value === undefined || value === '' ? undefined : Number(value);
}

export function readGuidedInput(ctx: IExecuteFunctions, itemIndex: number): GuidedInput {
	const input = readFields(ctx, GUIDED_OPERATION.fields, OPERATION, itemIndex, OVERRIDES);
	const selection = (text(input.ideaSelection) ?? 'first') as IdeaSelection;
	const rows = ((input.answers as { answer?: AnswerRow[] } | undefined)?.answer ?? []) as AnswerRow[];
	return {
		// Start Post Creation's validation refuses an empty topic, naming the field.
		topic: (input.topic ?? '') as string,
		context: text(input.context),
		preferences: text(input.preferences),
		language: text(input.language),
		ideaSelection: selection,
		ideaIndex: selection === 'index' ? whole(input.ideaIndex) : undefined,
		ideaMatch: selection === 'match' ? String(input.ideaMatch ?? '') : undefined,
		answers: answersFrom(rows),
		maxRefinements: whole(input.maxRefinements),
		refineInstruction: text(input.refineInstruction),
	};
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, 'startPostCreation', async (itemIndex, client) => {
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
