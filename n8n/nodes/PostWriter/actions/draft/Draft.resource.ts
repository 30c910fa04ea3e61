import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as create from './create.operation';
import * as getMany from './getMany.operation';

export { create, getMany };

export const description: INodeProperties[] = [
	operationPicker('draft', [], 'create'),
	...create.description,
	...getMany.description,
];
