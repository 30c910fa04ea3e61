/** Find Credit Balance: the balance and the latest credit transactions. */
import { defineSearch } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';

/** Transactions returned at most (newest first, as the service lists them). */
export const HISTORY_MAX = 20;

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const credits = await clientFor(z, bundle).getCredits({});
	const history = credits.history.slice(0, HISTORY_MAX);
	return [{ ...credits, id: 'credits', history, lastTransaction: history[0] ?? null }];
});

const sample = sampleFor('getCredits');

export default defineSearch({
	key: 'getCredits' satisfies OperationKey,
	noun: 'Credit Balance',
	display: {
		label: 'Find Credit Balance',
		description: 'Finds the credit balance of the account and its latest credit transactions.',
	},
	operation: {
		perform,
		sample: { id: 'credits', ...sample, lastTransaction: (sample.history as unknown[])[0] },
		outputFields: outputFieldsFor('getCredits', [
			{ key: 'lastTransaction__operation', label: 'Last Transaction Operation' },
			{ key: 'lastTransaction__amount', label: 'Last Transaction Amount', type: 'integer' },
			{ key: 'lastTransaction__createdAt', label: 'Last Transaction Date', type: 'datetime' },
		]),
	},
});
