/**
 * List shapes and paging of the sandbox (option `listShape`). The spec does
 * not show how lists are paged, so the sandbox can page them as the common
 * conventions do, to prove that the clients follow each (shared/lists/conventions.ts):
 *
 * - `data-cursor` (default): `{data, nextCursor}`, `?cursor=`;
 * - `bare`: the whole array, no paging;
 * - `items-offset`: `{items, offset, limit, total}`, `?offset=`;
 * - `named`: `{drafts|posts|…: [...], nextCursor}`, `?cursor=`;
 * - `keyset`: `{object: 'list', data, has_more}`, `?starting_after=<id>`
 *   (the convention of payment and CRM APIs);
 * - `link`: the bare array of one page, the next page in a `Link` header
 *   (`</api/v1/posts?page=2&per_page=20>; rel="next"`, relative);
 * - `page-number`: `{results, page, per_page, total_pages}`, `?page=&per_page=`;
 * - `next-page-url`: `{data, current_page, last_page, per_page, next_page_url}`
 *   (absolute URL);
 * - `page-token`: `{items, next_page_token}`, `?page_token=`;
 * - `graphql`: `{data: {<key>: {nodes, pageInfo: {endCursor, hasNextPage}}}}`, `?after=`.
 *
 * And three broken servers, for the no-silent-stop tests:
 * - `repeat-page`: `{data, has_more}` that ignores every paging parameter
 *   (the first page again and again);
 * - `cycle-cursor`: `{data, nextCursor}` whose third page points back to the second;
 * - `unknown-more`: `{data, more_items: true, total}` (no way to the next page).
 *
 * The new shapes give at most `listPageMax` items a page (default 20, below
 * the 50 or 100 the clients ask for); the first four keep 100.
 */
import { validation } from './api-errors';

export type ListShape =
	| 'data-cursor'
	| 'bare'
	| 'items-offset'
	| 'named'
	| 'keyset'
	| 'link'
	| 'page-number'
	| 'next-page-url'
	| 'page-token'
	| 'graphql'
	| 'repeat-page'
	| 'cycle-cursor'
	| 'unknown-more';

/** The shapes that page the whole list (the broken ones left out). */
export const PAGING_SHAPES: readonly ListShape[] = [
	'data-cursor',
	'items-offset',
	'named',
	'keyset',
	'link',
	'page-number',
	'next-page-url',
	'page-token',
	'graphql',
];
export const LIST_SHAPES: readonly ListShape[] = [...PAGING_SHAPES, 'bare', 'repeat-page', 'cycle-cursor', 'unknown-more'];

const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;
/** Largest page of the shapes added for the paging conventions, unless listPageMax says otherwise. */
export const CONVENTION_PAGE_MAX = 20;
const ORIGINAL: readonly ListShape[] = ['data-cursor', 'bare', 'items-offset', 'named'];

/** The largest page a shape gives. */
export function pageMaxOf(shape: ListShape, listPageMax: number | undefined): number {
	return Math.max(1, Math.min(LIST_MAX_LIMIT, listPageMax ?? (ORIGINAL.includes(shape) ? LIST_MAX_LIMIT : CONVENTION_PAGE_MAX)));
}

function encodeCursor(offset: number): string {
	return Buffer.from(`offset:${offset}`).toString('base64');
}
function decodeCursor(cursor: string, name = 'cursor'): number {
	const text = Buffer.from(cursor, 'base64').toString('utf8');
	const m = /^offset:(\d+)$/.exec(text);
	if (!m) throw validation(name, `${name} is not a ${name} returned by this endpoint (use the one of the previous page)`);
	return Number(m[1]);
}

function whole(name: string, raw: string | null, min: number): number | undefined {
	if (raw === null || raw === '') return undefined;
	if (!/^\d+$/.test(raw) || Number(raw) < min) throw validation(name, `${name} must be an integer of at least ${min}`);
	return Number(raw);
}

export interface FormattedList {
	body: unknown;
	headers: Record<string, string>;
}

/** The id of a list item (the sandbox's records all have one). */
const idOf = (item: unknown): string => String((item as { id?: unknown }).id);

/**
 * One page of `items` (the whole list, in order) as the shape gives it.
 * `url` is the request's (for the next links); `named` the list's own key.
 */
