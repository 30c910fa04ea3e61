import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { BRAND } from '../../shared/brand';
import { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, OTHER_METRIC } from '../../shared/event-state';
import { MAX_LOOKAHEAD_DAYS, NOTIFY_UNITS } from '../../shared/polling';
import { pollTrigger } from './poll';

export class PostWriterTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: `${BRAND.displayName} Trigger`,
		name: BRAND.n8nTriggerName,
		icon: { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["event"] === "creditsLow" ? "Credits Low" : $parameter["event"] === "newDraft" ? "New Draft" : $parameter["event"] === "postMetricMilestone" ? "Post Metric Milestone" : $parameter["event"] === "upcomingScheduledDraft" ? "Upcoming Scheduled Draft" : "New Published Post" }}',
		description: 'Starts the workflow when a post is published or reaches a milestone, a draft is created or comes near, or credits run low',
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
						name: 'Credits Low',
						value: 'creditsLow',
						description: "Once each time the credit balance falls below 'Threshold'; again after it has gone back up",
					},
					{
						name: 'New Draft',
						value: 'newDraft',
						description: 'Once per draft created after the workflow is activated, by any route, with its status and scheduled time',
					},
					{
						name: 'New Published Post',
						value: 'newPublishedPost',
						description: 'Once per post published after the workflow is activated, with its metrics',
					},
					{
						name: 'Post Metric Milestone',
						value: 'postMetricMilestone',
						description: "Once per post when its chosen metric reaches 'Threshold', days after publication too",
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
			{
				displayName: 'Metric',
				name: 'metric',
				type: 'options',
				// The values of MILESTONE_METRICS (a test checks they agree), written out for n8n's lint.
				options: [
					{ name: 'Comments', value: 'comments' },
					{ name: 'Impressions', value: 'impressions' },
					{ name: 'Likes', value: 'likes' },
					{ name: 'Other Metric', value: 'other', description: "Any other numeric metric the API returns, named in 'Metric Name'" },
					{ name: 'Reposts (Shares)', value: 'shares' },
				],
				default: 'likes',
				description: 'The engagement metric to watch',
				displayOptions: { show: { event: ['postMetricMilestone'] } },
			},
			{
				displayName: 'Metric Name',
				name: 'metricName',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. saves',
				description: 'The name of the metric as the API returns it',
				displayOptions: { show: { event: ['postMetricMilestone'], metric: [OTHER_METRIC] } },
			},
			{
				displayName: 'Threshold',
				name: 'threshold',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 100,
				description: 'The workflow starts once per post when the metric reaches this value',
				displayOptions: { show: { event: ['postMetricMilestone'] } },
			},
			{
				displayName: 'Watch Posts of the Last (Days)',
				name: 'watchDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WATCH_DAYS, numberPrecision: 0 },
				default: DEFAULT_WATCH_DAYS,
				description: `Posts published in this many days are watched (at most ${MAX_WATCH_DAYS}); older posts are forgotten`,
				displayOptions: { show: { event: ['postMetricMilestone'] } },
			},
			{
				displayName: 'Threshold',
				name: 'threshold',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 10,
				description: 'The workflow starts when the credit balance falls below this number of credits',
				displayOptions: { show: { event: ['creditsLow'] } },
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger.call(this);
	}
}
