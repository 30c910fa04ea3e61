/**
 * The trigger catalogue: every trigger event declared once, beside the
 * operation catalogue. Its key, names, what it reads, its input fields (with
 * their limits and options), a sample and the labelled output fields live
 * here; the n8n trigger's parameters and each Zapier trigger's input fields,
 * sample and output fields derive from it. What an event does is pure logic
 * in published-upcoming-state.ts and each event's state module, and how it polls is its entry in
 * TRIGGER_EVENTS (events.ts); each platform runs every entry the same way.
 *
 * Names, values and keys are stored in users' workflows and Zaps. Where the
 * two platforms were published with other ones (n8n's `notifyAmount`, Zapier's
 * `notifyBefore`), or with other words, the field says so under `n8n` or
 * `zapier`: those are kept, not unified.
 */
import type { FieldOption, OperationKey, OutputField } from '../catalogue/definitions';
import { OPERATIONS } from '../catalogue/definitions';
import { DEFAULT_WATCH_DAYS, MAX_LOOKAHEAD_DAYS, MAX_WATCH_DAYS, MILESTONE_METRICS, NOTIFY_UNITS, OTHER_METRIC, type TriggerPlatform } from './field-options';

/** What one platform shows otherwise than the declaration. */
export interface TriggerFieldWords {
	/** The n8n parameter name or Zapier input key it was published with. */
	readonly name?: string;
	readonly label?: string;
	/** `null`: the platform shows no description. */
	readonly description?: string | null;
	readonly default?: string | number;
}

export interface TriggerFieldSpec {
	/** The n8n parameter name and the Zapier input key (unless a platform has its own). */
	readonly name: string;
	readonly label: string;
	/** One sentence. `{runs}` stands for what the event starts: "the workflow starts" (n8n), "the Zap runs" (Zapier). */
	readonly description: string;
	/** `string` with `options` is a fixed choice. */
	readonly type: 'string' | 'integer' | 'number';
	/** The event needs a value (a field shown only with another's value is needed only then). */
	readonly required?: boolean;
	readonly default?: string | number;
	readonly min?: number;
	readonly max?: number;
	/** An example value, without "e.g.". */
	readonly placeholder?: string;
	readonly options?: readonly FieldOption[];
	/** The options are a scale (minutes, hours, days): kept in their order, not sorted by name. */
	readonly ordered?: boolean;
	/** The field applies only when another field of the event holds one of these values. */
	readonly onlyWith?: { readonly field: string; readonly values: readonly string[] };
	readonly n8n?: TriggerFieldWords;
	readonly zapier?: TriggerFieldWords;
}

export interface TriggerSpec {
	readonly key: string;
	/** Display name: n8n's event option and Zapier's label (unless `zapier.label`). */
	readonly name: string;
	/** How often it fires, one sentence (n8n's event picker). */
	readonly fires: string;
	/** What it waits for, "Triggers when …" (Zapier's help text). */
	readonly description: string;
	/** Zapier's noun, one word. */
	readonly noun: string;
	/** The operation it reads: its errors name it. */
	readonly reads: OperationKey;
	readonly fields: readonly TriggerFieldSpec[];
	/** A realistic event as the Zapier trigger returns it (its `id` is the dedupe key). */
	readonly sample: Record<string, unknown>;
	/** Labelled output fields, for Zapier's outputFields and docs. */
	readonly outputFields: readonly OutputField[];
	readonly zapier?: {
		readonly label?: string;
		/** Time fields of the output that Zapier gives a twin `<field>Local` in the user's zone (Zapier's bundle.meta.timezone). */
		readonly localTimes?: readonly string[];
	};
}

const POST = OPERATIONS.listPosts;
const DRAFT = OPERATIONS.listDrafts;
const SAMPLE_TX = { id: 'tx_57', amount: -1, operation: 'generate', balanceAfter: 9, createdAt: '2026-11-21T09:00:00.000Z' };

/** The threshold of Post Metric Milestone and Credits Low: one name, label and bound; each event has its own default and words. */
const THRESHOLD = { name: 'threshold', label: 'Threshold', type: 'number', required: true, min: 1 } as const;

