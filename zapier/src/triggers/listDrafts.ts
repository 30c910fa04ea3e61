/** Hidden trigger feeding the Draft dropdowns, page by page (`canPaginate`, see dropdown.ts, loaded on the first page). */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { Draft } from '../../../shared/base';
import { withErrors } from '../perform';
import { outputFieldsFor, sampleFor } from '../fields';

/** What the dropdown shows for a draft: the start of its text and its state. */
export function draftLabel(d: Draft): string {
	const text = String(d.text ?? '').replace(/\s+/g, ' ').trim();
	const short = text.length > 60 ? `${text.slice(0, 57)}…` : text || d.id;
	return d.scheduledAt ? `${short} (scheduled ${d.scheduledAt})` : `${short} (${d.status ?? 'draft'})`;
}

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const { dropdownPage } = await import('./dropdown');
	const drafts = (await dropdownPage(z, bundle, 'listDrafts')) as Draft[];
	return drafts.map((d) => ({ ...d, id: String(d.id), label: draftLabel(d) }));
});

export default defineTrigger({
	key: 'listDrafts' satisfies OperationKey,
	noun: 'Draft',
	display: {
		label: 'Draft List',
		description: 'Triggers when a draft is added (lists drafts in dropdowns).',
		hidden: true,
	},
	operation: {
		type: 'polling',
		canPaginate: true,
		perform,
		sample: sampleFor('listDrafts', { label: 'Three lessons from shipping our API in public… (scheduled 2026-11-24T08:30:00.000Z)' }),
		outputFields: outputFieldsFor('listDrafts', [{ key: 'label', label: 'Label' }]),
	},
});
