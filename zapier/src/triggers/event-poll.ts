/**
 * A polling trigger's poll (event.ts declares the trigger), loaded on the
 * first poll: the event's fields as the Zap gave them, the event's logic
 * (TRIGGER_EVENTS in shared/triggers/events.ts) over the core's client, what
 * the poll met in the Zap's log, and the `Local` twins of the time fields.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/base';
import type { Obj } from '../../../shared/base';
import type { EventInput, TriggerWarning, TriggerKey } from '../../../shared/triggers';
import { TRIGGER_EVENTS, getTrigger, platformField } from '../../../shared/triggers';
import { clientFor } from '../client';
import { isoInZoneOf, zoneOf } from '../time';
import { reportUnreadable } from '../unreadable';
import { MAX_PAGES, PAGE_SIZE, pollCount, reportStalled } from './paging';

/** The event's fields as the Zap gave them (no defaults: the event's logic has Zapier's), under the catalogue's names. */
function eventInput(key: TriggerKey, inputData: Record<string, unknown>): EventInput {
	return Object.fromEntries(getTrigger(key).fields.map((field) => [field.name, inputData[platformField(field, 'zapier').name]]));
}

/**
 * Each time field the declaration names (zapier.localTimes) gets a twin
 * `<field>Local` in the user's zone, null when the field holds no time. The
 * twin takes the place the event's output keeps for it, else comes last.
 * `inZone` is isoInZoneOf(the zone), one formatter for the whole poll.
 */
function withLocalTimes<E extends Obj>(event: E, fields: readonly string[], inZone: (ms: number) => string): E {
	const out: Obj = { ...event };
	for (const field of fields) {
		const value = event[field];
		out[`${field}Local`] = typeof value === 'string' ? inZone(Date.parse(value)) : null;
	}
	return out as E;
}

/** What the poll met, in the Zap's log; unreadable records are an error on a first poll (see reportUnreadable). */
function report(z: ZObject, bundle: Bundle, label: string, warnings: TriggerWarning[]): void {
	for (const warning of warnings) {
		if (warning.kind === 'unreadable') reportUnreadable(z, bundle, label, warning.message);
		else if (warning.kind === 'stalled') reportStalled(z, label, warning.read);
		else z.console.log(`${BRAND.displayName} ${label}: ${warning.message}`);
	}
}

/** One poll of the event `key`: every current event, newest first, each with its `id`. */
export async function pollEvent(z: ZObject, bundle: Bundle, key: TriggerKey): Promise<Array<Obj & { id: string }>> {
	const spec = getTrigger(key);
	const logic = TRIGGER_EVENTS[key];
	const label = spec.zapier?.label ?? spec.name;
	const config = logic.config(eventInput(key, bundle.inputData as Record<string, unknown>), 'zapier');
	const zone = zoneOf(bundle.meta);
	const found = await logic.candidates(clientFor(z, bundle), config, {
		now: Date.now(),
		options: { pageSize: PAGE_SIZE, maxPages: MAX_PAGES },
		count: pollCount(bundle),
		zone,
	});
	report(z, bundle, label, found.warnings);
	const inZone = isoInZoneOf(zone);
	return found.events.map((event) => withLocalTimes(event, spec.zapier?.localTimes ?? [], inZone));
}
