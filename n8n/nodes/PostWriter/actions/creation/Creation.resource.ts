import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../helpers/operation-picker';
import * as createGuided from './createGuided.operation';
import * as prepare from './prepare.operation';
import * as refine from './refine.operation';
import * as start from './start.operation';
import * as validate from './validate.operation';
import * as write from './write.operation';

export { createGuided, prepare, refine, start, validate, write };

export const description: INodeProperties[] = [
	operationPicker('creation', [createGuided.meta], createGuided.OPERATION),
	...createGuided.description,
	...start.description,
	...prepare.description,
	...write.description,
	...validate.description,
	...refine.description,
];
