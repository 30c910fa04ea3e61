/**
 * Post Metric Milestone's state, pure functions of what was read and what was
 * kept, shared by both platforms: it keeps the posts of the watch window whose
 * metric has reached the threshold (fired, or already there at activation),
 * and forgets each one once it leaves the window. A composite id names each
 * event (`${postId}:${metric}:${threshold}`): the Zapier trigger returns these
 * ids and Zapier's dedupe does the once-only part; the n8n trigger keeps the
 * state below. The checked options and the watch window are in
 * field-options.ts, where the reads can use them too.
 */
import { ValidationError } from '../errors';
import { metricValue, readPost } from '../records';
import type { MilestoneConfig } from './field-options';
import { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, OTHER_METRIC, windowStart } from './field-options';
import type { Obj } from '../base';
import type { Stamped } from './watermark';
import { firstId, firstTime, numeric } from './watermark';

/** The options as the user gave them, checked; errors name the field. */
export function milestoneConfig(input: { metric?: unknown; metricName?: unknown; threshold?: unknown; watchDays?: unknown }): MilestoneConfig {
	const picked = typeof input.metric === 'string' && input.metric.trim() !== '' ? input.metric.trim() : 'likes';
	let metric = picked;
	if (picked === OTHER_METRIC) {
		metric = typeof input.metricName === 'string' ? input.metricName.trim() : '';
		if (!metric) throw new ValidationError('metricName', 'give the name of the metric to watch as the API returns it (e.g. saves), or its path in the post (e.g. public_metrics.like_count).');
	}
	const threshold = numeric(input.threshold);
	if (threshold === undefined || threshold <= 0) throw new ValidationError('threshold', `must be a number above 0, got ${JSON.stringify(input.threshold ?? null)}.`);
	const rawDays = input.watchDays === undefined || input.watchDays === '' ? DEFAULT_WATCH_DAYS : numeric(input.watchDays);
	if (rawDays === undefined || !Number.isInteger(rawDays) || rawDays < 1 || rawDays > MAX_WATCH_DAYS) {
		throw new ValidationError('watchDays', `must be a whole number of days from 1 to ${MAX_WATCH_DAYS}, got ${JSON.stringify(input.watchDays)}.`);
	}
	return { metric, threshold, watchDays: rawDays };
}

/** The event id: Zapier's dedupe key and n8n's output `id`. */
export function milestoneId(postId: string, config: MilestoneConfig): string {
	return `${postId}:${config.metric}:${config.threshold}`;
}

export interface MilestoneCandidate {
	/** The composite id. */
	id: string;
	postId: string;
	/** Publication time (ms). */
	at: number;
	value: number;
	record: Obj;
}

/** A post's id and publication time (tolerant of their spelling). */
export function stampPost(record: Obj): Stamped | undefined {
	// The core's post reader (post-records.ts) knows every spelling, metrics included (reposts → shares).
	const post = readPost(record) as unknown as Obj;
	const id = firstId(post, ['id', 'postId', 'post_id']);
	const at = firstTime(post, ['publishedAt', 'published_at', 'publishDate', 'date', 'createdAt']);
	return id === undefined || at === undefined ? undefined : { id, at, record: post };
}

/** The posts of the watch window whose metric is at or over the threshold, newest first. */
export function milestoneCandidates(records: Obj[], config: MilestoneConfig, now: number): MilestoneCandidate[] {
	const since = windowStart(now, config);
	const out: MilestoneCandidate[] = [];
	const seen = new Set<string>();
	for (const r of records) {
		const s = stampPost(r);
		if (!s || s.at < since || seen.has(s.id)) continue;
		seen.add(s.id);
		const value = metricValue(r, config.metric);
		if (value === undefined || value < config.threshold) continue;
		out.push({ id: milestoneId(s.id, config), postId: s.id, at: s.at, value, record: r });
	}
	return out.sort((a, b) => b.at - a.at || (a.postId < b.postId ? 1 : a.postId > b.postId ? -1 : 0));
}

export interface MilestoneState {
	/** `${metric}:${threshold}:${watchDays}` the state was made for; another one starts afresh (nothing fires for what is already there). */
	config?: string;
	/** Post id → publication time (ms) of the posts at or over the threshold already (fired, or there at activation). */
	reached?: Record<string, number>;
	/** Set only after `reached` overflowed: posts published at or before this time count as reached. */
	reachedThrough?: number;
}

/** Posts remembered at most (~30 KB of JSON); beyond, the oldest are folded into `reachedThrough`. */
export const MAX_MILESTONE_POSTS = 1000;

function configKey(config: MilestoneConfig): string {
	return `${config.metric}:${config.threshold}:${config.watchDays}`;
}

/**
 * The milestones to fire (newest post first) and the next state. The first
 * poll, or the first after the options changed, only records the posts already
 * at the threshold. Posts that left the window are forgotten.
 */
export function selectMilestones(
	records: Obj[],
	state: MilestoneState,
	config: MilestoneConfig,
	now: number,
): { fresh: MilestoneCandidate[]; state: MilestoneState; overflowed: boolean } {
	const candidates = milestoneCandidates(records, config, now);
	const since = windowStart(now, config);
	const key = configKey(config);
	const fresh: MilestoneCandidate[] = [];
	const reached: Record<string, number> = {};
	let through: number | undefined;
	if (state.config === key) {
		for (const [id, at] of Object.entries(state.reached ?? {})) if (at >= since) reached[id] = at;
		through = state.reachedThrough !== undefined && state.reachedThrough >= since ? state.reachedThrough : undefined;
		for (const c of candidates) {
			if (c.postId in reached || (through !== undefined && c.at <= through)) continue;
			fresh.push(c);
		}
	}
	for (const c of candidates) reached[c.postId] = c.at;
	const ids = Object.keys(reached);
	const overflowed = ids.length > MAX_MILESTONE_POSTS;
	if (overflowed) {
		ids.sort((a, b) => reached[a] - reached[b]);
		for (const id of ids.slice(0, ids.length - MAX_MILESTONE_POSTS)) {
			through = Math.max(through ?? -Infinity, reached[id]);
			delete reached[id];
		}
	}
	const next: MilestoneState = through === undefined ? { config: key, reached } : { config: key, reached, reachedThrough: through };
	return { fresh, state: next, overflowed };
}

/** What both platforms output for a milestone: the post, and the milestone's id, metric, threshold and value. */
export function milestoneEvent(c: MilestoneCandidate, config: MilestoneConfig): Obj & { id: string } {
	return {
		...c.record,
		id: c.id,
		postId: c.postId,
		publishedAt: new Date(c.at).toISOString(),
		metric: config.metric,
		threshold: config.threshold,
		value: c.value,
	};
}
