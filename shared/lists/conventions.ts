/**
 * One list normaliser for every list endpoint: a bare array, or a wrapper
 * (`data`, `items`, `results`, `nodes`, or a named key such as `drafts`),
 * and the one place that knows how lists are paged. The convention is
 * recognised from the response itself (body and headers):
 *
 * - `link`: an RFC 8288 `Link` header with `rel="next"`, absolute or relative;
 * - `next-url`: a next page URL in the body (`next`, `next_page_url`,
 *   `nextUrl`, `links.next`, `@odata.nextLink`…);
 * - `cursor`: a cursor in the body (`nextCursor`, `next_cursor`, `cursor`,
 *   `nextPageToken`/`next_page_token`, `after`, `next`), sent back under the
 *   name that goes with it (`cursor`, `pageToken`/`page_token`, `after`);
 * - `graphql`: `pageInfo { endCursor, hasNextPage }`, sent back as `after`;
 * - `page-number`: `page`/`current_page` with `total_pages`/`last_page`,
 *   `next_page` or `has_more`; `per_page` is sent back as the server echoed it;
 * - `offset`: `nextOffset`, or `offset`/`skip` with `total` or `has_more`, or
 *   a full page of the `limit` the server echoed;
 * - `keyset`: `has_more`/`hasMore` with neither cursor nor offset: ask again
 *   with `starting_after=<id of the last item>` (or the `after_id`/`since_id`
 *   the server echoes).
 *
 * A short page is not the end unless the server says so. When the response
 * says more follow but none of these applies, the page carries `more` (what
 * the server said) so that the readers warn instead of stopping silently.
 */
import type { CalendarEntry, CalendarOutput, ListPage, NextPage, HeaderValue, Obj } from '../base';
import { isObj, num, str } from '../base';

const GENERIC_KEYS = ['data', 'items', 'results', 'records', 'entries', 'nodes'];
/** Objects that may hold paging fields, under the top level or the object that holds the items. */
const HOLDER_KEYS = ['pagination', 'meta', 'paging', 'page', 'pageInfo', 'page_info', 'links', '_links', 'cursors', 'response_metadata'];
/** Body cursors and the query parameter each is sent back as. */
const CURSOR_KEYS: ReadonlyArray<readonly [string, string]> = [
	['nextCursor', 'cursor'],
	['next_cursor', 'cursor'],
	['cursor', 'cursor'],
	['nextPageToken', 'pageToken'],
	['next_page_token', 'page_token'],
	['after', 'after'],
	['next', 'cursor'],
];
/** Body fields that give the next page as a URL. */
const NEXT_URL_KEYS = ['next_page_url', 'nextPageUrl', 'next_url', 'nextUrl', 'nextLink', 'next_link', '@odata.nextLink', 'next'];
const HAS_MORE_KEYS = ['hasMore', 'has_more', 'hasNextPage', 'has_next_page', 'hasNext', 'has_next'];
const TOTAL_KEYS = ['total', 'totalCount', 'total_count', 'count', 'totalItems', 'total_items', 'total_results'];
const PAGE_KEYS = ['page', 'current_page', 'currentPage', 'page_number', 'pageNumber'];
const TOTAL_PAGES_KEYS = ['total_pages', 'totalPages', 'last_page', 'lastPage', 'page_count', 'pageCount', 'pages'];
const NEXT_PAGE_KEYS = ['next_page', 'nextPage'];
const PER_PAGE_KEYS = ['per_page', 'perPage', 'page_size', 'pageSize'];
/** Keyset parameters a server may echo; the first is asked when none is echoed. */
const KEYSET_KEYS = ['starting_after', 'startingAfter', 'after_id', 'afterId', 'since_id', 'sinceId'];

/** What the readers know of the request and response of a page, beyond its body. */
export interface PageContext {
	/** The response headers (for `Link`). */
	headers?: Record<string, HeaderValue>;
	/** The URL the page was asked at: a relative link is resolved against it. */
	url?: string;
	/** The base URL of the credential: a next URL elsewhere is not followed (the key would go with it). */
	baseUrl?: string;
	/** The id of a raw item as the server knows it, for keyset paging (default: `id`, `_id`, `uuid`, also under `data`). */
	idOf?: (item: unknown) => string | undefined;
}

function findArray(obj: Obj, keys: readonly string[]): { array: unknown[]; holder: Obj } | undefined {
	for (const k of [...keys, ...GENERIC_KEYS]) {
		const v = obj[k];
		if (Array.isArray(v)) return { array: v, holder: obj };
		// { data: { items: [...] } }
		if (isObj(v)) {
			const inner = findArray(v, keys);
			if (inner) return inner;
		}
	}
	const arrays = Object.values(obj).filter(Array.isArray);
	return arrays.length === 1 ? { array: arrays[0], holder: obj } : undefined;
}

