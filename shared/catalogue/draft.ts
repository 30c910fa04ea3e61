/**
 * The draft resource's operations: list the drafts and scheduled posts, create a draft.
 */
import type { Draft } from '../base';
import { SAMPLE_DRAFT, scheduledAtField, textField } from './common';
import { op } from './spec';

export const DRAFT_OPERATIONS = {
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
} as const;
