/**
 * New Post Milestone: a published post's chosen metric reaches a threshold.
 * Polls the posts of the watch window (the last N days, at most 30) and
 * returns those at or over the threshold, newest post first, each with
 * `id` = `${postId}:${metric}:${threshold}`. Zapier's dedupe (an id fires
 * once; the first poll only seeds) turns that into "once per post, metric and
 * threshold", never for a post already there when the Zap was turned on, and
 * for a post crossing days after its publication as well.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/brand';
import { milestoneCandidates, milestoneConfig, milestoneEvent } from '../../../shared/event-state';
import { readPostsInWindow } from '../../../shared/poll-reader';
import { truncationWarning } from '../../../shared/polling';
import { clientFor } from '../client';
import { isoInZone, zoneOf } from '../time';
import { eventTrigger } from './event';
import { MAX_PAGES, PAGE_SIZE, reportStalled } from './paging';

export default eventTrigger('postMetricMilestone', async (z: ZObject, bundle: Bundle) => {
	const config = milestoneConfig(bundle.inputData as Record<string, unknown>);
	const zone = zoneOf(bundle.meta);
	const now = Date.now();
	const read = await readPostsInWindow(clientFor(z, bundle), config, now, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	const warning = truncationWarning(read);
	if (warning) z.console.log(`${BRAND.displayName} New Post Milestone: ${warning}`);
	reportStalled(z, 'New Post Milestone', read);
	return milestoneCandidates(read.records, config, now).map((c) => ({ ...milestoneEvent(c, config), publishedAtLocal: isoInZone(c.at, zone) }));
});
