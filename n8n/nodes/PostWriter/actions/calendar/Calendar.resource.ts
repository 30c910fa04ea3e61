import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	operationPicker('calendar', [], 'get'),
	...get.description,
];
