/**
 * Readers for loosely typed values in API responses and platform inputs.
 * One definition each, used across the core and by both platforms.
 */
export type Obj = Record<string, unknown>;

/** A plain object (not an array, not null). */
export function isObj(value: unknown): value is Obj {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** A non-blank string, trimmed; a finite number as its string; otherwise undefined. */
export function str(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** A finite number, or a string of digits as a number; otherwise undefined. */
export function num(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
	return undefined;
}
