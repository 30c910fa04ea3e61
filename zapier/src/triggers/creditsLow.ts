/**
 * Low Credit Balance: the balance falls below a threshold. Each transaction
 * of the history that took the balance from at least the threshold to below
 * it is one event, id `${transactionId}:${threshold}`, newest first; Zapier's
 * dedupe fires each once (the first poll seeds), so a fall, a top-up and a
 * new fall fire twice, and a fall followed by a top-up between two polls
 * still fires. When the history does not show the fall (no amounts), the
 * balance below the threshold is one event, `below:${threshold}`.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { creditThreshold, creditsLowHistory, creditsLowOutput } from '../../../shared/event-state';
import type { CreditsLowEvent } from '../../../shared/event-state';
import { fetchCredits } from '../../../shared/poll-reader';
import { clientFor } from '../client';
import { isoInZone, zoneOf } from '../time';
import { eventTrigger } from './event';

/** Events returned per poll at most (the newest). */
export const POLL_COUNT = 100;

export default eventTrigger('creditsLow', async (z: ZObject, bundle: Bundle) => {
	const threshold = creditThreshold((bundle.inputData as Record<string, unknown>).threshold);
	const zone = zoneOf(bundle.meta);
	const now = Date.now();
	const credits = await fetchCredits(clientFor(z, bundle));
	let events: CreditsLowEvent[] = creditsLowHistory(credits, threshold).slice(0, POLL_COUNT);
	if (events.length === 0 && typeof credits.balance === 'number' && credits.balance < threshold) events = [{ id: `below:${threshold}` }];
	return events.map((e) => {
		const out = creditsLowOutput(e, credits, threshold, now);
		return { ...out, crossedAtLocal: isoInZone(Date.parse(String(out.crossedAt)), zone) };
	});
});
