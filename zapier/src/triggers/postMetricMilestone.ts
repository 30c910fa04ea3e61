/**
 * New Post Milestone: a published post's chosen metric reaches a threshold.
 * Polls the posts of the watch window (the last N days, at most 30) and
 * returns those at or over the threshold, newest post first, each with
 * `id` = `${postId}:${metric}:${threshold}`. Zapier's dedupe (an id fires
 * once; the first poll only seeds) turns that into "once per post, metric and
 * threshold", never for a post already there when the Zap was turned on, and
 * for a post crossing days after its publication as well.
 */
import { defineTrigger } from '../define';
import type { Bundle, PlainInputField, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../../shared/brand';
import { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, MILESTONE_METRICS, OTHER_METRIC, milestoneCandidates, milestoneConfig, milestoneEvent } from '../../../shared/event-state';
import { readPostsInWindow } from '../../../shared/poll-reader';
import { truncationWarning } from '../../../shared/polling';
import { clientFor } from '../client';
import { withErrors } from '../errors';
import { outputFieldsFor, sampleFor } from '../fields';
import { isoInZone, zoneOf } from '../time';
import { MAX_PAGES, PAGE_SIZE, reportStalled } from './paging';

/** Posts asked per request, and requests per poll at most (an oldest-first list is read whole). */

export const inputFields: PlainInputField[] = [
	{
		key: 'metric',
		label: 'Metric',
		required: true,
		default: 'likes',
		choices: [...MILESTONE_METRICS.map((m) => ({ value: m.value, sample: m.value, label: m.label })), { value: OTHER_METRIC, sample: OTHER_METRIC, label: 'Other Metric' }],
		helpText: 'The engagement metric to watch. Choose "Other Metric" to name any other numeric metric the API returns.',
	},
	{
		key: 'metricName',
		label: 'Other Metric Name',
		required: false,
		placeholder: 'saves',
		helpText: 'Only with "Other Metric": the name of the metric as the API returns it.',
	},
	{
		key: 'threshold',
		label: 'Threshold',
		type: 'number',
		required: true,
		default: '100',
		helpText: 'The Zap runs once per post when the metric reaches this value.',
	},
	{
		key: 'watchDays',
		label: 'Watch Posts of the Last (Days)',
		type: 'integer',
		required: false,
		default: String(DEFAULT_WATCH_DAYS),
		helpText: `Posts published within this many days are watched, at most ${MAX_WATCH_DAYS}.`,
	},
];

const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
	const config = milestoneConfig(bundle.inputData as Record<string, unknown>);
	const zone = zoneOf(bundle.meta);
	const now = Date.now();
	const read = await readPostsInWindow(clientFor(z, bundle), config, now, { pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
	const warning = truncationWarning(read);
	if (warning) z.console.log(`${BRAND.displayName} New Post Milestone: ${warning}`);
	reportStalled(z, 'New Post Milestone', read);
	return milestoneCandidates(read.records, config, now).map((c) => ({ ...milestoneEvent(c, config), publishedAtLocal: isoInZone(c.at, zone) }));
}, inputFields);

const post = sampleFor('listPosts');

export default defineTrigger({
	key: 'postMetricMilestone',
	noun: 'Milestone',
	display: {
		label: 'New Post Milestone',
		description: 'Triggers when a post reaches a metric threshold.',
	},
	operation: {
		type: 'polling',
		inputFields,
		perform,
		sample: {
			...post,
			id: `${String(post.id)}:likes:100`,
			postId: post.id,
			metric: 'likes',
			threshold: 100,
			value: 182,
			publishedAtLocal: '2026-11-20T09:30:00+01:00',
		},
		// The post's own labelled fields come from the catalogue (Get Many Published Posts); the milestone's are added.
		outputFields: [
			{ key: 'id', label: 'Milestone ID (Post, Metric and Threshold)' },
			{ key: 'postId', label: 'Post ID' },
			{ key: 'metric', label: 'Metric' },
			{ key: 'threshold', label: 'Threshold', type: 'number' },
			{ key: 'value', label: 'Metric Value', type: 'number' },
			...outputFieldsFor('listPosts').filter((f) => f.key !== 'id'),
			{ key: 'publishedAtLocal', label: 'Published At (Your Time Zone)', type: 'datetime' },
		],
	},
});
