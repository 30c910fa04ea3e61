/** Find Account Profile: the account of the connected key, with its credit balance and active writing profile. */
import { defineSearch } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { AccountProfile } from '../../../shared';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';

/** A flat account record: `credits` as a number, the active writing profile beside the list. */
export function normaliseProfile(profile: AccountProfile): Record<string, unknown> {
	const credits = typeof profile.credits === 'number' ? profile.credits : typeof profile.credits?.balance === 'number' ? profile.credits.balance : undefined;
	const profiles = Array.isArray(profile.writingProfiles) ? profile.writingProfiles : [];
	const active = profiles.find((p) => p.active);
	return {
		...profile,
		id: profile.id === undefined ? undefined : String(profile.id),
		credits,
		activeWritingProfile: active ? { id: active.id, name: active.name } : null,
	};
}

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const profile = await clientFor(z, bundle).accountProfile({});
	return [normaliseProfile(profile)];
});

export default defineSearch({
	key: 'findAccountProfile',
	noun: 'Account Profile',
	display: {
		label: 'Find Account Profile',
		description: 'Finds the account of the connected API key: name, email, credit balance and active writing profile.',
	},
	operation: {
		perform,
		sample: sampleFor('accountProfile', { activeWritingProfile: { id: 'wp_founder', name: 'Founder voice' } }),
		outputFields: outputFieldsFor('accountProfile', [
			{ key: 'activeWritingProfile__id', label: 'Active Writing Profile ID' },
			{ key: 'activeWritingProfile__name', label: 'Active Writing Profile Name' },
		]),
	},
});