export function formatList(shape: ListShape, items: unknown[], url: URL, named: string, listPageMax?: number): FormattedList {
	if (shape === 'bare') return { body: items, headers: {} };
	const query = url.searchParams;
	const max = pageMaxOf(shape, listPageMax);
	const perPageAsked = whole('per_page', query.get('per_page'), 1);
	const rawLimit = query.get('limit');
	if (rawLimit !== null && rawLimit !== '' && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1)) throw validation('limit', `limit must be an integer between 1 and ${LIST_MAX_LIMIT}`);
	const limitAsked = rawLimit === null || rawLimit === '' ? undefined : Number(rawLimit);
	const limit = Math.min(max, perPageAsked ?? limitAsked ?? LIST_DEFAULT_LIMIT);
	const at = (offset: number) => ({ page: items.slice(offset, offset + limit), more: offset + limit < items.length, next: offset + limit });
	switch (shape) {
		case 'items-offset': {
			const offset = query.get('cursor') ? decodeCursor(String(query.get('cursor'))) : (whole('offset', query.get('offset'), 0) ?? 0);
			return { body: { items: at(offset).page, offset, limit, total: items.length }, headers: {} };
		}
		case 'keyset': {
			const after = query.get('starting_after');
			let offset = 0;
			if (after) {
				const i = items.findIndex((item) => idOf(item) === after);
				if (i < 0) throw validation('starting_after', `starting_after: no item with id ${after} in this list`);
				offset = i + 1;
			}
			const { page, more } = at(offset);
			return { body: { object: 'list', data: page, has_more: more, url: url.pathname }, headers: {} };
		}
		case 'link':
		case 'page-number':
		case 'next-page-url': {
			const pageNo = whole('page', query.get('page'), 1) ?? 1;
			const { page, more } = at((pageNo - 1) * limit);
			const totalPages = Math.max(1, Math.ceil(items.length / limit));
			const link = (n: number) => `${url.pathname}?page=${n}&per_page=${limit}`;
			if (shape === 'link') {
				const links = [`<${link(1)}>; rel="first"`, `<${link(totalPages)}>; rel="last"`];
				if (more) links.unshift(`<${link(pageNo + 1)}>; rel="next"`);
				if (pageNo > 1) links.push(`<${link(pageNo - 1)}>; rel="prev"`);
				return { body: page, headers: { Link: links.join(', ') } };
			}
			if (shape === 'page-number') return { body: { results: page, page: pageNo, per_page: limit, total_pages: totalPages, total: items.length }, headers: {} };
			return {
				body: {
					data: page,
					current_page: pageNo,
					last_page: totalPages,
					per_page: limit,
					next_page_url: more ? `${url.origin}${link(pageNo + 1)}` : null,
					prev_page_url: pageNo > 1 ? `${url.origin}${link(pageNo - 1)}` : null,
				},
				headers: {},
			};
		}
		case 'page-token': {
			const token = query.get('page_token');
			const { page, more, next } = at(token ? decodeCursor(token, 'page_token') : 0);
			return { body: { items: page, next_page_token: more ? encodeCursor(next) : '' }, headers: {} };
		}
		case 'graphql': {
			const after = query.get('after');
			const { page, more, next } = at(after ? decodeCursor(after, 'after') : 0);
			return { body: { data: { [named]: { nodes: page, pageInfo: { endCursor: encodeCursor(next), hasNextPage: more } } } }, headers: {} };
		}
		case 'repeat-page': {
			const { page, more } = at(0);
			return { body: { data: page, has_more: more }, headers: {} };
		}
		case 'cycle-cursor': {
			const cursor = query.get('cursor');
			const offset = cursor ? decodeCursor(cursor) : 0;
			const { page, more, next } = at(offset);
			// The third page points back to the second.
			const back = offset >= 2 * limit ? limit : next;
			return { body: { data: page, nextCursor: more ? encodeCursor(back) : null }, headers: {} };
		}
		case 'unknown-more': {
			const { page, more } = at(0);
			return { body: { data: page, more_items: more, total: items.length }, headers: {} };
		}
		default: {
			const cursor = query.get('cursor');
			const offset = cursor ? decodeCursor(cursor) : 0;
			const { page, more, next } = at(offset);
			const nextCursor = more ? encodeCursor(next) : null;
			return { body: shape === 'named' ? { [named]: page, nextCursor } : { data: page, nextCursor }, headers: {} };
		}
	}
}
