/**
 * What Calendar › Get (get.operation.ts) adds to its run, loaded on its first
 * run: the dates left empty are filled before the call.
 */
import { DAY_MS, ymdUtc } from '../../../../shared/base';

/** Fills empty dates: From = today (UTC), To = From + `spanDays` days. */
export function withDefaultWindow(input: Record<string, unknown>, spanDays: number, now = Date.now()): Record<string, unknown> {
	const from = typeof input.from === 'string' ? input.from : ymdUtc(now);
	const fromMs = Date.parse(`${from}T00:00:00Z`);
	const to = typeof input.to === 'string' ? input.to : Number.isNaN(fromMs) ? undefined : ymdUtc(fromMs + spanDays * DAY_MS);
	return { ...input, from, ...(to !== undefined ? { to } : {}) };
}
