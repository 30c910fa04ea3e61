/**
 * Low Credit Balance: the balance falls below a threshold. Each transaction
 * of the history that took the balance from at least the threshold to below
 * it is one event, id `${transactionId}:${threshold}`, newest first; Zapier's
 * dedupe fires each once (the first poll seeds), so a fall, a top-up and a
 * new fall fire twice, and a fall followed by a top-up between two polls
 * still fires. When the history does not show the fall (no amounts), the
 * balance below the threshold is one event, `below:${threshold}`.
 */
import { defineTrigger } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import { creditThreshold, creditsLowHistory, creditsLowOutput } from '../../../shared/event-state';
import type { CreditsLowEvent } from '../../../shared/event-state';
import { fetchCredits } from '../../../shared/poll-reader';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { isoInZone, zoneOf } from '../time';

/** Events returned per poll at most (the newest). */
export const POLL_COUNT = 100;

export const inputFields: PlainInputField[] = [
	{
		key: 'threshold',
		label: 'Threshold',
		type: 'number',
		required: true,
		default: '10',
		helpText: 'The Zap runs when the credit balance falls below this number of credits.',
	},
];

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
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
}, inputFields);

const tx = { id: 'tx_57', amount: -1, operation: 'generate', balanceAfter: 9, createdAt: '2026-11-21T09:00:00.000Z' };

export default defineTrigger({
	key: 'creditsLow',
	noun: 'Balance',
	display: {
		label: 'Low Credit Balance',
		description: 'Triggers when the credit balance falls below a threshold.',
	},
	operation: {
		type: 'polling',
		inputFields,
		perform,
		sample: {
			id: 'tx_57:10',
			balance: 9,
			threshold: 10,
			below: true,
			balanceAfterCrossing: 9,
			crossedAt: tx.createdAt,
			crossedAtLocal: '2026-11-21T10:00:00+01:00',
			transactionId: tx.id,
			transaction: tx,
			latestTransactions: [tx, { id: 'tx_56', amount: -1, operation: 'rewrite', balanceAfter: 10, createdAt: '2026-11-21T08:40:00.000Z' }],
		},
		outputFields: [
			{ key: 'id', label: 'Event ID (Transaction and Threshold)' },
			{ key: 'balance', label: 'Credit Balance', type: 'number' },
			{ key: 'threshold', label: 'Threshold', type: 'number' },
			{ key: 'below', label: 'Still Below Threshold', type: 'boolean' },
			{ key: 'balanceAfterCrossing', label: 'Balance After the Fall', type: 'number' },
			{ key: 'crossedAt', label: 'Fell Below At', type: 'datetime' },
			{ key: 'crossedAtLocal', label: 'Fell Below At (Your Time Zone)', type: 'datetime' },
			{ key: 'transactionId', label: 'Transaction ID' },
			{ key: 'transaction__operation', label: 'Transaction Operation' },
			{ key: 'transaction__amount', label: 'Transaction Amount', type: 'number' },
			{ key: 'latestTransactions[]operation', label: 'Latest Transactions Operation' },
			{ key: 'latestTransactions[]amount', label: 'Latest Transactions Amount', type: 'number' },
			{ key: 'latestTransactions[]createdAt', label: 'Latest Transactions Date', type: 'datetime' },
		],
	},
});
