/** Hidden trigger feeding the Writing Profile dropdowns, page by page (`canPaginate`, see dropdown.ts, loaded on the first page). */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { WritingProfile } from '../../../shared/base';
import { withErrors } from '../perform';
import { outputFieldsFor, sampleFor } from '../fields';

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const { dropdownPage } = await import('./dropdown');
	const profiles = (await dropdownPage(z, bundle, 'listWritingProfiles')) as WritingProfile[];
	return profiles.map((p) => ({ ...p, id: String(p.id), label: p.active ? `${p.name} (active)` : p.name }));
});

export default defineTrigger({
	key: 'listWritingProfiles' satisfies OperationKey,
	noun: 'Profile',
	display: {
		label: 'Writing Profile List',
		description: 'Triggers when a writing profile is added (lists them in dropdowns).',
		hidden: true,
	},
	operation: {
		type: 'polling',
		canPaginate: true,
		perform,
		sample: sampleFor('listWritingProfiles', { label: 'Founder voice (active)' }),
		outputFields: outputFieldsFor('listWritingProfiles', [{ key: 'label', label: 'Label' }]),
	},
});
