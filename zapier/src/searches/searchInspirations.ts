/** Find Inspiration: saved inspiring posts by words, minimum likes and format; a miss is []. */
import { defineSearch } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import { clientOf, withErrors } from '../perform';
import { inputFieldsFor, outputFieldsFor, sampleFor } from '../fields';

export const MAX_RESULTS = 25;

const inputFields: PlainInputField[] = inputFieldsFor('searchInspirations');

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const items = await (await clientOf(z, bundle)).searchInspirations(bundle.inputData as Record<string, never>, { limit: MAX_RESULTS, pageSize: MAX_RESULTS });
	return items.map((i) => ({ ...i, id: String(i.id) }));
}, inputFields);

export default defineSearch({
	key: 'searchInspirations' satisfies OperationKey,
	noun: 'Inspiration',
	display: {
		label: 'Find Inspiration',
		description: 'Finds a saved inspiring post by words, likes or format.',
	},
	operation: {
		inputFields,
		perform,
		sample: sampleFor('searchInspirations'),
		outputFields: outputFieldsFor('searchInspirations', [{ key: 'comments', label: 'Comments', type: 'integer' }]),
	},
});
