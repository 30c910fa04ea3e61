import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as search from './search.operation';

export { search };

export const description: INodeProperties[] = [
	operationPicker('inspiration', [], 'search'),
	...search.description,
];
