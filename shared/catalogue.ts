/**
 * The operation catalogue: the single source of truth for every API v1
 * operation. Path, method, scope, credit cost, input fields (with their
 * validation rules and UI hints) and output shape live here and nowhere else.
 * The client, the validator, the n8n node and the Zapier app all derive from it.
 */
import type {
	AccountProfile,
	ActivateOutput,
	AnalyzeOutput,
	Answer,
	CalendarOutput,
	CreditsOutput,
	Draft,
	GenerateOutput,
	IdeasOutput,
	Inspiration,
	Post,
	PrepareOutput,
	RefineOutput,
	RewriteOutput,
	Scope,
	ValidateOutput,
	ViralityOutput,
	WriteOutput,
	WritingProfile,
} from './types';

export type HttpMethod = 'GET' | 'POST';

export type FieldType =
	| 'string' // one line
	| 'text' // multi-line
	| 'integer'
	| 'boolean'
	| 'datetime' // ISO 8601 timestamp, sent in UTC
	| 'date' // YYYY-MM-DD
	| 'answers'; // array of {questionId, answer}

export interface FieldOption {
	readonly value: string;
	readonly label: string;
	/** What choosing it does, one sentence. */
	readonly description?: string;
}

export interface FieldSpec {
	readonly name: string;
	readonly label: string;
	/** One sentence for help text. */
	readonly description: string;
	readonly type: FieldType;
	/** Where the value goes in the request. */
	readonly in: 'body' | 'query' | 'path';
	readonly required?: boolean;
	readonly default?: string | number | boolean;
	readonly min?: number;
	readonly max?: number;
	readonly maxLength?: number;
	/** For datetime: must lie in the future. */
	readonly future?: boolean;
	/** For date: must not be before this other field of the same operation. */
	readonly notBefore?: string;
	/** Suggested values (free text still allowed). */
	readonly suggestions?: readonly FieldOption[];
	/** The only values allowed: a fixed choice. */
	readonly options?: readonly FieldOption[];
	/** A dropdown source: the key of the list operation whose items offer the values. */
	readonly dynamic?: string;
	/** An extra scope the key needs when this field is set. */
	readonly scope?: Scope;
	readonly placeholder?: string;
}

export interface OutputField {
	readonly key: string;
	readonly label: string;
	readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
}

export type Resource =
	| 'post'
	| 'draft'
	| 'calendar'
	| 'inspiration'
	| 'account'
	| 'writingProfile'
	| 'creation';

export interface OperationSpec {
	readonly key: string;
	readonly resource: Resource;
	/** Verb within the resource, e.g. `generate`, `getMany`. */
	readonly action: string;
	/** Display name, e.g. "Generate Post". */
	readonly name: string;
	/** What it does, one sentence starting with a verb, ending with a period. */
	readonly description: string;
	readonly method: HttpMethod;
	/** Relative to the base URL (which ends in /api/v1). `:name` marks a path field. */
	readonly path: string;
	readonly scope: Scope;
	/** Credits spent per call. `null`: not documented, treated as possibly spending. */
	readonly cost: number | null;
	readonly fields: readonly FieldSpec[];
	/** Present on list endpoints: the named keys a wrapped list may use. */
	readonly list?: { readonly keys: readonly string[] };
	/** A realistic example of the (normalised) output, for samples and docs. */
	readonly sample: Record<string, unknown>;
	/** Labelled output fields, for Zapier's outputFields and docs. */
	readonly outputFields: readonly OutputField[];
}

/** Phantom carrier of the output type of an operation. */
export interface Typed<O> {
	readonly __output?: O;
}

function op<O>() {
	return <const S extends OperationSpec>(spec: S): S & Typed<O> => spec;
}

const TEXT_MAX = 20000;

const textField = {
	name: 'text',
	label: 'Text',
	description: 'The text of the post.',
	type: 'text',
	in: 'body',
	required: true,
	maxLength: TEXT_MAX,
} as const;

const scheduledAtField = {
	name: 'scheduledAt',
	label: 'Schedule At',
	description:
		'When the draft is published, as an ISO 8601 timestamp with an offset (sent in UTC). Must lie in the future. Leave empty to keep an unscheduled draft.',
	type: 'datetime',
	in: 'body',
	future: true,
	scope: 'posts:schedule',
	placeholder: 'e.g. 2026-12-01T09:00:00Z',
} as const;

