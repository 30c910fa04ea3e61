/**
 * What a trigger's read of a list page by page returns, and what it tells:
 * the records stamped with the id and time the triggers place them by (and
 * those that cannot be), the order seen, the cap on pages and whether the
 * read was cut or stalled; last, the stamping itself, over the record readers.
 */
import type { Obj } from '../base';
import { readDraft, readPost } from '../records';
import type { Stamped } from './watermark';
import { firstId, firstTime } from './watermark';

/** A post reduced to what the watermark needs, plus the full record. */
export interface StampedItem {
	id: string;
	at: number;
	record: Obj;
}

/** A record a trigger cannot place: the labelled fields it lacks (`id`, `publishedAt`, `date`). */
export interface UnreadableRecord {
	record: Obj;
	missing: string[];
}

/** Calendar entries a trigger cannot place, with what they lack. */
export function unreadableEntries(entries: readonly Obj[]): UnreadableRecord[] {
	return entries.map((record) => ({
		record,
		missing: [typeof record.id === 'string' ? undefined : 'id', typeof record.date === 'string' ? undefined : 'date'].filter((f): f is string => f !== undefined),
	}));
}

/**
 * Order of /posts by publication time, judged from what was read (the spec
 * does not say how lists are sorted):
 * - `newest-first`: the times never rise, and fall at least once;
 * - `oldest-first`: they never fall, and rise at least once;
 * - `unsorted`: they do both;
 * - `unknown`: fewer than two distinct times were read (0 or 1 post, or all
 *   at one instant), so nothing can be told yet.
 */
export type PostOrder = 'newest-first' | 'oldest-first' | 'unsorted' | 'unknown';

export function detectOrder(items: readonly StampedItem[]): PostOrder {
	let rises = false;
	let falls = false;
	for (let i = 1; i < items.length; i++) {
		if (items[i].at > items[i - 1].at) rises = true;
		else if (items[i].at < items[i - 1].at) falls = true;
	}
	return rises && falls ? 'unsorted' : falls ? 'newest-first' : rises ? 'oldest-first' : 'unknown';
}

export interface FetchOptions {
	/** Posts asked per page (`limit`). */
	pageSize?: number;
	/**
	 * Requests made at most in one read. When the list goes on past this cap
	 * the read says so (`truncated`) and the posts past it are not read in
	 * this poll. Newest first, those are the oldest posts of a burst: the
	 * watermark then moves to the newest post, so they never fire. Oldest
	 * first, those are the newest posts, which are then not seen until the
	 * history fits in the cap. Either way the platforms log a warning; nothing
	 * claims that a later poll catches up.
	 */
	maxPages?: number;
}

export interface PostsRead {
	/** Every post read, in the API's order. */
	records: Obj[];
	/** The order seen (see PostOrder). */
	order: PostOrder;
	/** Requests made (one per page). */
	requests: number;
	/** The cap on pages stopped the read while the list went on. */
	truncated: boolean;
	/** Posts read without an id or a publication time (see unreadableMessage). */
	unreadable: UnreadableRecord[];
	/**
	 * Set when the read stopped while the service said more follow (a paging
	 * convention the client cannot follow, a page repeated, a cursor that
	 * cycles): which list, what the service said, what was read. A trigger
	 * then warns, fires nothing and keeps its state (see stalledWarning).
	 */
	stalled?: string;
}

/** Default page size and cap of a read. */
export const POSTS_PAGE_SIZE = 100;
export const POSTS_MAX_PAGES = 100;

/** A warning for the logs when a read was cut by its cap; undefined when it was not. */
export function truncationWarning(read: PostsRead): string | undefined {
	if (!read.truncated) return undefined;
	const seen = `${read.records.length} posts in ${read.requests} requests`;
	if (read.order === 'newest-first') {
		return `more posts were published since the last poll than one poll reads (${seen}); the oldest of them were not read and will not fire. Poll more often.`;
	}
	return `the service lists posts ${read.order === 'oldest-first' ? 'oldest first' : 'in no time order'} and this account has more of them than one poll reads (${seen}); the newest posts, past that cap, were not read.`;
}

/**
 * The warning of a trigger whose read stalled (PostsRead.stalled); undefined
 * when it did not. The trigger fires nothing in that poll and keeps its
 * state, so the next poll that can read the list fires what this one could
 * not: nothing is skipped for good and nothing fires twice.
 */
export function stalledWarning(read: PostsRead): string | undefined {
	if (read.stalled === undefined) return undefined;
	return `${read.stalled} The trigger fired nothing in this poll and kept its place, so nothing is skipped: the next poll that can read the whole list fires what is new.`;
}

// ---------------------------------------------------------------------------
// Stamping: the id and time by which the triggers place a polled record

/**
 * Stamps posts with id and publication time (read by readPost,
 * whatever their shape), in the order given. Those without either are
 * returned apart, with what they lack, so that the triggers can say so.
 */
export function stampAll(records: Obj[]): { stamped: StampedItem[]; unreadable: UnreadableRecord[] } {
	const stamped: StampedItem[] = [];
	const unreadable: UnreadableRecord[] = [];
	for (const raw of records) {
		const record = readPost(raw) as Obj;
		const missing = [typeof record.id === 'string' ? undefined : 'id', typeof record.publishedAt === 'string' ? undefined : 'publishedAt'].filter(
			(f): f is string => f !== undefined,
		);
		if (missing.length > 0) unreadable.push({ record, missing });
		else stamped.push({ id: record.id as string, at: Date.parse(record.publishedAt as string), record });
	}
	return { stamped, unreadable };
}

/** Stamps records with id and time, in the order given; leaves out those without (see stampAll). */
export function stampInOrder(records: Obj[]): StampedItem[] {
	return stampAll(records).stamped;
}

/** Stamps records with id and time; drops those without; newest first. */
export function stampPosts(records: Obj[]): StampedItem[] {
	return stampInOrder(records).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

const DRAFT_ID_KEYS = ['id', 'draftId', 'draft_id'] as const;
const DRAFT_CREATED_KEYS = ['createdAt', 'created_at', 'creationDate', 'created'] as const;

/** A draft's id and creation time, or undefined when either is missing. */
export function stampDraft(record: Obj): Stamped | undefined {
	// The draft reader knows every spelling; the raw keys stay a fallback.
	const draft = readDraft(record) as unknown as Obj;
	const id = firstId(draft, DRAFT_ID_KEYS);
	const at = firstTime(draft, DRAFT_CREATED_KEYS);
	return id === undefined || at === undefined ? undefined : { id, at, record: draft };
}

/** Drafts with an id and a creation time, in the order given, and how many lacked one. */
export function stampDrafts(records: Obj[]): { stamped: Stamped[]; unstamped: number } {
	const stamped: Stamped[] = [];
	for (const r of records) {
		const s = stampDraft(r);
		if (s) stamped.push(s);
	}
	return { stamped, unstamped: records.length - stamped.length };
}
