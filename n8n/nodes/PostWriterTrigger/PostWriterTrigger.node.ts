import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { BRAND } from '../../shared/brand';
import { MAX_LOOKAHEAD_DAYS, NOTIFY_UNITS } from '../../shared/polling';
import { pollTrigger } from './poll';

export class PostWriterTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: `${BRAND.displayName} Trigger`,
		name: BRAND.n8nTriggerName,
		icon: { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] === "newPublishedPost" ? "New Published Post" : "Upcoming Scheduled Draft" }}',
		description: 'Starts the workflow when a post is published or when a scheduled draft comes near',
		defaults: { name: `${BRAND.displayName} Trigger` },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: BRAND.n8nCredentialName, required: true }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Published Post',
						value: 'newPublishedPost',
						description: 'Once per post published after the workflow is activated, with its metrics',
					},
					{
						name: 'Upcoming Scheduled Draft',
						value: 'upcomingScheduledDraft',
						description: "Once per scheduled draft when its time comes within 'Notify Me Before'; again if it is rescheduled",
					},
				],
				default: 'newPublishedPost',
			},
			{
				displayName: 'Notify Me Before',
				name: 'notifyAmount',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 1,
				description: `How long before the scheduled time the workflow starts (at most ${MAX_LOOKAHEAD_DAYS} days)`,
				displayOptions: { show: { event: ['upcomingScheduledDraft'] } },
			},
			{
				displayName: 'Unit',
				name: 'notifyUnit',
				type: 'options',
				options: NOTIFY_UNITS.map((unit) => ({ name: unit.label, value: unit.value })),
				default: 'hours',
				displayOptions: { show: { event: ['upcomingScheduledDraft'] } },
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger.call(this);
	}
}
