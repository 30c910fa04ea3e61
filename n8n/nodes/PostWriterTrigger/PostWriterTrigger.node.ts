import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { BRAND } from '../../shared/base/definitions';
import { triggerProperties, triggerSubtitle } from './properties';

export class PostWriterTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: `${BRAND.displayName} Trigger`,
		name: BRAND.n8nTriggerName,
		icon: { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle(),
		description: 'Starts the workflow when a post is published or reaches a milestone, a draft is created or comes near, or credits run low',
		defaults: { name: `${BRAND.displayName} Trigger` },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: BRAND.n8nCredentialName, required: true }],
		properties: triggerProperties(),
	};

	/** The polling (poll.ts, with the core's client and the events' logic) loads on the first poll. */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const { pollTrigger } = await import('./poll');
		return await pollTrigger.call(this);
	}
}
