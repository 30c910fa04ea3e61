import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as analyze from './analyze.operation';
import * as generate from './generate.operation';
import * as getMany from './getMany.operation';
import * as predictVirality from './predictVirality.operation';
import * as rewrite from './rewrite.operation';

export { analyze, generate, getMany, predictVirality, rewrite };

export const description: INodeProperties[] = [
	operationPicker('post', [], 'generate'),
	...analyze.description,
	...generate.description,
	...getMany.description,
	...predictVirality.description,
	...rewrite.description,
];
