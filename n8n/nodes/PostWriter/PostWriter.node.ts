import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { BRAND } from '../../shared/base';
import { createGuided } from './actions/creation/Creation.resource';
import { router } from './actions/router';
import { versionProperties } from './actions/versionDescription';
import { operationSubtitle } from './helpers/operation-picker';
import { listWritingProfiles } from './methods/listSearch';

export class PostWriter implements INodeType {
	description: INodeTypeDescription = {
		displayName: BRAND.displayName,
		name: BRAND.n8nNodeName,
		icon: { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle({ creation: [createGuided.meta] }),
		description: 'Generate, rewrite, schedule and track posts for a professional social network',
		defaults: { name: BRAND.displayName },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: BRAND.n8nCredentialName, required: true }],
		properties: versionProperties,
	};

	methods = {
		listSearch: { listWritingProfiles },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
