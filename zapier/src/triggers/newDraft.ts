/**
 * New Draft: polls /drafts and returns the newest drafts first (by creation
 * time), each with `id` = the draft id, its status and its scheduled time when
 * it has one. Zapier's dedupe makes each draft fire once, whichever route
 * created it (the app, the API, Generate with "Save as Draft"). A draft
 * created and published between two polls is no longer listed by /drafts;
 * New Published Post fires for it.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { draftEvent } from '../../../shared/event-state';
import { fetchNewestDrafts } from '../../../shared/poll-reader';
import { clientFor } from '../client';
import { isoInZone, zoneOf } from '../time';
import { eventTrigger } from './event';
import { MAX_PAGES, PAGE_SIZE, pollCount, reportStalled } from './paging';

export default eventTrigger('newDraft', async (z: ZObject, bundle: Bundle) => {
	const zone = zoneOf(bundle.meta);
	const read = await fetchNewestDrafts(clientFor(z, bundle), pollCount(bundle), { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportStalled(z, 'New Draft', read);
	return read.newest.map((d) => {
		const out = draftEvent(d);
		const scheduled = typeof out.scheduledAt === 'string' ? Date.parse(out.scheduledAt) : undefined;
		return { ...out, createdAtLocal: isoInZone(d.at, zone), scheduledAtLocal: scheduled === undefined ? null : isoInZone(scheduled, zone) };
	});
});
