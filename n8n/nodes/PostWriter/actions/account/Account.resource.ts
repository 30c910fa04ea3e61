import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as getCredits from './getCredits.operation';
import * as getProfile from './getProfile.operation';

export { getCredits, getProfile };

export const description: INodeProperties[] = [
	operationPicker('account', [], 'getProfile'),
	...getCredits.description,
	...getProfile.description,
];
