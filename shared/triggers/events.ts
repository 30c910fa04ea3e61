/**
 * Each trigger event's poll, once for both platforms (TRIGGER_EVENTS, keyed
 * by the trigger catalogue): how it reads, what is new since a kept state
 * (n8n), what the candidates are (Zapier, whose dedupe fires each id once),
 * the output of one event, the test event, and the warnings, as data that
 * each platform reports its own way. It lives here, apart, because this
 * module alone imports both the reads (reads.ts) and each event's state
 * (published-upcoming-state.ts and each event's state module) within the import depth of shared/;
 * no module of shared/ imports it. The reads and the shapes the events give
 * back are re-exported here, where the platforms first found them.
 */
import { BRAND } from '../base';
import { latestScheduledFirst, upcomingItem, upcomingKey } from './calendar-window';
import type { CreditsLowState } from './credits-low-state';
import { creditThreshold, creditsLowHistory, creditsLowOutput, selectCreditsLow } from './credits-low-state';
import { ValidationError } from '../errors';
import type { EventInput, TriggerWarning } from './event-result';
import { SOURCES, selectFromList, stalledWarnings, truncatedWarnings, unreadableWarnings } from './event-result';
import type { PostsRead } from './stamped-reads';
import type { MilestoneState } from './milestone-state';
import { MAX_MILESTONE_POSTS, milestoneCandidates, milestoneConfig, milestoneEvent, selectMilestones } from './milestone-state';
import type { NewDraftState } from './new-draft-state';
import { draftEvent, selectNewDrafts } from './new-draft-state';
import type { TriggerEvent } from './reads';
import { WATERMARK, defineEvent, fetchCredits, fetchNewestDrafts, fetchNewestPosts, readDraftsSince, readPostsInWindow, readPostsSince, readUpcoming, sinceWatermark } from './reads';
import type { UpcomingState } from './published-upcoming-state';
import { MAX_FIRED_KEYS, lookaheadMs, oldestFirst, selectNewPosts, selectUpcoming } from './published-upcoming-state';
import type { MilestoneConfig, NotifyUnit, TriggerPlatform } from './field-options';
import { NOTIFY_UNITS } from './field-options';
import type { TriggerKey } from './trigger-catalogue';
import { unreadableBalance, unreadableMetric } from './unreadable-values';
import type { PostWatermarkState } from './watermark';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** New Published Post: a watermark on publication times; Zapier gets the newest posts, each with its id. */
const newPublishedPost = defineEvent<undefined, PostWatermarkState>({
	...WATERMARK,
	poll: sinceWatermark(readPostsSince, 'post', selectNewPosts, oldestFirst),
	async test(client, _config, { options }) {
		const read = await fetchNewestPosts(client, 1, options);
		const warnings = unreadableWarnings('post', read.unreadable, read.records.length);
		const latest = read.newest[0];
		if (latest) return { warnings, event: latest.record };
		return {
			warnings,
			nothing: {
				message: 'No published post yet',
				description: `Publish a post with ${BRAND.displayName} (or schedule a draft and wait for it), then fetch a test event again. The active workflow will start on posts published after its activation.`,
			},
		};
	},
	async candidates(client, _config, { options, count }) {
		const read = await fetchNewestPosts(client, count, options);
		return {
			warnings: [...unreadableWarnings('post', read.unreadable, read.records.length), ...truncatedWarnings(read, 'post'), ...stalledWarnings(read)],
			events: read.newest.map(({ id, at, record }) => ({ ...record, id, publishedAt: new Date(at).toISOString() })),
		};
	},
});

/** "Notify Me Before", checked; the window's amount and unit name it in the test event's message. */
interface Notice {
	ms: number;
	amount: number;
	unit: NotifyUnit;
}

const UNITS: readonly string[] = NOTIFY_UNITS.map((unit) => unit.value);

/**
 * The notice as each platform was published: n8n reads any number and its
 * unit as given (the core refuses a non-positive or over-long window, naming
 * "notifyBefore"); Zapier, whose fields are free text, wants a whole number
 * and one of the units, and defaults to 60 minutes.
 */
