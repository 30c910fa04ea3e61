/**
 * Upcoming Scheduled Draft: fires when a scheduled draft comes within the
 * chosen time of its publication. The calendar is read over the days that
 * cover [now, now + notice] in the user's zone (bundle.meta.timezone) and in
 * UTC; only future times within the notice are returned.
 * `id` = `${draftId}:${scheduledAt}`, so a rescheduled draft fires again.
 * Newest first, as Zapier asks of polling triggers: the newest event is the
 * time that entered the window last, the one furthest ahead. The order does
 * not touch the dedupe, which reads only the ids.
 */
import { defineTrigger } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import { ValidationError } from '../../../shared/errors';
import type { CalendarEntry } from '../../../shared/types';
import { fieldLabel } from '../../../shared/labels';
import { MAX_LOOKAHEAD_DAYS, NOTIFY_UNITS, lookaheadMs, unreadableEntries, upcomingEntries, upcomingKey, type NotifyUnit } from '../../../shared/polling';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';
import { calendarWindowInZone, isoInZone, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';

const UNITS: string[] = NOTIFY_UNITS.map((unit) => unit.value);

export function noticeOf(input: Record<string, unknown>): number {
	const raw = input.notifyBefore ?? 60;
	const amount = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	const unit = (typeof input.notifyBeforeUnit === 'string' && input.notifyBeforeUnit !== '' ? input.notifyBeforeUnit : 'minutes') as NotifyUnit;
	if (!UNITS.includes(unit)) throw new ValidationError('notifyBeforeUnit', `must be one of ${UNITS.join(', ')}, got "${unit}".`);
	if (!Number.isInteger(amount) || amount < 1) {
		throw new ValidationError('notifyBefore', `must be a whole number of ${unit} of at least 1, got ${JSON.stringify(raw)}.`);
	}
	return lookaheadMs(amount, unit); // the core bounds it (MAX_LOOKAHEAD_MS)
}

/** The times that entered the notice window last come first (ties: by event id, for a stable order). */
export function newestFirst(entries: CalendarEntry[]): CalendarEntry[] {
	return [...entries].sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || upcomingKey(b).localeCompare(upcomingKey(a)));
}

const inputFields: PlainInputField[] = [
	{
		key: 'notifyBefore',
		label: fieldLabel('notifyBefore') ?? 'Notify Me Before',
		type: 'integer',
		required: true,
		default: '60',
		helpText: `How long before the scheduled time the Zap runs, in the unit below (at most ${MAX_LOOKAHEAD_DAYS} days).`,
	},
	{
		key: 'notifyBeforeUnit',
		label: 'Unit',
		helpText: 'The unit of Notify Me Before.',
		required: true,
		default: 'minutes',
		choices: NOTIFY_UNITS.map((unit) => ({ value: unit.value, sample: unit.value, label: unit.label })),
	},
];

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const notice = noticeOf(bundle.inputData as Record<string, unknown>);
	const zone = zoneOf(bundle.meta);
	const now = Date.now();
	const calendar = await clientFor(z, bundle).getCalendar(calendarWindowInZone(now, notice, zone));
	const unreadable = unreadableEntries(calendar.unreadable ?? []);
	reportUnreadable(z, bundle, 'Upcoming Scheduled Draft', { kind: 'calendarEntry', unreadable, total: calendar.entries.length + unreadable.length, source: 'GET /calendar' });
	return newestFirst(upcomingEntries(calendar.entries, now, notice)).map((entry) => {
		const at = Date.parse(entry.date);
		return {
			id: upcomingKey(entry),
			draftId: entry.draftId ?? entry.id,
			text: entry.text ?? '',
			scheduledAt: new Date(at).toISOString(),
			scheduledAtLocal: isoInZone(at, zone),
			timezone: zone,
			minutesUntil: Math.max(0, Math.round((at - now) / 60_000)),
		};
	});
}, inputFields);

const draft = sampleFor('listDrafts');

export default defineTrigger({
	key: 'upcomingScheduledDraft',
	noun: 'Draft',
	display: {
		label: 'Upcoming Scheduled Draft',
		description: 'Triggers when a scheduled draft is due for publication soon.',
	},
	operation: {
		type: 'polling',
		inputFields,
		perform,
		sample: {
			id: `${draft.id}:${draft.scheduledAt}`,
			draftId: draft.id,
			text: draft.text,
			scheduledAt: draft.scheduledAt,
			scheduledAtLocal: '2026-11-24T09:30:00+01:00',
			timezone: 'Europe/Paris',
			minutesUntil: 45,
		},
		outputFields: [
			{ key: 'id', label: 'Event ID (Draft and Time)' },
			...outputFieldsFor('listDrafts').filter((f) => ['text', 'scheduledAt'].includes(f.key)),
			{ key: 'draftId', label: 'Draft ID' },
			{ key: 'scheduledAtLocal', label: 'Scheduled At (Your Time Zone)', type: 'datetime' },
			{ key: 'timezone', label: 'Time Zone' },
			{ key: 'minutesUntil', label: 'Minutes Until Publication', type: 'integer' },
		],
	},
});
