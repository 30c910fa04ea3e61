/** Find Account Profile: the account of the connected key, with its credit balance and active writing profile (normalised by the core). */
import { defineSearch } from '../define';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';

const perform = withErrors(async (z: ZObject, bundle: Bundle) => [await clientFor(z, bundle).getAccountProfile({})]);

export default defineSearch({
	key: 'getAccountProfile' satisfies OperationKey,
	noun: 'Account Profile',
	display: {
		label: 'Find Account Profile',
		description: 'Finds the account of the connected API key: name, email, credit balance and active writing profile.',
	},
	operation: {
		perform,
		sample: sampleFor('getAccountProfile'),
		outputFields: outputFieldsFor('getAccountProfile'),
	},
});
