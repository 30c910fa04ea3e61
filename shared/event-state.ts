/**
 * Polling state for the three later trigger events, pure functions of what
 * was read and what was kept, shared by both platforms (the first two events
 * are in polling.ts; the reads of all five are in poll-reader.ts):
 *
 * - New Draft keeps a watermark on the drafts' creation time plus the ids
 *   created at exactly that time (as New Published Post does on publication).
 * - Post Metric Milestone keeps the posts of the watch window whose metric has
 *   reached the threshold (fired, or already there at activation), and forgets
 *   each one once it leaves the window.
 * - Credits Low keeps a watermark on the credit transactions and whether the
 *   balance was below the threshold; a crossing is a transaction that took the
 *   balance from at least the threshold to below it, so a fall and a recovery
 *   between two polls still fires once.
 *
 * A composite id names each event (`${postId}:${metric}:${threshold}`,
 * `${transactionId}:${threshold}`): the Zapier triggers return these ids and
 * Zapier's dedupe does the once-only part; the n8n trigger keeps the state
 * below. This module does not import polling.ts (the import depth of shared/
 * is bounded), so the watermark is written again here, generic in its time.
 */
import { ValidationError } from './errors';
import { metricValue, readCredits, readDraft, readPost } from './records';
import { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, OTHER_METRIC } from './trigger-options';
import type { CreditTransaction, CreditsOutput } from './types';
import type { Obj } from './values';
import { isObj } from './values';

// A post's metric by the name the user gave, and the milestone's choices and bounds, where they were first exported.
export { metricValue } from './records';
export { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, MILESTONE_METRICS, OTHER_METRIC } from './trigger-options';

// ---------------------------------------------------------------------------
// Times, ids and a generic watermark

/** A time as the API may send it: ISO 8601, or epoch seconds or milliseconds. */
export function timeOf(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e11 ? value * 1000 : value;
	if (typeof value === 'string' && value.trim() !== '') {
		if (/^\d+$/.test(value.trim())) return timeOf(Number(value.trim()));
		const ms = Date.parse(value);
		return Number.isNaN(ms) ? undefined : ms;
	}
	return undefined;
}

function firstTime(record: Obj, keys: readonly string[]): number | undefined {
	for (const k of keys) {
		const t = timeOf(record[k]);
		if (t !== undefined) return t;
	}
	return undefined;
}

function firstId(record: Obj, keys: readonly string[]): string | undefined {
	for (const k of keys) {
		const v = record[k];
		if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v))) return String(v);
	}
	return undefined;
}

/** A record with the id and time the state needs. */
export interface Stamped {
	id: string;
	at: number;
	record: Obj;
}

export interface WatermarkState {
	/** Set once the first poll has run: what existed then never fires. */
	initialised?: boolean;
	/** ISO time of the newest record seen. */
	watermark?: string;
	/** Ids at exactly `watermark`. */
	idsAtWatermark?: string[];
}

/** Ids kept at one instant, at most (a record created in the same millisecond as more than that many others may fire twice; none is missed). */
export const MAX_IDS_AT_WATERMARK = 100;

