/**
 * Time zones with Intl alone: whether a zone is known, the wall clock and the
 * offset of a zone at an instant, the instant of a wall time, and ISO 8601
 * text in a zone. The n8n node reads times without a zone in the workflow's
 * zone; the Zapier app writes times in the user's zone.
 */

export const DAY_MS = 86_400_000;

/** The wall clock of a zone at an instant. */
export interface ZonedParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
}

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

/**
 * The wall clock of a zone as a function of the instant: one formatter for every instant asked, made on the
 * first (making one is most of the cost of reading a wall clock, and a poll reads one per event).
 */
export function zoneClock(zone: string): (ms: number) => ZonedParts {
	let format: Intl.DateTimeFormat | undefined;
	return (ms) => {
		format ??= new Intl.DateTimeFormat('en-US', {
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
		for (const part of format.formatToParts(new Date(ms))) {
			if (part.type !== 'literal') out[part.type] = Number(part.value);
		}
		return { year: out.year, month: out.month, day: out.day, hour: out.hour % 24, minute: out.minute, second: out.second };
	};
}

export function partsInZone(ms: number, zone: string): ZonedParts {
	return zoneClock(zone)(ms);
}

/** The offset (ms) of a wall clock `p` read at the instant `utcMs`. */
function offsetOf(utcMs: number, p: ZonedParts): number {
	const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
	const wholeSeconds = utcMs - (((utcMs % 1000) + 1000) % 1000);
	return asUtc - wholeSeconds;
}

/** The offset of a zone at an instant, in ms (local wall time minus UTC). */
export function zoneOffsetMs(utcMs: number, zone: string): number {
	return offsetOf(utcMs, partsInZone(utcMs, zone));
}

/** The offset of a zone at an instant, in minutes east of UTC. */
export function offsetMinutes(ms: number, zone: string): number {
	return Math.round(zoneOffsetMs(ms, zone) / 60_000);
}

/** The instant at which the wall clock of `zone` shows the given time (given as if it were UTC). */
export function wallTimeToUtc(wallMs: number, zone: string): number {
	let guess = wallMs - zoneOffsetMs(wallMs, zone);
	// A second pass settles the offset when the first guess crossed a DST change.
	guess = wallMs - zoneOffsetMs(guess, zone);
	return guess;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const ymdOf = (p: ZonedParts) => `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;

/** YYYY-MM-DD of the instant in UTC. */
export function ymdUtc(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** YYYY-MM-DD of the instant in the zone. */
export function ymdInZone(ms: number, zone: string): string {
	return ymdOf(partsInZone(ms, zone));
}

/** ISO 8601 in the zone with its numeric offset, e.g. 2026-11-24T09:30:00+01:00 (UTC gives +00:00). */
export function isoInZone(ms: number, zone: string): string {
	return isoInZoneOf(zone)(ms);
}

/** isoInZone for many instants of one zone, with one formatter (zoneClock); the wall clock read once gives the offset too. */
export function isoInZoneOf(zone: string): (ms: number) => string {
	const clock = zoneClock(zone);
	return (ms) => {
		const p = clock(ms);
		const off = Math.round(offsetOf(ms, p) / 60_000);
		const sign = off < 0 ? '-' : '+';
		const abs = Math.abs(off);
		return `${ymdOf(p)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
	};
}
