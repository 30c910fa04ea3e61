/**
 * Time helpers for the Zapier app: ISO 8601 timestamps with the offset of the
 * user's zone (bundle.meta.timezone), and the calendar window that covers a
 * time range whether the service reads its dates in UTC or in that zone.
 */
import { isKnownZone, isoInZone, ymdInZone } from '../../shared/dates';
import { calendarWindow } from '../../shared/polling';

/** Kept here for the triggers, which take their time helpers from this file. */
export { isoInZone } from '../../shared/dates';

/** The user's zone from the bundle, or UTC when missing or unknown. */
export function zoneOf(meta: { timezone?: string | null } | undefined): string {
	const zone = meta?.timezone;
	return isKnownZone(zone) ? zone : 'UTC';
}

/** A timestamp from the service (any ISO form) in the user's zone, or undefined when unreadable. */
export function localIso(value: unknown, zone: string): string | undefined {
	if (typeof value !== 'string') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : isoInZone(ms, zone);
}

/**
 * The calendar days to ask for so that [now, now + lookahead] is covered.
 * The spec does not say in which zone /calendar reads its dates: the window
 * is the union of the UTC days and the days in the user's zone, and the
 * exact instants are filtered afterwards.
 */
export function calendarWindowInZone(now: number, lookaheadMs: number, zone: string): { from: string; to: string } {
	const utc = calendarWindow(now, lookaheadMs);
	const fromLocal = ymdInZone(now, zone);
	const toLocal = ymdInZone(now + lookaheadMs, zone);
	return {
		from: fromLocal < utc.from ? fromLocal : utc.from,
		to: toLocal > utc.to ? toLocal : utc.to,
	};
}
