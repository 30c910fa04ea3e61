/**
 * The Options collection of an operation: the names, bounds and defaults of
 * its node-wide entries (minimum credits to keep, concurrency, the quota's
 * time budget), their properties, and the collection that holds them. The
 * memory of paid calls has its own module (paid.ts); execute.ts and input.ts
 * read the values under these names.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { OTHER_FIELD_LABELS } from '../../../shared/catalogue/definitions';
import { AUTO_IN_FLIGHT } from '../../../shared/pacing/definitions';
import { DEFAULT_RETRY_POLICY } from '../../../shared/client/definitions';
import { compareLabels } from './wording';

/** The name of the Options collection. */
export const OPTIONS = 'options';

export const MIN_CREDITS_TO_KEEP = 'minCreditsToKeep';
export const CONCURRENCY = 'concurrency';

export const MAX_QUOTA_WAIT = 'maxQuotaWait';

/**
 * Options › Concurrency left out is Auto: the calls in flight are sized from
 * what the answers show (the quota per window and the measured latency,
 * Little's law; without rate-limit headers, AIMD), by the pacing that every
 * run on the key shares (shared/pacing/pacer.ts). A number set is a hard cap.
 */
export const MAX_CONCURRENCY = AUTO_IN_FLIGHT.max;
/** The value the option starts with when it is added to the Options. */
export const CONCURRENCY_WHEN_ADDED = 10;
/** Options › Maximum Wait for the Quota, in minutes: how long a refused call (429, WORKFLOW_BUSY) keeps trying. */
export const DEFAULT_MAX_QUOTA_WAIT_MINUTES = DEFAULT_RETRY_POLICY.maxQuotaWaitMs / 60_000;
export const MAX_QUOTA_WAIT_MINUTES = 60;

/** Options › Minimum Credits to Keep, on operations that may spend credits. */
export function creditFloorOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[MIN_CREDITS_TO_KEEP],
		name: MIN_CREDITS_TO_KEEP,
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			"Stop before the call when it would leave fewer credits than this; 0 means no minimum. The balance comes from the last answer of the service, or from 'Get Credits' (the API key then needs the scope account:read).",
	};
}

/** Options › Concurrency, on every operation that calls the API once per item (not on the lists, which follow their pages in order). */
export function concurrencyOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[CONCURRENCY],
		name: CONCURRENCY,
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: CONCURRENCY_WHEN_ADDED,
		description: `Most items sent to the service at once, from 1 to ${MAX_CONCURRENCY}. Leave this option out for Auto: the node sizes the calls in flight from the quota the service reports and how long its answers take, shared with every run on the same API key. Output items keep the input order.`,
	};
}

/** Options › Maximum Wait for the Quota, on every operation: the time budget of a call the service refuses for now (429, WORKFLOW_BUSY). */
export function maxQuotaWaitOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[MAX_QUOTA_WAIT],
		name: MAX_QUOTA_WAIT,
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_QUOTA_WAIT_MINUTES, numberPrecision: 1 },
		default: DEFAULT_MAX_QUOTA_WAIT_MINUTES,
		description: `Minutes a call refused by the rate limit (429) or WORKFLOW_BUSY keeps waiting and trying again before its item fails (${DEFAULT_MAX_QUOTA_WAIT_MINUTES} when not set). For a 429, only time in which the quota lets none of the operation's calls through counts: a call waiting its turn behind others that go is not stuck. A refused call was not carried out and cost nothing.`,
	};
}

/** The Options collection of an operation, its entries sorted by name; none when empty. */
export function optionsCollection(display: IDisplayOptions, options: INodeProperties[]): INodeProperties[] {
	if (options.length === 0) return [];
	return [
		{
			displayName: 'Options',
			name: OPTIONS,
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: display,
			options: [...options].sort((a, b) => compareLabels(a.displayName, b.displayName)),
		},
	];
}