/** The objects that may carry paging fields, nearest first. */
function holdersOf(obj: Obj, itemsHolder: Obj | undefined): Obj[] {
	const out: Obj[] = [];
	const add = (o: Obj, depth: number): void => {
		if (out.includes(o)) return;
		out.push(o);
		if (depth >= 2) return;
		for (const k of HOLDER_KEYS) {
			const v = o[k];
			if (isObj(v)) add(v, depth + 1);
		}
	};
	add(obj, 0);
	if (itemsHolder) add(itemsHolder, 0);
	return out;
}

function first<T>(holders: readonly Obj[], keys: readonly string[], read: (v: unknown) => T | undefined): { key: string; value: T } | undefined {
	for (const h of holders) {
		for (const k of keys) {
			const value = read(h[k]);
			if (value !== undefined) return { key: k, value };
		}
	}
	return undefined;
}

/** True when the key is present with null (the server saying "no next page"). */
function isNullIn(holders: readonly Obj[], keys: readonly string[]): boolean {
	return holders.some((h) => keys.some((k) => k in h && h[k] === null));
}

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const isAbsolute = (s: string): boolean => /^https?:\/\//i.test(s);
/** A next page URL: absolute, or a path (for `next`, which may also be a cursor, a path with a query). */
const isNextUrl = (key: string, s: string): boolean => isAbsolute(s) || (key === 'next' ? /^\/\S*\?/.test(s) : /^\/\S*$/.test(s));

/** The `rel="next"` target of a `Link` header (RFC 8288), as written. */
export function linkNext(headers: Record<string, HeaderValue> | undefined): string | undefined {
	if (!headers) return undefined;
	const raw = Object.entries(headers).find(([k]) => k.toLowerCase() === 'link')?.[1];
	const text = Array.isArray(raw) ? raw.join(', ') : typeof raw === 'string' ? raw : undefined;
	if (!text) return undefined;
	for (const m of text.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
		const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2]);
		const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
		if (rels.includes('next')) return m[1].trim();
	}
	return undefined;
}

/** The absolute URL of a next link (relative ones against the page's URL), or why it is not followed. */
function resolveNext(ref: string, context: PageContext): { url: string } | { refused: string } {
	let url: URL;
	try {
		url = new URL(ref, context.url ?? context.baseUrl);
	} catch {
		return { refused: `a next page link that is not a URL (${ref.slice(0, 200)})` };
	}
	if (context.baseUrl) {
		let base: URL | undefined;
		try {
			base = new URL(context.baseUrl);
		} catch {
			base = undefined;
		}
		if (base && base.origin !== url.origin) {
			return { refused: `a next page at ${url.origin}${url.pathname}, another address than the Base URL (${base.origin}), where the API key is not sent` };
		}
	}
	return { url: url.toString() };
}

function defaultId(item: unknown): string | undefined {
	if (!isObj(item)) return undefined;
	for (const k of ['id', '_id', 'uuid', 'ID']) {
		const v = str(item[k]);
		if (v !== undefined) return v;
	}
	return isObj(item.data) ? defaultId(item.data) : undefined;
}

function describeValue(key: string, value: unknown): string {
	return `"${key}": ${JSON.stringify(value)?.slice(0, 120) ?? String(value)}`;
}

/**
 * Normalises one page. `keys` are the named keys the endpoint may use;
 * `context` gives the headers (for `Link`) and the request. A next page is
 * returned only when the response says more follow.
 */
