/**
 * The parameters of the Post Writer node: the resource picker, then each
 * resource's operation picker and fields (see <resource>/<Name>.resource.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { RESOURCES, RESOURCE_MODULES, RESOURCE_OPTIONS } from './resources';

export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCE_OPTIONS,
		default: 'post',
	},
	...RESOURCES.flatMap((resource) => RESOURCE_MODULES[resource].description),
];