const workflowIdField = {
	name: 'workflowId',
	label: 'Creation Workflow ID',
	description: "The creation workflow returned by 'Start Post Creation'.",
	type: 'string',
	in: 'body',
	required: true,
} as const;

const instructionField = {
	name: 'instruction',
	label: 'Instruction',
	description: 'How the text should change, for example "punchier" or "shorter".',
	type: 'string',
	in: 'body',
	required: true,
	maxLength: 2000,
	suggestions: [
		{ value: 'Make it punchier', label: 'Punchier' },
		{ value: 'Make it shorter', label: 'Shorter' },
		{ value: 'Make it more professional', label: 'More Professional' },
		{ value: 'Make it more personal and conversational', label: 'More Personal' },
		{ value: 'Add a clear call to action at the end', label: 'Add a Call to Action' },
		{ value: 'Fix grammar and spelling only', label: 'Fix Grammar' },
	],
} as const;

const SAMPLE_TIME = '2026-11-21T09:00:00.000Z';
const SAMPLE_DRAFT = {
	id: 'drf_8c1f2a',
	text: 'Three lessons from shipping our API in public…',
	status: 'scheduled',
	scheduledAt: '2026-11-24T08:30:00.000Z',
	createdAt: SAMPLE_TIME,
	updatedAt: SAMPLE_TIME,
};
const SAMPLE_POST = {
	id: 'pst_41d9e0',
	text: 'We cut our onboarding time in half. Here is how…',
	publishedAt: '2026-11-20T08:30:00.000Z',
	metrics: { likes: 182, comments: 24, shares: 11, impressions: 9420 },
	draftId: 'drf_77aa01',
};
const SAMPLE_PROFILE = {
	id: 'wp_founder',
	name: 'Founder voice',
	description: 'First person, concrete numbers, short paragraphs.',
	active: true,
};

