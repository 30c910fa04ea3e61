/**
 * Walking a list page by page (the Get Many operations, the triggers' reads, the docs' samples), with its loop
 * guards: a page equal to the one before, or a next page already asked for, stops the walk with a stall that says
 * what the server said, rather than looping or stopping silently. The pages come from conventions.ts's normaliseList.
 */
import type { ListPage, NextPage } from '../base';

/** Where a walk over a list stands (one per walk; see stepWalk). */
export interface ListWalk {
	/** The next pages already asked for, as JSON: one seen twice is a cycle. */
	asked: Set<string>;
	/** The items of the last page, as JSON: a page equal to it is a repeat. */
	lastPage?: string;
	/** Items read so far (repeats left out). */
	read: number;
	/** Pages read so far. */
	pages: number;
}

export function newWalk(): ListWalk {
	return { asked: new Set(), read: 0, pages: 0 };
}

/** Why a walk stopped while the server said more follow. */
export interface PagingStall {
	/** What the server said (`"has_more": true`, `"total": 50`, a cursor…). */
	said: string;
	/** Why it was not followed. */
	problem: string;
}

export interface WalkStep {
	/** False when the page repeats the one before: its items are not to be kept. */
	keep: boolean;
	/** The next page to ask for; undefined at the end, or on a stall. */
	next?: NextPage;
	/** Set when the server says more follow and the walk cannot follow. */
	stall?: PagingStall;
}

function describeNext(next: NextPage): string {
	if (next.url) return `the next page ${next.url}`;
	return Object.entries(next.query ?? {})
		.map(([k, v]) => `${k}=${v.slice(0, 80)}`)
		.join('&');
}

/**
 * One step of a walk: whether to keep the page's items, and the next page
 * to ask for. Loop guards: a page equal to the one before, or a next page
 * already asked for (a cursor that cycles), stop the walk with a stall, as
 * does a response that says more follow without a way the client knows.
 */
export function stepWalk(walk: ListWalk, page: ListPage<unknown>): WalkStep {
	const signature = JSON.stringify(page.items);
	const repeat = walk.pages > 0 && page.items.length > 0 && signature === walk.lastPage;
	walk.pages++;
	if (repeat) {
		const said = page.next ? `more follow (${describeNext(page.next)})` : 'more follow';
		return { keep: false, stall: { said, problem: `it sent the same ${page.items.length} items as the page before, so asking again would read them again` } };
	}
	walk.lastPage = signature;
	walk.read += page.items.length;
	if (page.next) {
		const key = JSON.stringify(page.next);
		if (walk.asked.has(key)) {
			return { keep: true, stall: { said: `more follow (${describeNext(page.next)})`, problem: 'that page was already read: the cursor cycles' } };
		}
		walk.asked.add(key);
		return { keep: true, next: page.next };
	}
	if (page.more) return { keep: true, stall: { said: page.more, problem: 'the response gives no way to the next page that the client knows' } };
	if (page.total !== undefined && walk.read < page.total && page.items.length > 0) {
		return {
			keep: true,
			stall: { said: `"total": ${page.total}`, problem: `only ${walk.read} were read and the response gives no cursor, offset, page number or next link for the rest` },
		};
	}
	return { keep: true };
}

/**
 * The message for a stall, for automation builders: which list, what the
 * server said, what was read. The platforms add what they did about it.
 */
export function stallMessage(list: string, stall: PagingStall, read: number, requests: number): string {
	return (
		`${list}: the service said ${stall.said}, but ${stall.problem}. ${read} item${read === 1 ? ' was' : 's were'} read in ${requests} request${requests === 1 ? '' : 's'}. ` +
		'The paging conventions read are body cursors, GraphQL pageInfo, has_more with starting_after, the Link header, page numbers, next page URLs and offsets; report this answer to the service\'s support if it should page another way.'
	);
}
