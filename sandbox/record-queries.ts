/**
 * Pure queries over an account's records, for state.ts: the orders of the
 * lists (drafts, posts, inspirations), the inspiration filter, and the
 * scheduled drafts that have fallen due. Nothing here changes a record.
 */
import type { DraftRecord, InspirationRecord, PostRecord } from './records';

/** Drafts, newest first (createdAt, then id). */
export function draftsNewestFirst(drafts: readonly DraftRecord[]): DraftRecord[] {
	return [...drafts].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** Posts, newest first by publishedAt, then id ascending. */
export function postsNewestFirst(posts: readonly PostRecord[]): PostRecord[] {
	return [...posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.id.localeCompare(b.id));
}

export interface InspirationFilter {
	search?: string;
	minLikes?: number;
	format?: string;
}

/** Inspirations filtered; most liked first, then id. */
export function matchingInspirations(inspirations: readonly InspirationRecord[], filter: InspirationFilter): InspirationRecord[] {
	const needle = filter.search?.toLowerCase();
	return inspirations
		.filter(
			(i) =>
				(needle === undefined || i.text.toLowerCase().includes(needle) || i.author.toLowerCase().includes(needle)) &&
				(filter.minLikes === undefined || i.likes >= filter.minLikes) &&
				(filter.format === undefined || i.format === filter.format),
		)
		.sort((a, b) => b.likes - a.likes || a.id.localeCompare(b.id));
}

/** The scheduled drafts whose date is at or before `now`, oldest date first (then id). */
export function dueDrafts(drafts: readonly DraftRecord[], now: number): DraftRecord[] {
	return drafts
		.filter((d) => d.status === 'scheduled' && d.scheduledAt !== null && Date.parse(d.scheduledAt) <= now)
		.sort((a, b) => Date.parse(a.scheduledAt ?? '') - Date.parse(b.scheduledAt ?? '') || a.id.localeCompare(b.id));
}
