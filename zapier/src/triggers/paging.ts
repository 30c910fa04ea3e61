/**
 * How the polling triggers read their lists (posts, drafts): one definition
 * for all of them.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/base';
import type { PostsRead } from '../../../shared/triggers';

/** Records asked per request (the largest page the sandbox gives). */
export const PAGE_SIZE = 100;
/** Records returned per poll, one page: far more than are created between two polls. */
export const POLL_COUNT = PAGE_SIZE;
/** Records returned when Zapier seeds its dedupe list (turning the Zap on). */
export const DEDUPE_SEED_LIMIT = 200;
/** Requests per poll at most: only an oldest-first list needs more than one or two (4,000 records). */
export const MAX_PAGES = 40;

/** How many records this poll returns: Zapier's limit when it sets one, more when it seeds its dedupe list. */
export function pollCount(bundle: Bundle): number {
	const limit = bundle.meta?.limit;
	if (bundle.meta?.isPopulatingDedupe) return DEDUPE_SEED_LIMIT;
	return typeof limit === 'number' && limit > 0 ? Math.min(limit, PAGE_SIZE) : POLL_COUNT;
}

/**
 * No silent stop: when a poll's read stopped while the service said more
 * follow (a paging it cannot follow, a repeated page, a cycling cursor), the
 * Zap's log says which list and what the service said. The records read are
 * returned; Zapier's dedupe fires the others when a later poll reads them.
 */
export function reportStalled(z: ZObject, trigger: string, read: PostsRead): void {
	if (read.stalled === undefined) return;
	z.console.log(
		`${BRAND.displayName} ${trigger}: ${read.stalled} This poll returns the ${read.records.length} records read; those past them fire when a later poll can read them (Zapier remembers which fired).`,
	);
}
