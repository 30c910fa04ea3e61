/**
 * One list normaliser for every list endpoint: a bare array, or a wrapper
 * (`data`, `items`, `results`, or a named key such as `drafts`), with or
 * without a cursor or an offset.
 */
import type { CalendarEntry, CalendarOutput, ListPage } from './types';
import { num, str } from './values';

const GENERIC_KEYS = ['data', 'items', 'results', 'records', 'entries'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'nextPageToken', 'next_page_token', 'next'];


function findArray(obj: Record<string, unknown>, keys: readonly string[]): unknown[] | undefined {
	for (const k of [...keys, ...GENERIC_KEYS]) {
		const v = obj[k];
		if (Array.isArray(v)) return v;
		// { data: { items: [...] } }
		if (v && typeof v === 'object' && !Array.isArray(v)) {
			const inner = findArray(v as Record<string, unknown>, keys);
			if (inner) return inner;
		}
	}
	const arrays = Object.values(obj).filter(Array.isArray);
	return arrays.length === 1 ? arrays[0] : undefined;
}

function pagingFields(obj: Record<string, unknown>): Pick<ListPage<unknown>, 'nextCursor' | 'nextOffset' | 'total'> & {
	offset?: number;
	hasMore?: boolean;
} {
	const holders = [obj];
	for (const k of ['pagination', 'meta', 'paging', 'page']) {
		const v = obj[k];
		if (v && typeof v === 'object' && !Array.isArray(v)) holders.push(v as Record<string, unknown>);
	}
	const out: ReturnType<typeof pagingFields> = {};
	for (const h of holders) {
		for (const k of CURSOR_KEYS) {
			const c = str(h[k]);
			// `next` may be a URL; take its cursor parameter when it has one.
			if (c && out.nextCursor === undefined) {
				if (/^https?:\/\//.test(c)) {
					const m = /[?&](cursor|page_token|after)=([^&]+)/.exec(c);
					if (m) out.nextCursor = decodeURIComponent(m[2]);
				} else out.nextCursor = c;
			}
		}
		out.nextOffset ??= num(h.nextOffset) ?? num(h.next_offset);
		out.offset ??= num(h.offset) ?? num(h.skip);
		out.total ??= num(h.total) ?? num(h.totalCount) ?? num(h.total_count) ?? num(h.count);
		if (typeof h.hasMore === 'boolean') out.hasMore ??= h.hasMore;
		if (typeof h.has_more === 'boolean') out.hasMore ??= h.has_more;
	}
	return out;
}

/**
 * Normalises one page. `keys` are the named keys the endpoint may use.
 * A cursor or offset is returned only when the response says more follow.
 */
export function normaliseList<T = Record<string, unknown>>(body: unknown, keys: readonly string[] = []): ListPage<T> {
	if (Array.isArray(body)) return { items: body as T[] };
	if (!body || typeof body !== 'object') return { items: [] };
	const obj = body as Record<string, unknown>;
	const items = (findArray(obj, keys) ?? []) as T[];
	const paging = pagingFields(obj);
	const page: ListPage<T> = { items };
	if (paging.total !== undefined) page.total = paging.total;
	if (paging.hasMore === false || items.length === 0) return page;
	if (paging.nextCursor !== undefined) {
		page.nextCursor = paging.nextCursor;
	} else if (paging.nextOffset !== undefined) {
		page.nextOffset = paging.nextOffset;
	} else if (paging.offset !== undefined && (paging.hasMore === true || (paging.total !== undefined && paging.offset + items.length < paging.total))) {
		page.nextOffset = paging.offset + items.length;
	}
	return page;
}

/**
 * Normalises a calendar response: a flat list of entries, or entries grouped
 * by day (`[{date, items:[…]}]`), bare or wrapped. Each entry is read by
 * `readEntry` (records.ts's readCalendarEntry, passed in so that this module
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
