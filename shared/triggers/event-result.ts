/**
 * What an event's poll, test event and candidates give back to the platforms
 * (EventPoll, EventTest, EventCandidates), and the warnings they carry
 * (TriggerWarning) with the messages that make them: records that cannot be
 * placed, a read that stalled or was cut by its cap. It imports only modules
 * that import nothing, so that the reads (reads.ts), the state
 * (published-upcoming-state.ts, unreadable-values.ts) and the events (events.ts) can all use it
 * within the import depth of shared/.
 */
import type { FetchOptions, PostsRead, PostOrder, UnreadableRecord } from './stamped-reads';
import { stalledWarning, truncationWarning } from './stamped-reads';
import type { RecordKind } from '../records';
import { fieldsLookedFor, nounOf } from '../records';
import type { Obj } from '../base';

/** An event's fields as a platform gave them, under the catalogue's names (a field's `name`). */
export type EventInput = Readonly<Record<string, unknown>>;

/** A trigger's warning for records it cannot use (the `unreadable` kind of TriggerWarning); unreadable-values.ts makes those of the values a user chose. */
export interface UnreadableWarning {
	kind: 'unreadable';
	message: string;
	count: number;
}

/**
 * What a poll, a test event or the candidates met that someone should know,
 * in the order met. Each platform reports it its own way: n8n in its log (an
 * error for unreadable records on a first poll), Zapier in the Zap's log (an
 * error for unreadable records when it loads a sample or seeds its dedupe).
 */
export type TriggerWarning =
	/** Records the trigger cannot place or use: no id or time (see unreadableMessage), no value of the field the user chose (unreadable-values.ts); `count` of them. */
	| UnreadableWarning
	/** The read stopped while the service said more follow: n8n fires nothing and keeps its state (`message`); Zapier returns what was read. */
	| { kind: 'stalled'; message: string; read: PostsRead }
	/** The read was cut by its cap; `details` go to n8n's log with it. */
	| { kind: 'truncated'; message: string; details?: { order: PostOrder; requests: number } }
	/** A kept state reached its bound (n8n). */
	| { kind: 'overflow'; message: string };

/** When an event is polled, and how many pages of which size a read may take (each platform has its own). */
export interface EventRead {
	now: number;
	options: FetchOptions;
}

/** One poll against a kept state: the events to fire, oldest first, and the next state; no state when the read stalled (nothing fires, the state stays). */
export interface EventPoll {
	warnings: TriggerWarning[];
	events: Obj[];
	state?: unknown;
}

/** A test event that cannot be shown: what is missing, and what to do. */
export interface NothingToShow {
	message: string;
	description: string;
}

/** The latest event, or why there is none. */
export type EventTest = { warnings: TriggerWarning[] } & ({ event: Obj } | { nothing: NothingToShow });

/** Every current event, newest first, each with its dedupe `id`. */
export interface EventCandidates {
	warnings: TriggerWarning[];
	events: Array<Obj & { id: string }>;
}

/** What a field means, for the messages below. */
const FIELD_MEANING: Readonly<Record<string, string>> = { id: 'id', publishedAt: 'publication time', date: 'date' };

/**
 * A message that says which records a trigger could not read, which field
 * it looked for under which names, and what to do; undefined when there are
 * none. `total` is how many records were read; `source` the request
 * (`GET /posts`).
 */
export function unreadableMessage(kind: RecordKind, unreadable: readonly UnreadableRecord[], total: number, source: string): string | undefined {
	if (unreadable.length === 0) return undefined;
	const noun = nounOf(kind, total);
	const fields = [...new Set(unreadable.flatMap((u) => u.missing))];
	const lacks = fields.map((f) => `no ${FIELD_MEANING[f] ?? f} (looked for ${fieldsLookedFor(kind, f)})`).join(' or ');
	const keys = Object.keys(unreadable[0].record).slice(0, 12).join(', ') || 'none';
	return (
		`${unreadable.length} of ${total} ${noun} returned by ${source} ${unreadable.length === 1 ? 'has' : 'have'} ${lacks}, so the trigger cannot tell whether they are new and skips them. ` +
		`The first one has the fields: ${keys}. Check that the Base URL points to API v1 of the service, and report this shape to its support.`
	);
}

/** The request each kind of record comes from, as the messages name it. */
export const SOURCES = { post: 'GET /posts', draft: 'GET /drafts', calendarEntry: 'GET /calendar', credits: 'GET /credits' } as const satisfies Partial<Record<RecordKind, string>>;

/** The `unreadable` warning of a read, if any record lacks an id or a time. */
export function unreadableWarnings(kind: keyof typeof SOURCES, unreadable: UnreadableRecord[], total: number): TriggerWarning[] {
	const message = unreadableMessage(kind, unreadable, total, SOURCES[kind]);
	return message ? [{ kind: 'unreadable', message, count: unreadable.length }] : [];
}

/** The `stalled` warning of a read, if it stalled. */
export function stalledWarnings(read: PostsRead): TriggerWarning[] {
	const message = stalledWarning(read);
	return message ? [{ kind: 'stalled', message, read }] : [];
}

/** The cap's warning; for drafts in their own words, as n8n's New Draft was published. */
export function truncatedWarnings(read: PostsRead, kind: 'post' | 'draft'): TriggerWarning[] {
	const message = truncationWarning(read);
	if (!message) return [];
	if (kind === 'draft') return [{ kind: 'truncated', message: message.replace(/posts/g, 'drafts').replace(/published/g, 'created') }];
	return [{ kind: 'truncated', message, details: { order: read.order, requests: read.requests } }];
}

/**
 * A poll over a list read page by page: unreadable records first; a read
 * that stalled fires nothing and keeps the state; otherwise what `select`
 * found, then the cap's warning and those of the selection.
 */
export function selectFromList<S>(
	read: PostsRead,
	kind: 'post' | 'draft',
	select: () => { events: Obj[]; state: S; warnings?: TriggerWarning[] },
): EventPoll & { state?: S } {
	const warnings = unreadableWarnings(kind, read.unreadable, read.records.length);
	const stalled = stalledWarnings(read);
	if (stalled.length > 0) return { warnings: [...warnings, ...stalled], events: [] };
	const { events, state, warnings: more = [] } = select();
	return { warnings: [...warnings, ...truncatedWarnings(read, kind), ...more], events, state };
}
