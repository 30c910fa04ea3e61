/**
 * The calendar resource's operation: the editorial calendar between two dates.
 */
import type { CalendarOutput } from '../base';
import { SAMPLE_DRAFT } from './common';
import { op } from './spec';

export const CALENDAR_OPERATIONS = {
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
} as const;