function noticeOf(input: EventInput, platform: TriggerPlatform): Notice {
	if (platform === 'n8n') {
		const amount = Number(input.notifyBefore);
		const unit = input.notifyBeforeUnit as NotifyUnit;
		return { ms: lookaheadMs(amount, unit), amount, unit };
	}
	const raw = input.notifyBefore ?? 60;
	const amount = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	const unit = (typeof input.notifyBeforeUnit === 'string' && input.notifyBeforeUnit !== '' ? input.notifyBeforeUnit : 'minutes') as NotifyUnit;
	if (!UNITS.includes(unit)) throw new ValidationError('notifyBeforeUnit', `must be one of ${UNITS.join(', ')}, got "${unit}".`);
	if (!Number.isInteger(amount) || amount < 1) {
		throw new ValidationError('notifyBefore', `must be a whole number of ${unit} of at least 1, got ${JSON.stringify(raw)}.`);
	}
	return { ms: lookaheadMs(amount, unit), amount, unit }; // the core bounds it (MAX_LOOKAHEAD_MS)
}

/**
 * Upcoming Scheduled Draft: once per draft and scheduled time within the
 * notice (`${draftId}:${scheduledAt}`, so a rescheduled draft fires again).
 * Zapier reads the days of the window in the user's zone as well as in UTC.
 */
const upcomingScheduledDraft = defineEvent<Notice, UpcomingState>({
	config: noticeOf,
	async poll(client, notice, kept, { now }) {
		const read = await readUpcoming(client, now, notice.ms);
		const warnings = unreadableWarnings('calendarEntry', read.unreadable, read.total);
		const { fresh, state, overflowed } = selectUpcoming(read.entries, kept ?? {}, now, notice.ms);
		if (overflowed) {
			warnings.push({
				kind: 'overflow',
				message: `more than ${MAX_FIRED_KEYS} drafts are scheduled within the notice; the trigger remembers the latest ${MAX_FIRED_KEYS}, and a draft newly scheduled before them will not fire. Shorten "Notify Me Before".`,
			});
		}
		return { warnings, events: fresh.map((entry) => upcomingItem(entry, now)), state };
	},
	async test(client, notice, { now }) {
		const read = await readUpcoming(client, now, notice.ms);
		const warnings = unreadableWarnings('calendarEntry', read.unreadable, read.total);
		const soonest = read.entries[0];
		if (soonest) return { warnings, event: upcomingItem(soonest, now) };
		const window = `${notice.amount} ${notice.amount === 1 ? notice.unit.replace(/s$/, '') : notice.unit}`;
		return {
			warnings,
			nothing: {
				message: `No draft is scheduled in the next ${window}`,
				description: `Schedule a draft within that window (${BRAND.displayName} › Draft › Create, with 'Schedule At'), or raise 'Notify Me Before', then fetch a test event again.`,
			},
		};
	},
	async candidates(client, notice, { now, zone }) {
		const read = await readUpcoming(client, now, notice.ms, zone);
		return {
			warnings: unreadableWarnings('calendarEntry', read.unreadable, read.total),
			events: latestScheduledFirst(read.entries).map((entry) => {
				const at = Date.parse(entry.date);
				return {
					id: upcomingKey(entry),
					draftId: entry.draftId ?? entry.id,
					text: entry.text ?? '',
					scheduledAt: new Date(at).toISOString(),
					// Its place in the output: Zapier fills in the time in the user's zone (the declaration's zapier.localTimes).
					scheduledAtLocal: null,
					timezone: zone,
					minutesUntil: Math.max(0, Math.round((at - now) / 60_000)),
				};
			}),
		};
	},
});

/** What a milestone's read met that the user should know: posts without an id or a time, a metric no post carries. */
function milestoneWarnings(read: PostsRead, config: MilestoneConfig): TriggerWarning[] {
	return [...unreadableWarnings('post', read.unreadable, read.records.length), ...unreadableMetric(config.metric, read.records, SOURCES.post)];
}

