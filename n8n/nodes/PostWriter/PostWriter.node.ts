import type { IExecuteFunctions, ILoadOptionsFunctions, INodeExecutionData, INodeListSearchResult, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { BRAND } from '../../shared/base/definitions';
import { createGuided } from './actions/creation/Creation.resource';
import { router } from './actions/router';
import { versionProperties } from './actions/versionDescription';
import { operationSubtitle } from './helpers/operation-picker';

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

	/** The list searches load the client on their first call (methods/listSearch.ts), as the operations do (helpers/run.ts). */
	methods = {
		listSearch: {
			async listWritingProfiles(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
				const { listWritingProfiles } = await import('./methods/listSearch');
				return await listWritingProfiles.call(this, filter);
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
