/** Find Writing Profile: by name (an exact name first, then names containing the words); a miss is []. */
import { defineSearch } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { WritingProfile } from '../../../shared/base';
import { clientOf, withErrors } from '../perform';
import { outputFieldsFor, sampleFor } from '../fields';

export function matchProfiles(profiles: WritingProfile[], name: string, activeOnly = false): WritingProfile[] {
	const wanted = name.trim().toLowerCase();
	const pool = activeOnly ? profiles.filter((p) => p.active) : profiles;
	if (!wanted) return pool;
	const exact = pool.filter((p) => String(p.name ?? '').toLowerCase() === wanted);
	const partial = pool.filter((p) => !exact.includes(p) && String(p.name ?? '').toLowerCase().includes(wanted));
	return [...exact, ...partial];
}

const inputFields: PlainInputField[] = [
	{ key: 'name', label: 'Name', type: 'string', required: false, helpText: 'The name of the profile, or words of it. Leave empty with Active Only to find the active profile.' },
	{ key: 'activeOnly', label: 'Active Only', type: 'boolean', required: false, default: 'false', helpText: 'Only the profile in use for the next generations.' },
];

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const input = bundle.inputData as Record<string, unknown>;
	const profiles = await (await clientOf(z, bundle)).listWritingProfiles(undefined, { limit: 500 });
	const activeOnly = input.activeOnly === true || input.activeOnly === 'true';
	return matchProfiles(profiles, String(input.name ?? ''), activeOnly).map((p) => ({ ...p, id: String(p.id) }));
}, inputFields);

export default defineSearch({
	key: 'listWritingProfiles' satisfies OperationKey,
	noun: 'Writing Profile',
	display: {
		label: 'Find Writing Profile',
		description: 'Finds a writing profile by name, or the active one.',
	},
	operation: {
		inputFields,
		perform,
		sample: sampleFor('listWritingProfiles'),
		outputFields: outputFieldsFor('listWritingProfiles'),
	},
});