/** Post Metric Milestone: once per post, metric and threshold, for the posts of the watch window. */
const postMetricMilestone = defineEvent<MilestoneConfig, MilestoneState>({
	config: (input) => milestoneConfig(input),
	async poll(client, config, kept, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		return selectFromList(read, 'post', () => {
			const { fresh, state, overflowed } = selectMilestones(read.records, kept ?? {}, config, now);
			const warnings: TriggerWarning[] = unreadableMetric(config.metric, read.records, SOURCES.post);
			if (overflowed) {
				warnings.push({
					kind: 'overflow',
					message: `more than ${MAX_MILESTONE_POSTS} posts of the watch window reached the threshold; the oldest are remembered only by their date, and an older post reaching it later will not fire. Shorten the watch window.`,
				});
			}
			// Oldest post first, as New Published Post emits.
			return { events: [...fresh].reverse().map((c) => milestoneEvent(c, config)), state, warnings };
		});
	},
	async test(client, config, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		const warnings = milestoneWarnings(read, config);
		const latest = milestoneCandidates(read.records, config, now)[0];
		if (latest) return { warnings, event: milestoneEvent(latest, config) };
		return {
			warnings,
			nothing: {
				message: `No post of the last ${plural(config.watchDays, 'day')} has ${config.threshold} ${config.metric} or more`,
				description: `Lower 'Threshold' or widen the watch window to see a test event. The active workflow starts when a post reaches the threshold after its activation; posts already there never start it.`,
			},
		};
	},
	async candidates(client, config, { now, options }) {
		const read = await readPostsInWindow(client, config, now, options);
		return {
			warnings: [...milestoneWarnings(read, config), ...truncatedWarnings(read, 'post'), ...stalledWarnings(read)],
			events: milestoneCandidates(read.records, config, now).map((c) => milestoneEvent(c, config)),
		};
	},
});

/** New Draft: a watermark on creation times, whichever route created the draft. */
const newDraft = defineEvent<undefined, NewDraftState>({
	...WATERMARK,
	poll: sinceWatermark(readDraftsSince, 'draft', selectNewDrafts, (fresh) => [...fresh].reverse().map(draftEvent)),
	async test(client, _config, { options }) {
		const read = await fetchNewestDrafts(client, 1, options);
		const warnings = unreadableWarnings('draft', read.unreadable, read.records.length);
		const latest = read.newest[0];
		if (latest) return { warnings, event: draftEvent(latest) };
		return {
			warnings,
			nothing: {
				message: 'No draft yet',
				description: `Create a draft (${BRAND.displayName} › Draft › Create, or Generate with 'Save as Draft'), then fetch a test event again.`,
			},
		};
	},
	async candidates(client, _config, { options, count }) {
		const read = await fetchNewestDrafts(client, count, options);
		return { warnings: [...unreadableWarnings('draft', read.unreadable, read.records.length), ...stalledWarnings(read)], events: read.newest.map(draftEvent) };
	},
});

/** Credits Low events returned to Zapier per poll at most (the newest). */
export const CREDITS_LOW_POLL_COUNT = 100;

/**
 * Credits Low: each transaction that took the balance from at least the
 * threshold to below it (`${transactionId}:${threshold}`); when the history
 * does not show the fall, the balance below the threshold is one event.
 */
const creditsLow = defineEvent<number, CreditsLowState>({
	config: (input) => creditThreshold(input.threshold),
	async poll(client, threshold, kept, { now }) {
		const credits = await fetchCredits(client);
		const { fresh, state } = selectCreditsLow(credits, kept ?? {}, threshold, now);
		return { warnings: unreadableBalance(credits, SOURCES.credits), events: [...fresh].reverse().map((e) => creditsLowOutput(e, credits, threshold, now)), state };
	},
	async test(client, threshold, { now }) {
		const credits = await fetchCredits(client);
		const warnings = unreadableBalance(credits, SOURCES.credits);
		const latest = creditsLowHistory(credits, threshold)[0];
		if (latest) return { warnings, event: creditsLowOutput(latest, credits, threshold, now) };
		if (typeof credits.balance === 'number' && credits.balance < threshold) {
			return { warnings, event: creditsLowOutput({ id: `balance:${threshold}:${new Date(now).toISOString()}` }, credits, threshold, now) };
		}
		return {
			warnings,
			nothing: {
				message: `The balance (${String(credits.balance)} credits) is not below ${threshold}, and the history shows no fall below it`,
				description: `Raise 'Threshold' above the balance to see a test event. The active workflow starts when the balance falls below the threshold after its activation.`,
			},
		};
	},
	async candidates(client, threshold, { now }) {
		const credits = await fetchCredits(client);
		let events = creditsLowHistory(credits, threshold).slice(0, CREDITS_LOW_POLL_COUNT);
		if (events.length === 0 && typeof credits.balance === 'number' && credits.balance < threshold) events = [{ id: `below:${threshold}` }];
		return { warnings: unreadableBalance(credits, SOURCES.credits), events: events.map((e) => creditsLowOutput(e, credits, threshold, now)) };
	},
});

/** Each event of the trigger catalogue, keyed by it: an event left out does not compile. */
export const TRIGGER_EVENTS: Readonly<Record<TriggerKey, TriggerEvent>> = { newPublishedPost, upcomingScheduledDraft, postMetricMilestone, newDraft, creditsLow };
