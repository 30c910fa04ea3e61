import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as activate from './activate.operation';
import * as getMany from './getMany.operation';

export { activate, getMany };

export const description: INodeProperties[] = [
	operationPicker('writingProfile', [], 'activate'),
	...activate.description,
	...getMany.description,
];