export function normaliseList<T = Record<string, unknown>>(body: unknown, keys: readonly string[] = [], context: PageContext = {}): ListPage<T> {
	const obj = isObj(body) ? body : undefined;
	const found = obj ? findArray(obj, keys) : undefined;
	const items = (Array.isArray(body) ? body : (found?.array ?? [])) as T[];
	const page: ListPage<T> = { items };
	const holders = obj ? holdersOf(obj, found?.holder) : [];
	const total = first(holders, TOTAL_KEYS, num);
	if (total !== undefined) page.total = total.value;
	const hasMore = first(holders, HAS_MORE_KEYS, bool);
	if (hasMore?.value === false) return page;
	if (items.length === 0 && hasMore?.value !== true) return page;
	const said = hasMore ? describeValue(hasMore.key, hasMore.value) : undefined;
	const followUrl = (ref: string, convention: 'link' | 'next-url', what: string): ListPage<T> => {
		const resolved = resolveNext(ref, context);
		if ('url' in resolved) return { ...page, next: { convention, url: resolved.url } };
		return { ...page, more: `${what} (${resolved.refused})` };
	};

	// 1. The Link header.
	const link = linkNext(context.headers);
	if (link !== undefined) return followUrl(link, 'link', 'a Link header with rel="next"');

	// 2. A next page URL in the body (also `links.next.href`).
	for (const h of holders) {
		for (const k of NEXT_URL_KEYS) {
			const v = h[k];
			const ref = typeof v === 'string' ? v.trim() : isObj(v) && typeof v.href === 'string' ? v.href.trim() : undefined;
			if (ref && isNextUrl(k, ref)) return followUrl(ref, 'next-url', describeValue(k, ref));
		}
	}

	// 3. GraphQL's pageInfo, then body cursors.
	for (const h of holders) {
		const end = str(h.endCursor) ?? str(h.end_cursor);
		if (end !== undefined && (bool(h.hasNextPage) ?? bool(h.has_next_page)) === true) {
			return { ...page, next: { convention: 'graphql', query: { after: end } }, nextCursor: end };
		}
	}
	for (const h of holders) {
		for (const [k, param] of CURSOR_KEYS) {
			const c = str(h[k]);
			if (c === undefined || (k === 'next' && isNextUrl(k, c))) continue;
			return { ...page, next: { convention: 'cursor', query: { [param]: c } }, nextCursor: c };
		}
	}

	// 4. Offsets given as such.
	const nextOffset = first(holders, ['nextOffset', 'next_offset'], num);
	if (nextOffset !== undefined) return { ...page, next: { convention: 'offset', query: { offset: String(nextOffset.value) } }, nextOffset: nextOffset.value };

	// 5. Page numbers.
	const current = first(holders, PAGE_KEYS, num);
	const nextPage = first(holders, NEXT_PAGE_KEYS, num);
	const perPage = first(holders, PER_PAGE_KEYS, num);
	const pageQuery = (n: number): NextPage => ({
		convention: 'page-number',
		query: perPage ? { page: String(n), [perPage.key === 'perPage' ? 'perPage' : 'per_page']: String(perPage.value) } : { page: String(n) },
	});
	if (nextPage !== undefined) return { ...page, next: pageQuery(nextPage.value) };
	if (current !== undefined) {
		if (isNullIn(holders, NEXT_PAGE_KEYS)) return page;
		const totalPages = first(holders, TOTAL_PAGES_KEYS, num);
		const more =
			totalPages !== undefined
				? current.value < totalPages.value
				: hasMore?.value === true ||
					(total !== undefined && perPage !== undefined && current.value * perPage.value < total.value);
		return more ? { ...page, next: pageQuery(current.value + 1) } : page;
	}

	// 6. Offsets worked out: offset + the items of this page (not the limit asked: a short page is not the end).
	const offset = first(holders, ['offset', 'skip', 'start'], num);
	if (offset !== undefined) {
		const limit = first(holders, ['limit', ...PER_PAGE_KEYS], num);
		const next = offset.value + items.length;
		const more =
			total !== undefined ? next < total.value : hasMore?.value === true ? true : limit !== undefined && items.length >= limit.value;
		return more && items.length > 0 ? { ...page, next: { convention: 'offset', query: { [offset.key]: String(next) } }, nextOffset: next } : page;
	}

	// 7. Keyset: has_more with neither cursor nor offset.
	if (hasMore?.value === true) {
		const last = items.length > 0 ? (context.idOf ?? defaultId)(items[items.length - 1]) : undefined;
		if (last === undefined) return { ...page, more: `${said} but ${items.length === 0 ? 'an empty page' : 'no id on the last item to ask for the page after it'}` };
		const param = first(holders, KEYSET_KEYS, (v) => (v === null || str(v) !== undefined ? true : undefined))?.key ?? KEYSET_KEYS[0];
		return { ...page, next: { convention: 'keyset', query: { [param]: last } } };
	}
	return page;
}

/**
 * Normalises a calendar response: a flat list of entries, or entries grouped
 * by day (`[{date, items:[…]}]`), bare or wrapped. Each entry is read by
 * `readEntry` (post-records.ts's readCalendarEntry, passed in so that this module
 * stays a leaf). Entries without an id or a date are kept apart, in
 * `unreadable`, rather than dropped.
 */
export function normaliseCalendar(
	body: unknown,
	from: string,
	to: string,
	readEntry: (raw: unknown) => Partial<CalendarEntry> & Record<string, unknown>,
): CalendarOutput {
	const page = normaliseList<unknown>(body, ['entries', 'calendar', 'events', 'days', 'posts']);
	const flat: unknown[] = [];
	for (const item of page.items) {
		if (item && typeof item === 'object' && !Array.isArray(item)) {
			const o = item as Record<string, unknown>;
			const nested = ['items', 'entries', 'posts', 'events', 'drafts'].map((k) => o[k]).find(Array.isArray);
			if (nested && !('id' in o)) {
				flat.push(...nested);
				continue;
			}
		}
		flat.push(item);
	}
	const entries: CalendarEntry[] = [];
	const unreadable: Array<Record<string, unknown>> = [];
	for (const raw of flat) {
		const entry = readEntry(raw);
		if (typeof entry.id === 'string' && typeof entry.date === 'string') entries.push(entry as CalendarEntry);
		else unreadable.push(entry);
	}
	entries.sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
	return unreadable.length > 0 ? { from, to, entries, unreadable } : { from, to, entries };
}
