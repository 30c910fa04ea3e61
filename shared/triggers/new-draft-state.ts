/**
 * New Draft's state, a pure function of what was read and what was kept,
 * shared by both platforms: a watermark on the drafts' creation time plus the
 * ids created at exactly that time (watermark.ts), as New Published Post does
 * on publication. The drafts are stamped by post-records.ts's stampDrafts; the
 * read is reads.ts's readDraftsSince.
 */
import { stampDrafts } from './stamped-reads';
import type { Obj } from '../base';
import type { Stamped, WatermarkState } from './watermark';
import { timeOf } from '../base';
import { selectSince } from './watermark';

export type NewDraftState = WatermarkState;

/** The drafts created since the last poll (newest first) and the next state. */
export function selectNewDrafts(records: Obj[], state: NewDraftState): { fresh: Stamped[]; state: NewDraftState } {
	return selectSince(stampDrafts(records).stamped, state);
}

/** What both platforms output for a new draft: the draft, its id, status, creation and scheduled times as ISO (null when not scheduled). */
export function draftEvent(item: Stamped): Obj & { id: string } {
	const r = item.record;
	const scheduled = timeOf(r.scheduledAt ?? r.scheduled_at ?? r.scheduledFor ?? r.publishAt);
	const status = typeof r.status === 'string' && r.status !== '' ? r.status : scheduled !== undefined ? 'scheduled' : 'draft';
	return {
		...r,
		id: item.id,
		draftId: item.id,
		text: typeof r.text === 'string' ? r.text : (r.content ?? r.body ?? ''),
		status,
		scheduledAt: scheduled === undefined ? null : new Date(scheduled).toISOString(),
		createdAt: new Date(item.at).toISOString(),
	};
}
