import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

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

/** Empty dates are filled on each item (get.execute.ts, loaded on the first run): From = today (UTC), To = From + 7 days. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { withDefaultWindow } = await import('./get.execute');
	return await callForEachItem.call(this, items, KEY, OVERRIDES, (input) => withDefaultWindow(input, DEFAULT_SPAN_DAYS));
}
