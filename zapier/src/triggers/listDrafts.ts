/** Hidden trigger feeding the Draft dropdowns, page by page (`canPaginate`). */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue';
import type { Draft } from '../../../shared/types';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';

export const DROPDOWN_PAGE_SIZE = 50;

/** What the dropdown shows for a draft: the start of its text and its state. */
export function draftLabel(d: Draft): string {
	const text = String(d.text ?? '').replace(/\s+/g, ' ').trim();
	const short = text.length > 60 ? `${text.slice(0, 57)}…` : text || d.id;
	return d.scheduledAt ? `${short} (scheduled ${d.scheduledAt})` : `${short} (${d.status ?? 'draft'})`;
}

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const page = Math.max(0, Number(bundle.meta?.page ?? 0) || 0);
	// Pages are read from the start: no cursor storage is needed, and the list stays short.
	const drafts = await clientFor(z, bundle).listDrafts(undefined, { limit: (page + 1) * DROPDOWN_PAGE_SIZE, pageSize: DROPDOWN_PAGE_SIZE });
	return drafts.slice(page * DROPDOWN_PAGE_SIZE).map((d) => ({ ...d, id: String(d.id), label: draftLabel(d) }));
});

export default defineTrigger({
	key: 'listDrafts' satisfies OperationKey,
	noun: 'Draft',
	display: {
		label: 'Draft List',
		description: 'Triggers when a draft is added; used to list drafts in dropdowns.',
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
