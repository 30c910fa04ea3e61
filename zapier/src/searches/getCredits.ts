/**
 * Find Credit Balance: the balance and the latest credit transactions.
 * Its search field, Minimum Balance, finds the balance only when it is at
 * least that much: with "nothing found" set to stop the Zap, a Zap stops
 * there before a paid step when the credits run low (Zapier check D009: a
 * search has at least one search field).
 */
import { defineSearch } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import { clientOf, invalid, withErrors } from '../perform';
import { outputFieldsFor, sampleFor } from '../fields';

/** Transactions returned at most (newest first, as the service lists them). */
export const HISTORY_MAX = 20;

const inputFields: PlainInputField[] = [
	{
		key: 'minBalance',
		label: 'Minimum Balance',
		type: 'integer',
		required: false,
		helpText: 'Find the balance only when it is at least this many credits. Leave empty to always find it.',
	},
];

/** The minimum asked, or undefined when the field is empty. */
export async function minimumOf(raw: unknown): Promise<number | undefined> {
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
	const n = typeof raw === 'number' ? raw : /^\s*-?\d+\s*$/.test(String(raw)) ? Number(raw) : NaN;
	if (!Number.isInteger(n) || n < 0) throw await invalid('minBalance', `must be a whole number of credits of at least 0, got ${JSON.stringify(raw)}.`, 'getCredits');
	return n;
}

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const minimum = await minimumOf((bundle.inputData as Record<string, unknown> | undefined)?.minBalance);
	const credits = await (await clientOf(z, bundle)).getCredits({});
	if (minimum !== undefined && !(typeof credits.balance === 'number' && credits.balance >= minimum)) return [];
	const history = credits.history.slice(0, HISTORY_MAX);
	return [{ ...credits, id: 'credits', history, lastTransaction: history[0] ?? null }];
}, inputFields);

const sample = sampleFor('getCredits');

export default defineSearch({
	key: 'getCredits' satisfies OperationKey,
	noun: 'Credit Balance',
	display: {
		label: 'Find Credit Balance',
		description: 'Finds the credit balance and latest transactions.',
	},
	operation: {
		inputFields,
		perform,
		sample: { id: 'credits', ...sample, lastTransaction: (sample.history as unknown[])[0] },
		outputFields: outputFieldsFor('getCredits', [
			{ key: 'lastTransaction__operation', label: 'Last Transaction Operation' },
			{ key: 'lastTransaction__amount', label: 'Last Transaction Amount', type: 'integer' },
			{ key: 'lastTransaction__createdAt', label: 'Last Transaction Date', type: 'datetime' },
		]),
	},
});
