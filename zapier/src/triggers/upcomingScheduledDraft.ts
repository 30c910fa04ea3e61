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
import type { Bundle, ZObject } from 'zapier-platform-core';
import { ValidationError } from '../../../shared/errors';
import type { CalendarEntry } from '../../../shared/types';
import { NOTIFY_UNITS, lookaheadMs, unreadableEntries, upcomingEntries, upcomingKey, type NotifyUnit } from '../../../shared/polling';
import { clientFor } from '../client';
import { calendarWindowInZone, isoInZone, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';
import { eventTrigger } from './event';

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

export default eventTrigger('upcomingScheduledDraft', async (z: ZObject, bundle: Bundle) => {
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
});