export const TRIGGERS = {
	newPublishedPost: {
		key: 'newPublishedPost',
		name: 'New Published Post',
		fires: 'Once per post published after the workflow is activated, with its metrics.',
		description: 'Triggers when a post is published, with its metrics.',
		noun: 'Post',
		reads: 'listPosts',
		zapier: { localTimes: ['publishedAt'] },
		fields: [],
		sample: { ...POST.sample, publishedAtLocal: '2026-11-20T09:30:00+01:00' },
		outputFields: [
			...POST.outputFields,
			{ key: 'publishedAtLocal', label: 'Published At (Your Time Zone)', type: 'datetime' },
			{ key: 'draftId', label: 'Draft ID' },
		],
	},
	upcomingScheduledDraft: {
		key: 'upcomingScheduledDraft',
		name: 'Upcoming Scheduled Draft',
		fires: "Once per scheduled draft when its time comes within 'Notify Me Before'; again if it is rescheduled.",
		description: 'Triggers when a scheduled draft is due for publication soon.',
		noun: 'Draft',
		reads: 'getCalendar',
		zapier: { localTimes: ['scheduledAt'] },
		fields: [
			{
				name: 'notifyBefore',
				label: 'Notify Me Before',
				description: `How long before the scheduled time {runs}, in the unit below (at most ${MAX_LOOKAHEAD_DAYS} days).`,
				type: 'integer',
				required: true,
				default: 60,
				min: 1,
				// One hour either way.
				n8n: { name: 'notifyAmount', default: 1, description: `How long before the scheduled time {runs} (at most ${MAX_LOOKAHEAD_DAYS} days).` },
			},
			{
				name: 'notifyBeforeUnit',
				label: 'Unit',
				description: 'The unit of Notify Me Before.',
				type: 'string',
				required: true,
				default: 'minutes',
				options: NOTIFY_UNITS,
				ordered: true,
				n8n: { name: 'notifyUnit', default: 'hours', description: null },
			},
		],
		sample: {
			id: `${DRAFT.sample.id}:${DRAFT.sample.scheduledAt}`,
			draftId: DRAFT.sample.id,
			text: DRAFT.sample.text,
			scheduledAt: DRAFT.sample.scheduledAt,
			scheduledAtLocal: '2026-11-24T09:30:00+01:00',
			timezone: 'Europe/Paris',
			minutesUntil: 45,
		},
		outputFields: [
			{ key: 'id', label: 'Event ID (Draft and Time)' },
			...DRAFT.outputFields.filter((f) => f.key === 'text' || f.key === 'scheduledAt'),
			{ key: 'draftId', label: 'Draft ID' },
			{ key: 'scheduledAtLocal', label: 'Scheduled At (Your Time Zone)', type: 'datetime' },
			{ key: 'timezone', label: 'Time Zone' },
			{ key: 'minutesUntil', label: 'Minutes Until Publication', type: 'integer' },
		],
	},
	postMetricMilestone: {
		key: 'postMetricMilestone',
		name: 'Post Metric Milestone',
		fires: "Once per post when its chosen metric reaches 'Threshold', days after publication too.",
		description: 'Triggers when a post reaches a metric threshold.',
		noun: 'Milestone',
		reads: 'listPosts',
		zapier: { label: 'New Post Milestone', localTimes: ['publishedAt'] },
		fields: [
			{
				name: 'metric',
				label: 'Metric',
				description: 'The engagement metric to watch.',
				type: 'string',
				required: true,
				default: 'likes',
				options: [
					...MILESTONE_METRICS,
					{ value: OTHER_METRIC, label: 'Other Metric', description: "Any other numeric metric the API returns, named in 'Metric Name'." },
				],
				zapier: { description: 'The engagement metric to watch. Choose "Other Metric" to name any other numeric metric the API returns.' },
			},
			{
				name: 'metricName',
				label: 'Metric Name',
				description: 'The name of the metric as the API returns it, or its path in the post (public_metrics.like_count).',
				type: 'string',
				required: true,
				placeholder: 'saves',
				onlyWith: { field: 'metric', values: [OTHER_METRIC] },
				zapier: { label: 'Other Metric Name' },
			},
			{ ...THRESHOLD, description: '{runs} once per post when the metric reaches this value.', default: 100 },
			{
				name: 'watchDays',
				label: 'Watch Posts of the Last (Days)',
				description: `Posts published within this many days are watched, at most ${MAX_WATCH_DAYS}.`,
				type: 'integer',
				default: DEFAULT_WATCH_DAYS,
				min: 1,
				max: MAX_WATCH_DAYS,
				n8n: { description: `Posts published in this many days are watched (at most ${MAX_WATCH_DAYS}); older posts are forgotten.` },
			},
		],
		sample: {
			...POST.sample,
			id: `${POST.sample.id}:likes:100`,
			postId: POST.sample.id,
			metric: 'likes',
			threshold: 100,
			value: 182,
			publishedAtLocal: '2026-11-20T09:30:00+01:00',
		},
		// The post's own labelled fields are Get Many Published Posts'; the milestone's come first.
		outputFields: [
			{ key: 'id', label: 'Milestone ID (Post, Metric and Threshold)' },
			{ key: 'postId', label: 'Post ID' },
			{ key: 'metric', label: 'Metric' },
			{ key: 'threshold', label: 'Threshold', type: 'number' },
			{ key: 'value', label: 'Metric Value', type: 'number' },
			...POST.outputFields.filter((f) => f.key !== 'id'),
			{ key: 'publishedAtLocal', label: 'Published At (Your Time Zone)', type: 'datetime' },
		],
	},
	newDraft: {
		key: 'newDraft',
		name: 'New Draft',
		fires: 'Once per draft created after the workflow is activated, by any route, with its status and scheduled time.',
		description: 'Triggers when a draft is created.',
		noun: 'Draft',
		reads: 'listDrafts',
		zapier: { localTimes: ['createdAt', 'scheduledAt'] },
		fields: [],
		sample: { ...DRAFT.sample, draftId: DRAFT.sample.id, createdAtLocal: '2026-11-21T10:00:00+01:00', scheduledAtLocal: '2026-11-24T09:30:00+01:00' },
		outputFields: [
			...DRAFT.outputFields,
			{ key: 'createdAtLocal', label: 'Created At (Your Time Zone)', type: 'datetime' },
			{ key: 'scheduledAtLocal', label: 'Scheduled At (Your Time Zone)', type: 'datetime' },
		],
	},
	creditsLow: {
		key: 'creditsLow',
		name: 'Credits Low',
		fires: "Once each time the credit balance falls below 'Threshold'; again after it has gone back up.",
		description: 'Triggers when the credit balance falls below a threshold.',
		noun: 'Balance',
		reads: 'getCredits',
		zapier: { label: 'Low Credit Balance', localTimes: ['crossedAt'] },
		fields: [{ ...THRESHOLD, description: '{runs} when the credit balance falls below this number of credits.', default: 10 }],
		sample: {
			id: `${SAMPLE_TX.id}:10`,
			balance: 9,
			threshold: 10,
			below: true,
			balanceAfterCrossing: 9,
			crossedAt: SAMPLE_TX.createdAt,
			crossedAtLocal: '2026-11-21T10:00:00+01:00',
			transactionId: SAMPLE_TX.id,
			transaction: SAMPLE_TX,
			latestTransactions: [SAMPLE_TX, { id: 'tx_56', amount: -1, operation: 'rewrite', balanceAfter: 10, createdAt: '2026-11-21T08:40:00.000Z' }],
		},
		outputFields: [
			{ key: 'id', label: 'Event ID (Transaction and Threshold)' },
			{ key: 'balance', label: 'Credit Balance', type: 'number' },
			{ key: 'threshold', label: 'Threshold', type: 'number' },
			{ key: 'below', label: 'Still Below Threshold', type: 'boolean' },
			{ key: 'balanceAfterCrossing', label: 'Balance After the Fall', type: 'number' },
			{ key: 'crossedAt', label: 'Fell Below At', type: 'datetime' },
			{ key: 'crossedAtLocal', label: 'Fell Below At (Your Time Zone)', type: 'datetime' },
			{ key: 'transactionId', label: 'Transaction ID' },
			{ key: 'transaction__operation', label: 'Transaction Operation' },
			{ key: 'transaction__amount', label: 'Transaction Amount', type: 'number' },
			{ key: 'latestTransactions[]operation', label: 'Latest Transactions Operation' },
			{ key: 'latestTransactions[]amount', label: 'Latest Transactions Amount', type: 'number' },
			{ key: 'latestTransactions[]createdAt', label: 'Latest Transactions Date', type: 'datetime' },
		],
	},
} as const satisfies Record<string, TriggerSpec>;

export type TriggerKey = keyof typeof TRIGGERS;
/** In declaration order; the first is the n8n trigger's default event. */
export const TRIGGER_KEYS = Object.keys(TRIGGERS) as TriggerKey[];

export function getTrigger(key: TriggerKey): TriggerSpec {
	return TRIGGERS[key];
}

/** A field as one platform shows it: its name, label, description (`undefined`: none) and default. */
export interface PlatformField {
	readonly name: string;
	readonly label: string;
	readonly description: string | undefined;
	readonly default: string | number | undefined;
}

/** What an event starts, in the platform's words, put in place of `{runs}`. */
const RUNS: Readonly<Record<TriggerPlatform, string>> = { n8n: 'the workflow starts', zapier: 'the Zap runs' };

export function platformField(field: TriggerFieldSpec, platform: TriggerPlatform): PlatformField {
	const words = field[platform] ?? {};
	const text = words.description === null ? undefined : (words.description ?? field.description);
	return {
		name: words.name ?? field.name,
		label: words.label ?? field.label,
		description: text?.replace('{runs}', RUNS[platform]).replace(/^./, (c) => c.toUpperCase()),
		default: words.default ?? field.default,
	};
}
