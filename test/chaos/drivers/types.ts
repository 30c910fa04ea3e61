/**
 * What the chaos suite needs from a platform: run items through an action,
 * and poll a trigger with persisted state. One driver per platform.
 */
export interface Outcome {
	ok: boolean;
	json?: Record<string, unknown>;
	/** The message a user sees for this item. */
	error?: string;
	/** Times the step was throttled and replayed (Zapier). */
	throttled?: number;
}

export interface ActionRun {
	/** One per input item, in order (or empty when the whole execution failed). */
	outcomes: Outcome[];
	/** The execution failed as a whole (no continue-on-fail). */
	thrown?: string;
}

export type PollResult = { fired: string[] } | { error: string };

export interface TriggerPoller {
	/** One poll; `fired` are the fire keys (post id, or `${draftId}:${iso}`). */
	poll(): Promise<PollResult>;
	/** Size in bytes of the persisted state (JSON). */
	stateBytes(): number;
}

export interface DriverContext {
	baseUrl: string;
	/** The key in the credential now (it may be replaced mid-run). */
	key: () => string;
	/** Per-request timeout, kept short so that a held connection ends quickly. */
	timeoutMs: number;
	/** When given, the transport appends "send <METHOD> <path>" and "answer <status>" in the order the client sees them. */
	events?: string[];
}

export interface GenerateOptions {
	continueOnFail?: boolean;
	/** Items at once (drivers with `maxConcurrency`). */
	concurrency?: number;
	minCreditsToKeep?: number;
}

export interface Driver {
	name: string;
	/** Why the driver cannot run (platform code or build missing), or undefined. */
	skipReason(): string | undefined;
	/** One client for all items of a run (n8n): after a 401 the later items are not sent. */
	oneClientPerRun?: boolean;
	/** The most items the platform runs at once in one execution (undefined: one at a time, no such option). */
	maxConcurrency?: number;
	generate(ctx: DriverContext, prompts: string[], options?: GenerateOptions): Promise<ActionRun>;
	/** A GET action: Get Many Drafts. */
	listDrafts(ctx: DriverContext, count: number): Promise<ActionRun>;
	/** Create Guided Post, one run per topic. */
	guided(ctx: DriverContext, topics: string[]): Promise<ActionRun>;
	newPostTrigger(ctx: DriverContext): TriggerPoller;
	upcomingTrigger(ctx: DriverContext, lookaheadMinutes: number): TriggerPoller;
	/** Post Metric Milestone on likes ≥ `threshold` over 7 days; keys `${postId}:likes:${threshold}`. */
	milestoneTrigger(ctx: DriverContext, threshold: number): TriggerPoller;
	/** New Draft; keys: draft ids. */
	newDraftTrigger(ctx: DriverContext): TriggerPoller;
	/** Credits Low below `threshold`; keys `${transactionId}:${threshold}`. */
	creditsLowTrigger(ctx: DriverContext, threshold: number): TriggerPoller;
}

/** `${draftId}:${iso}` of a calendar-like item. */
export function upcomingFireKey(item: Record<string, unknown>): string {
	if (typeof item.id === 'string' && /:\d{4}-\d{2}-\d{2}T/.test(item.id)) {
		const i = item.id.indexOf(':');
		return `${item.id.slice(0, i)}:${new Date(Date.parse(item.id.slice(i + 1))).toISOString()}`;
	}
	const draftId = item.draftId ?? item.id;
	const when = item.scheduledAt ?? item.date;
	return `${String(draftId)}:${new Date(Date.parse(String(when))).toISOString()}`;
}