export const OPERATIONS = {
	generatePost: op<GenerateOutput>()({
		key: 'generatePost',
		resource: 'post',
		action: 'generate',
		name: 'Generate Post',
		description: 'Generates post proposals from a prompt; by default the first one is saved as a draft.',
		method: 'POST',
		path: '/generate',
		scope: 'posts:generate',
		cost: 1,
		fields: [
			{
				name: 'prompt',
				label: 'Prompt',
				description: 'What the post should be about.',
				type: 'text',
				in: 'body',
				required: true,
				maxLength: TEXT_MAX,
				placeholder: 'e.g. Why we moved our team to a four-day week',
			},
			{
				name: 'numProposals',
				label: 'Number of Proposals',
				description: 'How many proposals to generate, from 1 to 10.',
				type: 'integer',
				in: 'body',
				default: 1,
				min: 1,
				max: 10,
			},
			{
				name: 'saveDraft',
				label: 'Save as Draft',
				description: 'Whether the service saves the first proposal as a draft.',
				type: 'boolean',
				in: 'body',
				default: true,
			},
			scheduledAtField,
		],
		sample: {
			proposals: ['Three lessons from shipping our API in public…'],
			draftId: 'drf_8c1f2a',
			creditsRemaining: 41,
		},
		outputFields: [
			{ key: 'proposals[]', label: 'Proposals' },
			{ key: 'draftId', label: 'Draft ID' },
			{ key: 'creditsRemaining', label: 'Credits Remaining', type: 'integer' },
		],
	}),
	analyzePost: op<AnalyzeOutput>()({
		key: 'analyzePost',
		resource: 'post',
		action: 'analyze',
		name: 'Analyze Post',
		description: 'Detects the writing rules and tactics used in a text.',
		method: 'POST',
		path: '/analyze',
		scope: 'posts:generate',
		cost: 1,
		fields: [textField],
		sample: {
			rules: ['Short first line', 'One idea per paragraph'],
			tactics: ['Curiosity hook', 'Concrete number'],
			summary: 'A clear hook followed by three concrete lessons.',
			creditsRemaining: 40,
		},
		outputFields: [
			{ key: 'rules[]', label: 'Rules' },
			{ key: 'tactics[]', label: 'Tactics' },
			{ key: 'summary', label: 'Summary' },
			{ key: 'creditsRemaining', label: 'Credits Remaining', type: 'integer' },
		],
	}),
	rewritePost: op<RewriteOutput>()({
		key: 'rewritePost',
		resource: 'post',
		action: 'rewrite',
		name: 'Rewrite Post',
		description: 'Rewrites a text according to an instruction, for example punchier or shorter.',
		method: 'POST',
		path: '/rewrite',
		scope: 'posts:generate',
		cost: 1,
		fields: [textField, instructionField],
		sample: {
			text: 'We halved onboarding time. Three changes did it.',
			instruction: 'Make it punchier',
			creditsRemaining: 39,
		},
		outputFields: [
			{ key: 'text', label: 'Rewritten Text' },
			{ key: 'instruction', label: 'Instruction' },
			{ key: 'creditsRemaining', label: 'Credits Remaining', type: 'integer' },
		],
	}),
	predictVirality: op<ViralityOutput>()({
		key: 'predictVirality',
		resource: 'post',
		action: 'predictVirality',
		name: 'Predict Post Virality',
		description: 'Predicts a virality score for a text.',
		method: 'POST',
		path: '/virality',
		scope: 'posts:generate',
		cost: 0,
		fields: [textField],
		sample: { score: 72, level: 'high', factors: ['Strong hook', 'Concrete numbers'] },
		outputFields: [
			{ key: 'score', label: 'Virality Score', type: 'number' },
			{ key: 'level', label: 'Level' },
			{ key: 'factors[]', label: 'Factors' },
		],
	}),
	listDrafts: op<Draft[]>()({
		key: 'listDrafts',
		resource: 'draft',
		action: 'getMany',
		name: 'Get Many Drafts',
		description: 'Lists drafts and scheduled posts.',
		method: 'GET',
		path: '/drafts',
		scope: 'posts:read',
		cost: 0,
		fields: [],
		list: { keys: ['drafts'] },
		sample: SAMPLE_DRAFT,
		outputFields: [
			{ key: 'id', label: 'Draft ID' },
			{ key: 'text', label: 'Text' },
			{ key: 'status', label: 'Status' },
			{ key: 'scheduledAt', label: 'Scheduled At', type: 'datetime' },
			{ key: 'createdAt', label: 'Created At', type: 'datetime' },
		],
	}),
	createDraft: op<Draft>()({
		key: 'createDraft',
		resource: 'draft',
		action: 'create',
		name: 'Create Draft',
		description: 'Creates a new draft, optionally scheduled at a future date.',
		method: 'POST',
		path: '/drafts',
		scope: 'posts:write',
		cost: 0,
		fields: [textField, scheduledAtField],
		sample: SAMPLE_DRAFT,
		outputFields: [
			{ key: 'id', label: 'Draft ID' },
			{ key: 'text', label: 'Text' },
			{ key: 'status', label: 'Status' },
			{ key: 'scheduledAt', label: 'Scheduled At', type: 'datetime' },
		],
	}),
	listPosts: op<Post[]>()({
		key: 'listPosts',
		resource: 'post',
		action: 'getMany',
		name: 'Get Many Published Posts',
		description: 'Lists published posts with their engagement metrics, newest first.',
		method: 'GET',
		path: '/posts',
		scope: 'posts:read',
		cost: 0,
		fields: [],
		list: { keys: ['posts'] },
		sample: SAMPLE_POST,
		outputFields: [
			{ key: 'id', label: 'Post ID' },
			{ key: 'text', label: 'Text' },
			{ key: 'publishedAt', label: 'Published At', type: 'datetime' },
			{ key: 'metrics__likes', label: 'Likes', type: 'integer' },
			{ key: 'metrics__comments', label: 'Comments', type: 'integer' },
			{ key: 'metrics__shares', label: 'Shares', type: 'integer' },
			{ key: 'metrics__impressions', label: 'Impressions', type: 'integer' },
		],
	}),
	getCalendar: op<CalendarOutput>()({
		key: 'getCalendar',
		resource: 'calendar',
		action: 'get',
		name: 'Get Calendar',
		description: 'Gets the editorial calendar of scheduled and published posts between two dates.',
		method: 'GET',
		path: '/calendar',
		scope: 'posts:read',
		cost: 0,
		fields: [
			{
				name: 'from',
				label: 'From',
				description: 'First day, as YYYY-MM-DD (UTC).',
				type: 'date',
				in: 'query',
				required: true,
				placeholder: 'e.g. 2026-11-21',
			},
			{
				name: 'to',
				label: 'To',
				description: "Last day, as YYYY-MM-DD (UTC), not before 'From'.",
				type: 'date',
				in: 'query',
				required: true,
				notBefore: 'from',
				placeholder: 'e.g. 2026-11-28',
			},
		],
		sample: {
			from: '2026-11-21',
			to: '2026-11-28',
			entries: [
				{
					type: 'scheduled',
					id: 'drf_8c1f2a',
					draftId: 'drf_8c1f2a',
					text: SAMPLE_DRAFT.text,
					date: SAMPLE_DRAFT.scheduledAt,
				},
			],
		},
		outputFields: [
			{ key: 'from', label: 'From' },
			{ key: 'to', label: 'To' },
			{ key: 'entries[]type', label: 'Entry Type' },
			{ key: 'entries[]id', label: 'Entry ID' },
			{ key: 'entries[]date', label: 'Entry Date', type: 'datetime' },
		],
	}),
	searchInspirations: op<Inspiration[]>()({
		key: 'searchInspirations',
		resource: 'inspiration',
		action: 'search',
		name: 'Search Inspirations',
		description: 'Searches saved inspiring posts by text, minimum likes and format.',
		method: 'GET',
		path: '/inspirations',
		scope: 'posts:read',
		cost: 0,
		fields: [
			{
				name: 'search',
				label: 'Search',
				description: 'Words to look for in the saved posts.',
				type: 'string',
				in: 'query',
				maxLength: 500,
			},
			{
				name: 'minLikes',
				label: 'Minimum Likes',
				description: 'Only posts with at least this many likes.',
				type: 'integer',
				in: 'query',
				min: 0,
				max: 100000000,
			},
			{
				name: 'format',
				label: 'Format',
				description: 'Only posts of this format.',
				type: 'string',
				in: 'query',
				suggestions: [
					{ value: 'text', label: 'Text' },
					{ value: 'image', label: 'Image' },
					{ value: 'carousel', label: 'Carousel' },
					{ value: 'video', label: 'Video' },
					{ value: 'poll', label: 'Poll' },
				],
			},
		],
		list: { keys: ['inspirations'] },
		sample: {
			id: 'ins_5521',
			text: 'I was fired on a Tuesday. By Friday I had a plan…',
			author: 'Dana Ortiz',
			format: 'text',
			likes: 5120,
			comments: 301,
			url: 'https://social.example/posts/5521',
		},
		outputFields: [
			{ key: 'id', label: 'Inspiration ID' },
			{ key: 'text', label: 'Text' },
			{ key: 'author', label: 'Author' },
			{ key: 'format', label: 'Format' },
			{ key: 'likes', label: 'Likes', type: 'integer' },
			{ key: 'url', label: 'URL' },
		],
	}),
	getAccountProfile: op<AccountProfile>()({
		key: 'getAccountProfile',
		resource: 'account',
		action: 'getProfile',
		name: 'Get Account Profile',
		description: 'Gets the account profile: name, email, credit balance and writing profiles.',
		method: 'GET',
		path: '/account/profile',
		scope: 'account:read',
		cost: 0,
		fields: [],
		sample: {
			id: 'acc_1',
			name: 'Dana Ortiz',
			email: 'dana@example.com',
			credits: 42,
			writingProfiles: [SAMPLE_PROFILE],
			activeWritingProfile: { id: SAMPLE_PROFILE.id, name: SAMPLE_PROFILE.name },
		},
		outputFields: [
			{ key: 'id', label: 'Account ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'email', label: 'Email' },
			{ key: 'credits', label: 'Credit Balance', type: 'integer' },
			{ key: 'activeWritingProfile__id', label: 'Active Writing Profile ID' },
			{ key: 'activeWritingProfile__name', label: 'Active Writing Profile Name' },
		],
	}),
	getCredits: op<CreditsOutput>()({
		key: 'getCredits',
		resource: 'account',
		action: 'getCredits',
		name: 'Get Credits',
		description: 'Gets the credit balance and the history of credit transactions.',
		method: 'GET',
		path: '/credits',
		scope: 'account:read',
		cost: 0,
		fields: [],
		sample: {
			balance: 41,
			history: [
				{ id: 'tx_3', amount: -1, operation: 'generate', balanceAfter: 41, createdAt: SAMPLE_TIME },
			],
		},
		outputFields: [
			{ key: 'balance', label: 'Credit Balance', type: 'integer' },
			{ key: 'history[]operation', label: 'Transaction Operation' },
			{ key: 'history[]amount', label: 'Transaction Amount', type: 'integer' },
		],
	}),
	listWritingProfiles: op<WritingProfile[]>()({
		key: 'listWritingProfiles',
		resource: 'writingProfile',
		action: 'getMany',
		name: 'Get Many Writing Profiles',
		description: "Lists the account's writing profiles.",
		method: 'GET',
		path: '/writing-profiles',
		scope: 'account:read',
		cost: 0,
		fields: [],
		list: { keys: ['writingProfiles', 'writing_profiles', 'profiles'] },
		sample: SAMPLE_PROFILE,
		outputFields: [
			{ key: 'id', label: 'Writing Profile ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'description', label: 'Description' },
			{ key: 'active', label: 'Active', type: 'boolean' },
		],
	}),
	activateWritingProfile: op<ActivateOutput>()({
		key: 'activateWritingProfile',
		resource: 'writingProfile',
		action: 'activate',
		name: 'Activate Writing Profile',
		description: 'Activates a writing profile for the next generations.',
		method: 'POST',
		path: '/writing-profiles/:id/activate',
		scope: 'account:write',
		cost: 0,
		fields: [
			{
				name: 'id',
				label: 'Writing Profile',
				description: 'The writing profile to activate.',
				type: 'string',
				in: 'path',
				required: true,
				dynamic: 'listWritingProfiles',
			},
		],
		sample: { ...SAMPLE_PROFILE },
		outputFields: [
			{ key: 'id', label: 'Writing Profile ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'active', label: 'Active', type: 'boolean' },
		],
	}),
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

export type Operations = typeof OPERATIONS;
export type OperationKey = keyof Operations;
export const OPERATION_KEYS = Object.keys(OPERATIONS) as OperationKey[];

type FieldValue<F> = F extends { type: 'integer' }
	? number
	: F extends { type: 'boolean' }
		? boolean
		: F extends { type: 'answers' }
			? Answer[]
			: string;

type FieldsOf<K extends OperationKey> = Operations[K]['fields'][number];

/** The input type of an operation, derived from its fields. */
export type InputOf<K extends OperationKey> = {
	[F in FieldsOf<K> as F extends { required: true } ? F['name'] : never]: FieldValue<F>;
} & {
	[F in FieldsOf<K> as F extends { required: true } ? never : F['name']]?: FieldValue<F>;
};

/** The output type of an operation (lists: the item array). */
export type OutputOf<K extends OperationKey> =
	Operations[K] extends Typed<infer O> ? O : never;

export type ItemOf<K extends OperationKey> = OutputOf<K> extends Array<infer T> ? T : OutputOf<K>;

export function getOperation(key: OperationKey): OperationSpec {
	return OPERATIONS[key];
}

export function isListOperation(key: OperationKey): boolean {
	return Boolean((OPERATIONS[key] as OperationSpec).list);
}

/** True when a call may spend credits (documented cost > 0, or undocumented). */
export function spendsCredits(key: OperationKey): boolean {
	const cost = (OPERATIONS[key] as OperationSpec).cost;
	return cost === null || cost > 0;
}

/** The credit cost of an operation as one sentence for a description, e.g. "Costs 1 credit." */
export function costSentence(key: OperationKey): string {
	const cost = (OPERATIONS[key] as OperationSpec).cost;
	if (cost === null) return 'May spend credits.';
	if (cost === 0) return 'Costs no credits.';
	return `Costs ${cost} credit${cost === 1 ? '' : 's'}.`;
}

/** Operations grouped by resource, in catalogue order. */
export function operationsByResource(): Map<Resource, OperationSpec[]> {
	const map = new Map<Resource, OperationSpec[]>();
	for (const key of OPERATION_KEYS) {
		const spec = OPERATIONS[key] as OperationSpec;
		const list = map.get(spec.resource) ?? [];
		list.push(spec);
		map.set(spec.resource, list);
	}
	return map;
}

// ---------------------------------------------------------------------------
// Create Guided Post: a composite of the creation operations, run by guided.ts

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
		...OPERATIONS.startPostCreation.fields,
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
