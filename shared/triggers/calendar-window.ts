/**
 * The calendar as Upcoming Scheduled Draft reads it: the days to ask for,
 * the scheduled entries within the notice window, each entry's key (a draft
 * and its time), and the two outputs' order and item. Pure; its state is in
 * published-upcoming-state.ts, its read in reads.ts.
 */
import { ymdInZone, ymdUtc } from '../base';
import type { CalendarEntry, Obj } from '../base';

/**
 * The calendar takes whole UTC days; the window [now, now + lookahead] is
 * covered by the days from now's UTC date to the end's UTC date.
 */
export function calendarWindow(now: number, lookaheadMs: number): { from: string; to: string } {
	return { from: ymdUtc(now), to: ymdUtc(now + lookaheadMs) };
}

/**
 * The calendar days to ask for so that [now, now + lookahead] is covered in
 * a zone as well as in UTC. The spec does not say in which zone /calendar
 * reads its dates: the window is the union of the UTC days and the days in
 * that zone, and the exact instants are filtered afterwards.
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

/** What fires once: a draft at one scheduled time (`at`: that time, parsed from its date, when the caller has it). */
export function upcomingKey(entry: CalendarEntry, at: number = Date.parse(entry.date)): string {
	return `${entry.draftId ?? entry.id}:${new Date(at).toISOString()}`;
}

/** A scheduled entry with its time parsed. */
export interface TimedEntry {
	entry: CalendarEntry;
	at: number;
}

/** Scheduled entries whose time lies in (now, now + lookahead], soonest first, each with its time. */
export function upcomingTimed(entries: CalendarEntry[], now: number, lookaheadMs: number): TimedEntry[] {
	// Each time parsed once, not again at every comparison of the sort.
	const timed: TimedEntry[] = [];
	for (const entry of entries) {
		if (entry.type !== 'scheduled') continue;
		const at = Date.parse(entry.date);
		if (!Number.isNaN(at) && at > now && at <= now + lookaheadMs) timed.push({ entry, at });
	}
	return timed.sort((a, b) => a.at - b.at);
}

/** Scheduled entries whose time lies in (now, now + lookahead], soonest first. */
export function upcomingEntries(entries: CalendarEntry[], now: number, lookaheadMs: number): CalendarEntry[] {
	return upcomingTimed(entries, now, lookaheadMs).map((t) => t.entry);
}

/** n8n's item for an upcoming entry: the entry, its draft, its time as ISO and the minutes left. */
export function upcomingItem(entry: CalendarEntry, now: number): Obj {
	const at = Date.parse(entry.date);
	return { ...entry, draftId: entry.draftId ?? entry.id, scheduledAt: new Date(at).toISOString(), minutesUntil: Math.round((at - now) / 60_000) };
}

/**
 * Zapier's order: the times that entered the notice window last come first
 * (ties: by event id, for a stable order). The order does not touch the
 * dedupe, which reads only the ids.
 */
export function latestScheduledFirst(entries: CalendarEntry[]): CalendarEntry[] {
	return [...entries].sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || upcomingKey(b).localeCompare(upcomingKey(a)));
}
