/**
 * Find Draft: a draft picked in the dropdown, or found by words of its text
 * and its status; a miss is []. With every field empty nothing is asked, and
 * nothing is found: [] without a request, never an error. Paired with Create
 * Draft as Find or Create Draft (searchOrCreates in index.ts).
 */
import { defineSearch } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { Draft } from '../../../shared/base';
import { clientOf, withErrors } from '../perform';
import { DROPDOWNS, outputFieldsFor, sampleFor } from '../fields';

/** Drafts read at most for one search. */
export const SCAN_LIMIT = 1000;

export function matchDrafts(drafts: Draft[], input: { draftId?: unknown; search?: unknown; status?: unknown }): Draft[] {
	const id = typeof input.draftId === 'string' ? input.draftId.trim() : '';
	const words = typeof input.search === 'string' ? input.search.toLowerCase().split(/\s+/).filter(Boolean) : [];
	const status = typeof input.status === 'string' ? input.status.trim() : '';
	return drafts.filter(
		(d) =>
			(!id || String(d.id) === id) &&
			(!status || d.status === status) &&
			words.every((w) => String(d.text ?? '').toLowerCase().includes(w)),
	);
}

const inputFields: PlainInputField[] = [
	{ key: 'search', label: 'Search Text', type: 'string', required: false, helpText: 'Words that the text of the draft contains, all of them. With no Search Text, Status or Draft, nothing is found.' },
	{
		key: 'status',
		label: 'Status',
		required: false,
		helpText: 'Only drafts in this state.',
		choices: [
			{ value: 'draft', sample: 'draft', label: 'Draft (Not Scheduled)' },
			{ value: 'scheduled', sample: 'scheduled', label: 'Scheduled' },
		],
	},
	{ key: 'draftId', label: 'Draft', required: false, helpText: 'Or pick the draft itself.', dynamic: DROPDOWNS.listDrafts.dynamic },
];

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const input = bundle.inputData as Record<string, unknown>;
	const given = ['draftId', 'search', 'status'].some((k) => typeof input[k] === 'string' && (input[k] as string).trim() !== '');
	if (!given) {
		z.console.log('Find Draft: no Search Text, Status or Draft given, so nothing is looked for.');
		return [];
	}
	const read = await (await clientOf(z, bundle)).readList('listDrafts', {}, { limit: SCAN_LIMIT });
	const found = matchDrafts(read.items as Draft[], input).map((d) => ({ ...d, id: String(d.id) }));
	// No silent stop: the drafts past a page the client could not follow were not searched.
	if (read.truncated) z.console.log(`Find Draft: ${read.reason} Only the ${read.items.length} drafts read were searched (${found.length} matched).`);
	return found;
}, inputFields);

export default defineSearch({
	key: 'listDrafts' satisfies OperationKey,
	noun: 'Draft',
	display: {
		label: 'Find Draft',
		description: 'Finds a draft by its words or status.',
	},
	operation: {
		inputFields,
		perform,
		sample: sampleFor('listDrafts'),
		outputFields: outputFieldsFor('listDrafts', [{ key: 'updatedAt', label: 'Updated At', type: 'datetime' }]),
	},
});
