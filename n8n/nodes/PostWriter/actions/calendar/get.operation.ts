import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { DAY_MS, ymdUtc } from '../../../../shared/base';
import { callForEachItem } from '../../helpers/run';
import { operationFields } from '../../helpers/fields';

const KEY = 'getCalendar';

/** Days covered when To is left empty: From and the 7 days after it. */
export const DEFAULT_SPAN_DAYS = 7;

const OVERRIDES = {
	from: { hint: 'Leave empty for today (UTC)' },
	to: { hint: `Leave empty for ${DEFAULT_SPAN_DAYS} days after 'From'` },
};

/** From and To are required by the API, and filled by withDefaultWindow when left empty. */
export const description: INodeProperties[] = operationFields(KEY, { overrides: OVERRIDES, optional: ['from', 'to'] });

/** Fills empty dates: From = today (UTC), To = From + 7 days. */
export function withDefaultWindow(input: Record<string, unknown>, now = Date.now()): Record<string, unknown> {
	const from = typeof input.from === 'string' ? input.from : ymdUtc(now);
	const fromMs = Date.parse(`${from}T00:00:00Z`);
	const to = typeof input.to === 'string' ? input.to : Number.isNaN(fromMs) ? undefined : ymdUtc(fromMs + DEFAULT_SPAN_DAYS * DAY_MS);
	return { ...input, from, ...(to !== undefined ? { to } : {}) };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await callForEachItem.call(this, items, KEY, OVERRIDES, (input) => withDefaultWindow(input));
}
