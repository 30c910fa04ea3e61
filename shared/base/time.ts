/**
 * The one reading of a time the API sends, used by every reader (records,
 * watermarks, trigger state). The spec shows no date format, so it accepts:
 * - a number, or text of digits (decimals allowed): epoch seconds below 1e11,
 *   epoch milliseconds below 1e14, epoch microseconds above (1e11 s is the
 *   year 5138, 1e11 ms is 1973, and 1e14 ms is the year 5138 again);
 * - ISO 8601 or HTTP-date text; a date and time without a zone is UTC
 *   (Date.parse would read it in the machine's zone).
 * Zero, a negative number, a time JavaScript cannot hold and anything else
 * are no time: undefined.
 */

/** Digits, with decimals: a number sent as text. */
export const NUMERIC = /^-?\d+(\.\d+)?$/;
/** A date and time without a zone. */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;
/** Below this an epoch number is in seconds, below EPOCH_US_FROM in milliseconds, above in microseconds. */
const EPOCH_MS_FROM = 1e11;
const EPOCH_US_FROM = 1e14;
/** The largest time a Date can hold (epoch ms): 100 million days. */
const MAX_TIME = 8.64e15;

/** The time (epoch milliseconds) a value stands for, by the rules above. */
export function timeOf(value: unknown): number | undefined {
	let ms: number;
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (typeof value === 'number' || (text !== undefined && NUMERIC.test(text))) {
		const n = Number(value);
		if (!Number.isFinite(n) || n <= 0) return undefined;
		ms = n < EPOCH_MS_FROM ? n * 1000 : n < EPOCH_US_FROM ? n : n / 1000;
	} else if (text !== undefined && text !== '') {
		const zoneless = ZONELESS.exec(text);
		ms = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : text);
	} else return undefined;
	if (!Number.isFinite(ms) || ms <= 0) return undefined;
	const rounded = Math.round(ms);
	// A Date holds at most MAX_TIME ms either side of 1970 (what `new Date(rounded)` checked, without making one).
	return rounded > MAX_TIME ? undefined : rounded;
}

/** The same time as ISO 8601 UTC text. */
export function isoDate(value: unknown): string | undefined {
	const ms = timeOf(value);
	return ms === undefined ? undefined : new Date(ms).toISOString();
}
