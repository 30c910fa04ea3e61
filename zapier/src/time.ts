/**
 * Time helpers for the Zapier app: ISO 8601 timestamps with the offset of the
 * user's zone (bundle.meta.timezone), and the calendar window that covers a
 * time range whether the service reads its dates in UTC or in that zone.
 */
import { calendarWindow } from '../../shared';

/** True when the runtime knows the IANA zone (e.g. "Europe/Paris"). */
export function isKnownZone(zone: unknown): zone is string {
	if (typeof zone !== 'string' || zone.trim() === '') return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** The user's zone from the bundle, or UTC when missing or unknown. */
export function zoneOf(meta: { timezone?: string | null } | undefined): string {
	const zone = meta?.timezone;
	return isKnownZone(zone) ? zone : 'UTC';
}

interface Parts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
}

function partsInZone(ms: number, zone: string): Parts {
	const fmt = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	});
	const out: Record<string, number> = {};
	for (const p of fmt.formatToParts(new Date(ms))) {
		if (p.type !== 'literal') out[p.type] = Number(p.value);
	}
	return { year: out.year, month: out.month, day: out.day, hour: out.hour, minute: out.minute, second: out.second };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYY-MM-DD of the instant in the zone. */
export function ymdInZone(ms: number, zone: string): string {
	const p = partsInZone(ms, zone);
	return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** Offset of the zone at that instant, in minutes east of UTC. */
export function offsetMinutes(ms: number, zone: string): number {
	const p = partsInZone(ms, zone);
	const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
	return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** ISO 8601 in the zone with its numeric offset, e.g. 2026-11-24T09:30:00+01:00 (UTC gives +00:00). */
export function isoInZone(ms: number, zone: string): string {
	const p = partsInZone(ms, zone);
	const off = offsetMinutes(ms, zone);
	const sign = off < 0 ? '-' : '+';
	const abs = Math.abs(off);
	return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
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
