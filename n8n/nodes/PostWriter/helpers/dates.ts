/**
 * Dates as n8n hands them over. A Date Time parameter often comes without a
 * zone ("2026-12-01T09:00:00"): it means the wall time of the workflow's
 * timezone, while the core wants an instant with a zone. These helpers turn
 * what n8n gives (strings, Dates, Luxon DateTimes) into what the core accepts,
 * and leave anything else untouched so that the core's validation names the field.
 */
import { isKnownZone, wallTimeToUtc } from '../../../shared/base';

const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

function fromDateLike(value: unknown): string | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (value && typeof value === 'object') {
		const candidate = value as { toISO?: () => string | null; toISOString?: () => string };
		if (typeof candidate.toISO === 'function') return candidate.toISO() ?? undefined;
		if (typeof candidate.toISOString === 'function') return candidate.toISOString();
	}
	return undefined;
}

/**
 * A timestamp with a zone, for a datetime field. A value without a zone is
 * read in `timeZone` (the workflow's). Empty values give undefined. Values
 * that are not dates are returned as they are, for the core to refuse with
 * a message naming the field.
 */
export function toZonedTimestamp(value: unknown, timeZone: string): unknown {
	if (value === undefined || value === null) return undefined;
	const dateLike = fromDateLike(value);
	if (dateLike !== undefined) return dateLike;
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return undefined;
	if (HAS_ZONE.test(text)) return text;
	const m = WALL_TIME.exec(text);
	if (!m) return text;
	const zone = isKnownZone(timeZone) ? timeZone : 'UTC';
	const ms = Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0'));
	const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), ms);
	if (Number.isNaN(wall)) return text;
	return new Date(wallTimeToUtc(wall, zone)).toISOString();
}

/**
 * A YYYY-MM-DD date (UTC) for a date field. A timestamp with a zone gives
 * its UTC date; a timestamp without one gives its own date part.
 */
export function toUtcDate(value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	const dateLike = fromDateLike(value);
	if (dateLike !== undefined) return new Date(dateLike).toISOString().slice(0, 10);
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
	if (HAS_ZONE.test(text) && /^\d{4}-\d{2}-\d{2}[T ]/.test(text)) {
		const ms = Date.parse(text.replace(' ', 'T'));
		if (!Number.isNaN(ms)) return new Date(ms).toISOString().slice(0, 10);
	}
	if (WALL_TIME.test(text)) return text.slice(0, 10);
	return text;
}
