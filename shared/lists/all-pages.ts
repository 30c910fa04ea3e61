/**
 * The paginator: reads a whole list page by page, following the pages a
 * reader returns up to the caller's limit and the hard caps, and says when
 * it stopped while the server said more follow (a convention it cannot
 * follow, a page that repeats, a cursor that cycles, the page cap), with the
 * reason. How a page is asked for and read is the client's (client.ts); how
 * the paging of one answer is told, conventions.ts. (What a trigger's paged read
 * returns is stamped-reads.ts.)
 */
import { newWalk, stallMessage, stepWalk } from './walk';
import type { ListPage, NextPage } from '../base';

/** A list read page by page (PostWriterClient.readList). */
export interface ListRead {
	items: unknown[];
	/** Requests made (one per page). */
	requests: number;
	/** True when the read stopped while the server said more follow; `reason` says which list, what the server said and what was read. */
	truncated: boolean;
	reason?: string;
}

/** Hard caps of the paginator, whatever the caller asks. */
export const LIST_HARD_CAP = { pages: 100, items: 10_000 };

/** What the caller asks of the read (ListOptions' own fields). */
export interface ListLimits {
	limit?: number;
	pageSize?: number;
	maxPages?: number;
	next?: NextPage;
}

/**
 * Reads the pages of the list `name` (`GET /posts`, as the reasons name it):
 * `readPage` sends the request of one page (the first, or the `next` one)
 * with the page size to ask for.
 */
export async function readPages(
	name: string,
	limits: ListLimits,
	readPage: (pageSize: number, next: NextPage | undefined) => Promise<ListPage<unknown>>,
): Promise<ListRead> {
	const limit = Math.min(limits.limit ?? LIST_HARD_CAP.items, LIST_HARD_CAP.items);
	const maxPages = Math.min(limits.maxPages ?? LIST_HARD_CAP.pages, LIST_HARD_CAP.pages);
	const pageSize = limits.pageSize ?? Math.min(100, limit);
	const items: unknown[] = [];
	const walk = newWalk();
	let next = limits.next;
	for (;;) {
		const page = await readPage(pageSize, next);
		const step = stepWalk(walk, page);
		if (step.keep) items.push(...page.items.slice(0, limit - items.length));
		const read = { items, requests: walk.pages };
		if (items.length >= limit) return { ...read, truncated: false };
		if (step.stall) return { ...read, truncated: true, reason: stallMessage(name, step.stall, items.length, walk.pages) };
		if (!step.next) return { ...read, truncated: false };
		if (walk.pages >= maxPages) {
			const reason = `${name}: the service said more follow, but the read stopped at its cap of ${maxPages} pages. ${items.length} items were read in ${walk.pages} requests.`;
			return { ...read, truncated: true, reason };
		}
		next = step.next;
	}
}
