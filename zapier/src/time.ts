/**
 * Time helpers for the Zapier app: ISO 8601 timestamps with the offset of the
 * user's zone (bundle.meta.timezone), and the calendar window that covers a
 * time range whether the service reads its dates in UTC or in that zone.
 */
import { isKnownZone, isoInZone } from '../../shared/base';

/** Kept here for the triggers, which take their time helpers from this file. */
export { isoInZone, isoInZoneOf } from '../../shared/base';
export { calendarWindowInZone } from '../../shared/triggers';

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
