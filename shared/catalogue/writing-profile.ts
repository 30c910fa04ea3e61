/**
 * The writing profile resource's operations: list the account's writing profiles, activate one.
 */
import type { ActivateOutput, WritingProfile } from '../base';
import { SAMPLE_PROFILE } from './common';
import { op } from './spec';

export const WRITING_PROFILE_OPERATIONS = {
	listWritingProfiles: op<WritingProfile[]>()({
		key: 'listWritingProfiles',
		resource: 'writingProfile',
		action: 'getMany',
		name: 'Get Many Writing Profiles',
		description: "Lists the account's writing profiles.",
		method: 'GET',
		path: '/writing-profiles',
		scope: 'account:read',
		cost: 0,
		fields: [],
		list: { keys: ['writingProfiles', 'writing_profiles', 'profiles'] },
		sample: SAMPLE_PROFILE,
		outputFields: [
			{ key: 'id', label: 'Writing Profile ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'description', label: 'Description' },
			{ key: 'active', label: 'Active', type: 'boolean' },
		],
	}),
	activateWritingProfile: op<ActivateOutput>()({
		key: 'activateWritingProfile',
		resource: 'writingProfile',
		action: 'activate',
		name: 'Activate Writing Profile',
		description: 'Activates a writing profile for the next generations.',
		method: 'POST',
		path: '/writing-profiles/:id/activate',
		scope: 'account:write',
		cost: 0,
		fields: [
			{
				name: 'id',
				label: 'Writing Profile',
				description: 'The writing profile to activate.',
				type: 'string',
				in: 'path',
				required: true,
				dynamic: 'listWritingProfiles',
			},
		],
		sample: { ...SAMPLE_PROFILE },
		outputFields: [
			{ key: 'id', label: 'Writing Profile ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'active', label: 'Active', type: 'boolean' },
		],
	}),
} as const;
