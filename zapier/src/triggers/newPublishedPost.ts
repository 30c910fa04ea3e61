/**
 * New Published Post: polls /posts and returns the newest posts first, each
 * with `id` = the post id. Zapier's dedupe (an id fires once; the first poll
 * only seeds) turns that into "each published post fires exactly once".
 * The spec does not say how /posts is sorted: the core finds out from what it
 * reads (one request when the list is newest first; the whole list, up to
 * MAX_PAGES, when it is oldest first).
 */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/brand';
import { fetchNewestPosts } from '../../../shared/poll-reader';
import { truncationWarning } from '../../../shared/polling';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';
import { isoInZone, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';

/** Posts asked per request (the largest page the sandbox gives). */
export const PAGE_SIZE = 100;
/** Posts returned per poll, one page: far more than are published between two polls. */
export const POLL_COUNT = PAGE_SIZE;
/** Posts returned when Zapier seeds its dedupe list (turning the Zap on). */
export const DEDUPE_SEED_LIMIT = 200;
/** Requests per poll at most: only an oldest-first list needs more than one or two (4,000 posts). */
export const MAX_PAGES = 40;

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const zone = zoneOf(bundle.meta);
	const client = clientFor(z, bundle);
	const limit = bundle.meta?.limit;
	const count = bundle.meta?.isPopulatingDedupe ? DEDUPE_SEED_LIMIT : typeof limit === 'number' && limit > 0 ? Math.min(limit, PAGE_SIZE) : POLL_COUNT;
	const read = await fetchNewestPosts(client, count, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	reportUnreadable(z, bundle, 'New Published Post', { kind: 'post', unreadable: read.unreadable, total: read.records.length, source: 'GET /posts' });
	const warning = truncationWarning(read);
	if (warning) z.console.log(`${BRAND.displayName} New Published Post: ${warning}`);
	return read.newest.map(({ id, at, record }) => ({
		...record,
		id,
		publishedAt: new Date(at).toISOString(),
		publishedAtLocal: isoInZone(at, zone),
	}));
});

export default defineTrigger({
	key: 'newPublishedPost',
	noun: 'Post',
	display: {
		label: 'New Published Post',
		description: 'Triggers when a post is published, with its metrics.',
	},
	operation: {
		type: 'polling',
		perform,
		sample: sampleFor('listPosts', { publishedAtLocal: '2026-11-20T09:30:00+01:00' }),
		outputFields: outputFieldsFor('listPosts', [
			{ key: 'publishedAtLocal', label: 'Published At (Your Time Zone)', type: 'datetime' },
			{ key: 'draftId', label: 'Draft ID' },
		]),
	},
});