/** Newest first, ties by id descending (stable whatever the API's order). */
export function newestFirst(items: Stamped[]): Stamped[] {
	return [...items].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The stamped records newer than the watermark (newest first) and the next state; the first call only records the watermark. */
export function selectSince(stamped: Stamped[], state: WatermarkState): { fresh: Stamped[]; state: WatermarkState } {
	const items = newestFirst(stamped);
	const top = items[0];
	if (!state.initialised) {
		if (!top) return { fresh: [], state: { initialised: true } };
		const ids = items.filter((i) => i.at === top.at).map((i) => i.id);
		return { fresh: [], state: { initialised: true, watermark: new Date(top.at).toISOString(), idsAtWatermark: ids.slice(-MAX_IDS_AT_WATERMARK) } };
	}
	const w = state.watermark ? Date.parse(state.watermark) : -Infinity;
	const seen = new Set(state.idsAtWatermark ?? []);
	const fresh = items.filter((i) => i.at > w || (i.at === w && !seen.has(i.id)));
	if (fresh.length === 0) return { fresh: [], state };
	const newest = fresh[0].at;
	const atNewest = fresh.filter((i) => i.at === newest).map((i) => i.id);
	const ids = newest === w ? [...(state.idsAtWatermark ?? []), ...atNewest] : atNewest;
	return {
		fresh,
		state: { initialised: true, watermark: new Date(Math.max(newest, w)).toISOString(), idsAtWatermark: [...new Set(ids)].slice(-MAX_IDS_AT_WATERMARK) },
	};
}

// ---------------------------------------------------------------------------
// New Draft

const DRAFT_ID_KEYS = ['id', 'draftId', 'draft_id'] as const;
const DRAFT_CREATED_KEYS = ['createdAt', 'created_at', 'creationDate', 'created'] as const;

/** A draft's id and creation time, or undefined when either is missing. */
export function stampDraft(record: Obj): Stamped | undefined {
	// The core's draft reader (records.ts) knows every spelling; the raw keys stay a fallback.
	const draft = readDraft(record) as unknown as Obj;
	const id = firstId(draft, DRAFT_ID_KEYS);
	const at = firstTime(draft, DRAFT_CREATED_KEYS);
	return id === undefined || at === undefined ? undefined : { id, at, record: draft };
}

/** Drafts with an id and a creation time, in the order given, and how many lacked one. */
export function stampDrafts(records: Obj[]): { stamped: Stamped[]; unstamped: number } {
	const stamped: Stamped[] = [];
	for (const r of records) {
		const s = stampDraft(r);
		if (s) stamped.push(s);
	}
	return { stamped, unstamped: records.length - stamped.length };
}

export type NewDraftState = WatermarkState;

/** The drafts created since the last poll (newest first) and the next state. */
export function selectNewDrafts(records: Obj[], state: NewDraftState): { fresh: Stamped[]; state: NewDraftState } {
	return selectSince(stampDrafts(records).stamped, state);
}

/** What both platforms output for a new draft: the draft, its id, status, creation and scheduled times as ISO (null when not scheduled). */
export function draftEvent(item: Stamped): Obj & { id: string } {
	const r = item.record;
	const scheduled = timeOf(r.scheduledAt ?? r.scheduled_at ?? r.scheduledFor ?? r.publishAt);
	const status = typeof r.status === 'string' && r.status !== '' ? r.status : scheduled !== undefined ? 'scheduled' : 'draft';
	return {
		...r,
		id: item.id,
		draftId: item.id,
		text: typeof r.text === 'string' ? r.text : (r.content ?? r.body ?? ''),
		status,
		scheduledAt: scheduled === undefined ? null : new Date(scheduled).toISOString(),
		createdAt: new Date(item.at).toISOString(),
	};
}

// ---------------------------------------------------------------------------
// Post Metric Milestone

const DAY_MS = 86_400_000;

function numeric(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

export interface MilestoneConfig {
	/** The metric's name (`likes`, `comments`, `shares`, `impressions` or any other). */
	metric: string;
	threshold: number;
	watchDays: number;
}

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

/** Start of the watch window: posts published before it are not watched. */
export function windowStart(now: number, config: MilestoneConfig): number {
	return now - config.watchDays * DAY_MS;
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
	// The core's post reader (records.ts) knows every spelling, metrics included (reposts → shares).
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

// ---------------------------------------------------------------------------
// Credits Low

/** Transactions given in the output of a Credits Low event. */
export const LATEST_TRANSACTIONS = 5;

export function creditThreshold(raw: unknown): number {
	const n = numeric(raw);
	if (n === undefined || n <= 0) throw new ValidationError('threshold', `must be a number of credits above 0, got ${JSON.stringify(raw ?? null)}.`);
	return n;
}

/** A transaction with its time, the balance before and after it (read, or worked out from the amounts and the balance). */
export interface LedgerLine extends Stamped {
	amount?: number;
	before?: number;
	after?: number;
}

/**
 * The transactions, newest first, each with the balance around it. The
 * balance after a transaction is `balanceAfter` when the API sends it;
 * otherwise it is worked out backwards from the current balance and the
 * amounts. Transactions without a time are kept, stamped with their place
 * in the list (they count as old).
 */
export function ledger(credits: Pick<CreditsOutput, 'balance' | 'history'>): LedgerLine[] {
	// The core's credits reader (records.ts): any spelling of the history and of its transactions.
	const history = (readCredits(credits).history ?? []).filter(isObj) as CreditTransaction[];
	const rows = history.map((tx, index) => ({ tx, index, at: firstTime(tx, ['createdAt', 'created_at', 'date', 'timestamp']) }));
	// Newest first: by time when the times tell, else in the API's order (the sandbox answers newest first).
	let rises = false;
	for (let i = 1; i < rows.length; i++) if ((rows[i].at ?? 0) > (rows[i - 1].at ?? 0)) rises = true;
	const ordered = rises ? [...rows].sort((a, b) => (b.at ?? 0) - (a.at ?? 0) || b.index - a.index) : rows;
	const total = ordered.length;
	let after = typeof credits.balance === 'number' ? credits.balance : undefined;
	return ordered.map(({ tx, at }, i) => {
		const amount = numeric(tx.amount);
		const read = numeric(tx.balanceAfter ?? tx.balance_after);
		const balanceAfter = read ?? after;
		const before = balanceAfter !== undefined && amount !== undefined ? balanceAfter - amount : undefined;
		after = before;
		const id = firstId(tx, ['id', 'transactionId', 'transaction_id']) ?? `tx@${total - i}`;
		return { id, at: at ?? 0, record: tx, amount, before, after: balanceAfter };
	});
}

/** The transactions that took the balance from at least the threshold to below it, newest first. */
export function crossings(lines: LedgerLine[], threshold: number): LedgerLine[] {
	return lines.filter((l) => l.before !== undefined && l.after !== undefined && l.before >= threshold && l.after < threshold);
}

export interface CreditsLowState extends WatermarkState {
	/** The threshold the state was made for; another one starts afresh. */
	threshold?: number;
	/** The balance was below the threshold at the last poll. */
	below?: boolean;
}

export interface CreditsLowEvent {
	/** `${transactionId}:${threshold}`, or `balance:${threshold}:${time}` when no transaction shows the fall. */
	id: string;
	/** The crossing transaction, when the history shows it. */
	line?: LedgerLine;
}

/**
 * The falls below the threshold since the last poll (newest first) and the
 * next state. Each transaction newer than the watermark that crosses the
 * threshold fires. When the balance is below the threshold, was not at the
 * last poll, and no transaction shows the fall (a history without amounts),
 * the fall itself fires once. The first poll, or the first after the threshold
 * changed, fires nothing.
 */
export function selectCreditsLow(
	credits: Pick<CreditsOutput, 'balance' | 'history'>,
	state: CreditsLowState,
	threshold: number,
	now: number,
): { fresh: CreditsLowEvent[]; state: CreditsLowState } {
	const lines = ledger(credits);
	const below = typeof credits.balance === 'number' && credits.balance < threshold;
	const fresh: CreditsLowEvent[] = [];
	const since = selectSince(lines, state.threshold === threshold ? state : {});
	if (state.threshold === threshold && state.initialised) {
		const newIds = new Set(since.fresh.map((l) => l.id));
		for (const l of crossings(lines, threshold)) if (newIds.has(l.id)) fresh.push({ id: `${l.id}:${threshold}`, line: l });
		if (fresh.length === 0 && below && !state.below) fresh.push({ id: `balance:${threshold}:${new Date(now).toISOString()}` });
	}
	const next: CreditsLowState = { ...since.state, threshold, below };
	return { fresh, state: next };
}

/** Every fall below the threshold the history shows, newest first, as events (Zapier returns these; its dedupe fires each once). */
export function creditsLowHistory(credits: Pick<CreditsOutput, 'balance' | 'history'>, threshold: number): CreditsLowEvent[] {
	return crossings(ledger(credits), threshold).map((l) => ({ id: `${l.id}:${threshold}`, line: l }));
}

/** What both platforms output for a Credits Low event: the balance now, the threshold, the crossing and the latest transactions. */
export function creditsLowOutput(
	event: CreditsLowEvent,
	credits: Pick<CreditsOutput, 'balance' | 'history'>,
	threshold: number,
	now: number,
): Obj & { id: string } {
	const latest = ledger(credits)
		.slice(0, LATEST_TRANSACTIONS)
		.map((l) => l.record);
	const line = event.line;
	return {
		id: event.id,
		balance: credits.balance,
		threshold,
		below: typeof credits.balance === 'number' && credits.balance < threshold,
		balanceAfterCrossing: line?.after ?? credits.balance,
		crossedAt: new Date(line && line.at > 0 ? line.at : now).toISOString(),
		transactionId: line ? (firstId(line.record, ['id', 'transactionId', 'transaction_id']) ?? null) : null,
		transaction: line ? line.record : null,
		latestTransactions: latest,
	};
}
