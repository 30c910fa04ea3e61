/**
 * A record's id, time and numbers as the API may send them, and the generic
 * watermark over records stamped with an id and a time: the newest time seen
 * plus the ids at exactly that time, so that nothing fires twice and nothing
 * is missed. It imports nothing, so that the readers (post-records.ts), the reads
 * (reads.ts) and each event's state can all use it within the import
 * depth of shared/.
 */
import type { Obj } from '../base';
import { timeOf } from '../base';


/** The first of `keys` that holds a time (see timeOf). */
export function firstTime(record: Obj, keys: readonly string[]): number | undefined {
	for (const k of keys) {
		const t = timeOf(record[k]);
		if (t !== undefined) return t;
	}
	return undefined;
}

/** The first of `keys` that holds an id (a non-empty string or a finite number), as a string. */
export function firstId(record: Obj, keys: readonly string[]): string | undefined {
	for (const k of keys) {
		const v = record[k];
		if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v))) return String(v);
	}
	return undefined;
}

/** A number, or a string of one (negative and decimal included); otherwise undefined. */
export function numeric(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** A record with the id and time the state needs. */
export interface Stamped {
	id: string;
	at: number;
	record: Obj;
}

export interface WatermarkState {
	/** Set once the first poll has run: what existed then never fires. */
	initialised?: boolean;
	/** ISO time of the newest record seen. */
	watermark?: string;
	/** Ids at exactly `watermark`. */
	idsAtWatermark?: string[];
}

/** New Published Post's state (published-upcoming-state.ts keeps its own bound on the ids). */
export interface PostWatermarkState {
	/** Set once the first poll has run: posts that existed then never fire. */
	initialised?: boolean;
	/** ISO time of the newest publication seen. */
	watermark?: string;
	/** Ids published at exactly `watermark`. */
	idsAtWatermark?: string[];
}

/** Ids kept at one instant, at most (a record created in the same millisecond as more than that many others may fire twice; none is missed). */
export const MAX_IDS_AT_WATERMARK = 100;

/** Newest first, ties by id descending (stable whatever the API's order). */
export function newestFirst(items: Stamped[]): Stamped[] {
	return [...items].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The stamped records newer than the watermark (newest first) and the next state; the first call only records the watermark. */
export function selectSince(stamped: Stamped[], state: WatermarkState): { fresh: Stamped[]; state: WatermarkState } {
	const items = newestFirst(stamped);
	const top = items[0];
	if (!state.initialised) {
		if (!top) return { fresh: [], state: { initialised: true } };
		const ids = items.filter((i) => i.at === top.at).map((i) => i.id);
		return { fresh: [], state: { initialised: true, watermark: new Date(top.at).toISOString(), idsAtWatermark: ids.slice(-MAX_IDS_AT_WATERMARK) } };
	}
	const w = state.watermark ? Date.parse(state.watermark) : -Infinity;
	const seen = new Set(state.idsAtWatermark ?? []);
	const fresh = items.filter((i) => i.at > w || (i.at === w && !seen.has(i.id)));
	if (fresh.length === 0) return { fresh: [], state };
	const newest = fresh[0].at;
	const atNewest = fresh.filter((i) => i.at === newest).map((i) => i.id);
	const ids = newest === w ? [...(state.idsAtWatermark ?? []), ...atNewest] : atNewest;
	return {
		fresh,
		state: { initialised: true, watermark: new Date(Math.max(newest, w)).toISOString(), idsAtWatermark: [...new Set(ids)].slice(-MAX_IDS_AT_WATERMARK) },
	};
}
