/**
 * The fields and sample records that the operations of more than one resource share: the post's text,
 * the schedule time and the instruction; a draft, a writing profile and the time they carry.
 */

export const TEXT_MAX = 20000;

export const textField = {
	name: 'text',
	label: 'Text',
	description: 'The text of the post.',
	type: 'text',
	in: 'body',
	required: true,
	maxLength: TEXT_MAX,
} as const;

export const scheduledAtField = {
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

export const instructionField = {
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

export const SAMPLE_TIME = '2026-11-21T09:00:00.000Z';
export const SAMPLE_DRAFT = {
	id: 'drf_8c1f2a',
	text: 'Three lessons from shipping our API in public…',
	status: 'scheduled',
	scheduledAt: '2026-11-24T08:30:00.000Z',
	createdAt: SAMPLE_TIME,
	updatedAt: SAMPLE_TIME,
};
export const SAMPLE_PROFILE = {
	id: 'wp_founder',
	name: 'Founder voice',
	description: 'First person, concrete numbers, short paragraphs.',
	active: true,
};
