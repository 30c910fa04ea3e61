/**
 * The account resource's operations: the account's profile and its credits.
 */
import type { AccountProfile, CreditsOutput } from '../base';
import { SAMPLE_PROFILE, SAMPLE_TIME } from './common';
import { op } from './spec';

export const ACCOUNT_OPERATIONS = {
	getAccountProfile: op<AccountProfile>()({
		key: 'getAccountProfile',
		resource: 'account',
		action: 'getProfile',
		name: 'Get Account Profile',
		description: 'Gets the account profile: name, email, credit balance and writing profiles.',
		method: 'GET',
		path: '/account/profile',
		scope: 'account:read',
		cost: 0,
		fields: [],
		sample: {
			id: 'acc_1',
			name: 'Dana Ortiz',
			email: 'dana@example.com',
			credits: 42,
			writingProfiles: [SAMPLE_PROFILE],
			activeWritingProfile: { id: SAMPLE_PROFILE.id, name: SAMPLE_PROFILE.name },
		},
		outputFields: [
			{ key: 'id', label: 'Account ID' },
			{ key: 'name', label: 'Name' },
			{ key: 'email', label: 'Email' },
			{ key: 'credits', label: 'Credit Balance', type: 'integer' },
			{ key: 'activeWritingProfile__id', label: 'Active Writing Profile ID' },
			{ key: 'activeWritingProfile__name', label: 'Active Writing Profile Name' },
		],
	}),
	getCredits: op<CreditsOutput>()({
		key: 'getCredits',
		resource: 'account',
		action: 'getCredits',
		name: 'Get Credits',
		description: 'Gets the credit balance and the history of credit transactions.',
		method: 'GET',
		path: '/credits',
		scope: 'account:read',
		cost: 0,
		fields: [],
		sample: {
			balance: 41,
			history: [
				{ id: 'tx_3', amount: -1, operation: 'generate', balanceAfter: 41, createdAt: SAMPLE_TIME },
			],
		},
		outputFields: [
			{ key: 'balance', label: 'Credit Balance', type: 'integer' },
			{ key: 'history[]operation', label: 'Transaction Operation' },
			{ key: 'history[]amount', label: 'Transaction Amount', type: 'integer' },
		],
	}),
} as const;
