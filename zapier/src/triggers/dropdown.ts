/**
 * Hidden dropdown triggers, page by page (`canPaginate: true`).
 *
 * Zapier asks for page 0, then 1, 2… (bundle.meta.page) as the user scrolls
 * the dropdown, and stops at an empty page. Each page is one page of the API:
 * the cursor or offset the API gave for the next page is kept with
 * `z.cursor.set` and read back with `z.cursor.get` when Zapier asks for that
 * page, so page N costs one request. When no cursor was kept (the cursor store
 * is not reachable, as in local tests), page N is reached by following the
 * API's own cursors or offsets from the first page, at the same page size: the
 * pages are the same either way. A list that ends keeps an end mark, so the
 * page after the last is empty without a request.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { ListPage, NextPage } from '../../../shared/base';
import { clientOf } from '../perform';

/** Records per dropdown page. */
export const DROPDOWN_PAGE_SIZE = 50;

type Obj = Record<string, unknown>;
/** Where a page starts in the API: the next page the one before gave (any paging convention); `{}` is the first page, `end` past the last. */
export type PageStart = { next?: NextPage; end?: true };

function nextOf(page: ListPage<Obj>): PageStart | undefined {
	return page.next ? { next: page.next } : undefined;
}

async function keptStart(z: ZObject): Promise<PageStart | undefined> {
	try {
		const raw = await z.cursor.get();
		if (typeof raw !== 'string' || raw === '') return undefined;
		const start = JSON.parse(raw) as PageStart;
		return start && typeof start === 'object' ? start : undefined;
	} catch {
		return undefined; // no cursor store here: walk from the first page
	}
}

async function keepStart(z: ZObject, start: PageStart): Promise<void> {
	try {
		await z.cursor.set(JSON.stringify(start));
	} catch {
		// No cursor store: the next page walks from the first one.
	}
}

/** The page `bundle.meta.page` (0 when absent) of a list operation, as the API pages it. */
export async function dropdownPage(z: ZObject, bundle: Bundle, key: OperationKey, pageSize = DROPDOWN_PAGE_SIZE): Promise<Obj[]> {
	const wanted = Math.max(0, Math.floor(Number(bundle.meta?.page ?? 0)) || 0);
	const client = await clientOf(z, bundle);
	const read = (start: PageStart) => client.page(key, {}, { pageSize, next: start.next });
	let start = wanted === 0 ? {} : await keptStart(z);
	if (start?.end) return [];
	let page: ListPage<Obj>;
	if (start) {
		page = await read(start);
	} else {
		start = {};
		page = await read(start);
		for (let n = 0; n < wanted; n++) {
			const next = nextOf(page);
			if (!next) return []; // the list has fewer pages than that
			page = await read(next);
		}
	}
	await keepStart(z, nextOf(page) ?? { end: true });
	return page.items;
}
