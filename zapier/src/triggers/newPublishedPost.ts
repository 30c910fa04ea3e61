/**
 * New Published Post: polls /posts and returns the newest posts first, each
 * with `id` = the post id. Zapier's dedupe (an id fires once; the first poll
 * only seeds) turns that into "each published post fires exactly once".
 */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { stampPosts } from '../../../shared';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';
import { isoInZone, zoneOf } from '../time';

/** Posts read per poll; far more than are published between two polls. */
export const POLL_PAGE_SIZE = 50;
/** Posts read when Zapier seeds its dedupe list (turning the Zap on). */
export const DEDUPE_SEED_LIMIT = 200;

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const zone = zoneOf(bundle.meta);
	const client = clientFor(z, bundle);
	const limit = bundle.meta?.limit;
	const records = bundle.meta?.isPopulatingDedupe
		? await client.listPosts(undefined, { limit: DEDUPE_SEED_LIMIT, pageSize: 100 })
		: (await client.page('listPosts', {}, { pageSize: typeof limit === 'number' && limit > 0 ? Math.min(limit, 100) : POLL_PAGE_SIZE })).items;
	return stampPosts(records as Record<string, unknown>[]).map(({ id, at, record }) => ({
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
		description: 'Triggers when a post is published, with its engagement metrics.',
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
