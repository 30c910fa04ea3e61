/**
 * The creation resource's operations, the steps of the guided creation workflow: start (ideas), prepare
 * (questions), write, validate and refine.
 */
import type { IdeasOutput, PrepareOutput, RefineOutput, ValidateOutput, WriteOutput } from '../base';
import { instructionField, TEXT_MAX } from './common';
import { op } from './spec';

const workflowIdField = {
	name: 'workflowId',
	label: 'Creation Workflow ID',
	description: "The creation workflow returned by 'Start Post Creation'.",
	type: 'string',
	in: 'body',
	required: true,
} as const;

export const CREATION_OPERATIONS = {
	startPostCreation: op<IdeasOutput>()({
		key: 'startPostCreation',
		resource: 'creation',
		action: 'start',
		name: 'Start Post Creation',
		description: 'Starts a guided creation workflow: the service proposes ideas for the topic.',
		method: 'POST',
		path: '/creation/ideas',
		scope: 'posts:generate',
		cost: null,
		fields: [
			{
				name: 'topic',
				label: 'Topic',
				description: 'What the post is about.',
				type: 'text',
				in: 'body',
				required: true,
				maxLength: TEXT_MAX,
			},
			{
				name: 'context',
				label: 'Context',
				description: 'Facts from you that the post may use.',
				type: 'text',
				in: 'body',
				maxLength: TEXT_MAX,
			},
			{
				name: 'preferences',
				label: 'Preferences',
				description: 'Style wishes, for example "no emojis, end with a question".',
				type: 'string',
				in: 'body',
				maxLength: 2000,
			},
			{
				name: 'language',
				label: 'Language',
				description: 'Language of the post, for example "en" or "fr".',
				type: 'string',
				in: 'body',
				maxLength: 35,
			},
		],
		sample: {
			workflowId: 'wf_2b7c90',
			ideas: [
				{ id: 'idea_1', title: 'The meeting we deleted', text: 'What happened when we cancelled the weekly status meeting.' },
			],
		},
		outputFields: [
			{ key: 'workflowId', label: 'Workflow ID' },
			{ key: 'ideas[]id', label: 'Idea ID' },
			{ key: 'ideas[]title', label: 'Idea Title' },
		],
	}),
	preparePost: op<PrepareOutput>()({
		key: 'preparePost',
		resource: 'creation',
		action: 'prepare',
		name: 'Prepare Post',
		description: 'Chooses an idea: the service asks the questions to answer before writing.',
		method: 'POST',
		path: '/creation/prepare',
		scope: 'posts:generate',
		cost: null,
		fields: [
			workflowIdField,
			{
				name: 'ideaId',
				label: 'Idea ID',
				description: "The idea chosen among those returned by 'Start Post Creation'.",
				type: 'string',
				in: 'body',
				required: true,
			},
		],
		sample: {
			workflowId: 'wf_2b7c90',
			questions: [{ id: 'q_1', question: 'What changed for the team after the first month?' }],
		},
		outputFields: [
			{ key: 'workflowId', label: 'Workflow ID' },
			{ key: 'questions[]id', label: 'Question ID' },
			{ key: 'questions[]question', label: 'Question' },
		],
	}),
	writePost: op<WriteOutput>()({
		key: 'writePost',
		resource: 'creation',
		action: 'write',
		name: 'Write Post',
		description: 'Writes the post text from the answers to the questions.',
		method: 'POST',
		path: '/creation/write',
		scope: 'posts:generate',
		cost: null,
		fields: [
			workflowIdField,
			{
				name: 'answers',
				label: 'Answers',
				description: 'One answer per question, as a list of {questionId, answer}.',
				type: 'answers',
				in: 'body',
				required: true,
			},
		],
		sample: { workflowId: 'wf_2b7c90', text: 'We deleted our weekly status meeting…' },
		outputFields: [
			{ key: 'workflowId', label: 'Workflow ID' },
			{ key: 'text', label: 'Text' },
		],
	}),
	validatePost: op<ValidateOutput>()({
		key: 'validatePost',
		resource: 'creation',
		action: 'validate',
		name: 'Validate Post',
		description: 'Checks the written text: the verdict says whether it is ready and what to improve.',
		method: 'POST',
		path: '/creation/validate',
		scope: 'posts:generate',
		cost: null,
		fields: [workflowIdField],
		sample: {
			workflowId: 'wf_2b7c90',
			ready: true,
			verdict: { ready: true, score: 86, issues: [], suggestions: [] },
		},
		outputFields: [
			{ key: 'workflowId', label: 'Workflow ID' },
			{ key: 'ready', label: 'Ready', type: 'boolean' },
			{ key: 'verdict__score', label: 'Verdict Score', type: 'number' },
			{ key: 'verdict__issues[]', label: 'Verdict Issues' },
		],
	}),
	refinePost: op<RefineOutput>()({
		key: 'refinePost',
		resource: 'creation',
		action: 'refine',
		name: 'Refine Post',
		description: 'Corrects the written text with an instruction; the previous verdict no longer holds.',
		method: 'POST',
		path: '/creation/refine',
		scope: 'posts:generate',
		cost: null,
		fields: [workflowIdField, instructionField],
		sample: { workflowId: 'wf_2b7c90', text: 'We deleted our weekly status meeting. Here is what we learned…' },
		outputFields: [
			{ key: 'workflowId', label: 'Workflow ID' },
			{ key: 'text', label: 'Text' },
		],
	}),
} as const;
