/**
 * New Published Post: polls /posts and returns the newest posts first, each
 * with `id` = the post id. Zapier's dedupe (an id fires once; the first poll
 * only seeds) turns that into "each published post fires exactly once".
 * The spec does not say how /posts is sorted: the core finds out from what it
 * reads (one request when the list is newest first; the whole list, up to
 * MAX_PAGES, when it is oldest first).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/brand';
import { fetchNewestPosts } from '../../../shared/poll-reader';
import { truncationWarning } from '../../../shared/polling';
import { clientFor } from '../client';
import { isoInZone, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';
import { eventTrigger } from './event';
import { MAX_PAGES, PAGE_SIZE, pollCount, reportStalled } from './paging';

export { MAX_PAGES, PAGE_SIZE } from './paging';

export default eventTrigger('newPublishedPost', async (z: ZObject, bundle: Bundle) => {
	const zone = zoneOf(bundle.meta);
	const client = clientFor(z, bundle);
	const read = await fetchNewestPosts(client, pollCount(bundle), { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(z, bundle, 'New Published Post', { kind: 'post', unreadable: read.unreadable, total: read.records.length, source: 'GET /posts' });
	const warning = truncationWarning(read);
	if (warning) z.console.log(`${BRAND.displayName} New Published Post: ${warning}`);
	reportStalled(z, 'New Published Post', read);
	return read.newest.map(({ id, at, record }) => ({
		...record,
		id,
		publishedAt: new Date(at).toISOString(),
		publishedAtLocal: isoInZone(at, zone),
	}));
});
