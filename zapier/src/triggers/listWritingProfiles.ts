/** Hidden trigger feeding the Writing Profile dropdowns. */
import { defineTrigger } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const profiles = await clientFor(z, bundle).listWritingProfiles(undefined, { limit: 500 });
	return profiles.map((p) => ({ ...p, id: String(p.id), label: p.active ? `${p.name} (active)` : p.name }));
});

export default defineTrigger({
	key: 'listWritingProfiles' satisfies OperationKey,
	noun: 'Writing Profile',
	display: {
		label: 'Writing Profile List',
		description: 'Triggers when a writing profile is added; used to list writing profiles in dropdowns.',
		hidden: true,
	},
	operation: {
		type: 'polling',
		perform,
		sample: sampleFor('listWritingProfiles', { label: 'Founder voice (active)' }),
		outputFields: outputFieldsFor('listWritingProfiles', [{ key: 'label', label: 'Label' }]),
	},
});
