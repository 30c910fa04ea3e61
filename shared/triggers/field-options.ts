/**
 * The choices and bounds of the trigger events' fields, which the trigger
 * catalogue (trigger-catalogue.ts) shows and the event logic (each event's state module,
 * published-upcoming-state.ts) checks, the platforms they are shown on, and the milestone's
 * checked options with the watch window they make. They sit in a module of
 * their own, which imports nothing, so that the catalogue does not import the
 * event logic: the reads (reads.ts) and the events' polls
 * (events.ts) import both, within the import depth of shared/.
 */

/** The metrics offered in the pickers; any other numeric metric the API returns can be named instead. */
export const MILESTONE_METRICS = [
	{ value: 'comments', label: 'Comments' },
	{ value: 'impressions', label: 'Impressions' },
	{ value: 'likes', label: 'Likes' },
	{ value: 'shares', label: 'Reposts (Shares)' },
] as const;
/** The picker value that asks for a metric by name. */
export const OTHER_METRIC = 'other';

export const DEFAULT_WATCH_DAYS = 7;
export const MAX_WATCH_DAYS = 30;

/** The units of "Notify Me Before", as both platforms offer them. */
export const NOTIFY_UNITS = [
	{ value: 'minutes', label: 'Minutes' },
	{ value: 'hours', label: 'Hours' },
	{ value: 'days', label: 'Days' },
] as const;
export type NotifyUnit = (typeof NOTIFY_UNITS)[number]['value'];

/** Longest "notify me before" window: a month keeps the calendar request small. */
export const MAX_LOOKAHEAD_DAYS = 31;

/** The platforms the trigger events run on; some fields differ between them. */
export type TriggerPlatform = 'n8n' | 'zapier';

/** Post Metric Milestone's options, checked (milestone-state.ts's milestoneConfig). */
export interface MilestoneConfig {
	/** The metric's name (`likes`, `comments`, `shares`, `impressions` or any other). */
	metric: string;
	threshold: number;
	watchDays: number;
}

const DAY_MS = 86_400_000;

/** Start of the watch window: posts published before it are not watched. */
export function windowStart(now: number, config: MilestoneConfig): number {
	return now - config.watchDays * DAY_MS;
}
