/**
 * In-memory state of the sandbox: accounts, keys, drafts, posts, credits,
 * writing profiles, inspirations and creation workflows, plus the
 * controllable clock. No HTTP here; handlers.ts maps requests onto these methods.
 */
import type { Scope } from '../shared/types';
import { ALL_SCOPES } from '../shared/types';
import { metricsFor, seedInspirations, seedPostText } from './text';
import type { IdeaText, QuestionText, SeedInspiration } from './text';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface KeyRecord {
	key: string;
	/** Display name, e.g. "full". */
	name: string;
	accountId: string;
	scopes: Scope[];
	revoked: boolean;
	/** Expiry on the sandbox clock (epoch ms); null = never. */
	expiresAt: number | null;
	lastUsedAt: number | null;
}

export interface DraftRecord {
	id: string;
	text: string;
	status: 'draft' | 'scheduled';
	scheduledAt: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface PostMetricsRecord {
	likes: number;
	comments: number;
	shares: number;
	impressions: number;
}

export interface PostRecord {
	id: string;
	text: string;
	publishedAt: string;
	metrics: PostMetricsRecord;
	draftId: string | null;
}

export type InspirationRecord = SeedInspiration;

export interface WritingProfileRecord {
	id: string;
	name: string;
	description: string;
	active: boolean;
}

export type CreditOperation = 'grant' | 'generate' | 'analyze' | 'rewrite' | 'adjustment';

export interface CreditTransactionRecord {
	id: string;
	amount: number;
	operation: CreditOperation;
	balanceAfter: number;
	createdAt: string;
}

export interface AccountRecord {
	id: string;
	name: string;
	email: string;
	credits: number;
	/** Oldest first (the API answers newest first). */
	history: CreditTransactionRecord[];
	drafts: DraftRecord[];
	posts: PostRecord[];
	inspirations: InspirationRecord[];
	writingProfiles: WritingProfileRecord[];
}

/**
 * Internal stages of a creation workflow (the spec does not name them):
 * `ideas` (ideas proposed) → `prepared` (idea chosen, questions asked) →
 * `written` (text written or refined, no verdict) → `validated` (verdict given).
 */
export type WorkflowStage = 'ideas' | 'prepared' | 'written' | 'validated';

export interface VerdictRecord {
	ready: boolean;
	score: number;
	issues: string[];
	suggestions: string[];
}

export interface WorkflowRecord {
	id: string;
	accountId: string;
	/** Sandbox clock, epoch ms. */
	createdAt: number;
	expiresAt: number;
	topic: string;
	context?: string;
	preferences?: string;
	language?: string;
	stage: WorkflowStage;
	ideas: IdeaText[];
	ideaId: string | null;
	questions: QuestionText[];
	answers: { questionId: string; answer: string }[];
	text: string | null;
	verdict: VerdictRecord | null;
	/** Number of refine calls so far. */
	refines: number;
	/** True while an operation runs on it (WORKFLOW_BUSY). */
	busy: boolean;
}

/** The controllable clock. It moves only by advance/set, unless `ticks` (then it also follows real time). */
export class SandboxClock {
	private base: number;
	private anchor: number;
	private readonly listeners: Array<() => void> = [];

	constructor(
		start: number,
		private readonly ticks = false,
	) {
		this.base = start;
		this.anchor = Date.now();
	}

	now(): number {
		return this.ticks ? this.base + (Date.now() - this.anchor) : this.base;
	}

	advance(ms: number): void {
		this.base += ms;
		this.changed();
	}

	set(ms: number): void {
		this.base = ms;
		this.anchor = Date.now();
		this.changed();
	}

	onChange(listener: () => void): void {
		this.listeners.push(listener);
	}

	private changed(): void {
		for (const l of this.listeners) l();
	}
}

export interface StateOptions {
	now: number;
	clockTicks: boolean;
	credits: number;
	seedData: boolean;
	seedPosts: number;
	workflowLifetimeMs: number;
}

export const DEFAULT_ACCOUNT_ID = 'acc_1';
export const OTHER_ACCOUNT_ID = 'acc_2';
export const BROKE_ACCOUNT_ID = 'acc_3';

function seedProfiles(): WritingProfileRecord[] {
	return [
		{ id: 'wp_founder', name: 'Founder voice', description: 'First person, concrete numbers, short paragraphs.', active: true },
		{ id: 'wp_storyteller', name: 'Storyteller', description: 'Opens with a scene, ends with a lesson.', active: false },
		{ id: 'wp_analyst', name: 'Analyst', description: 'Data first, neutral tone, one chart-worthy number.', active: false },
	];
}

export class SandboxState {
	readonly clock: SandboxClock;
	readonly accounts = new Map<string, AccountRecord>();
	/** By full key string. */
	readonly keys = new Map<string, KeyRecord>();
	readonly workflows = new Map<string, WorkflowRecord>();
	readonly workflowLifetimeMs: number;
	private seq = { draft: 0, post: 0, tx: 0, workflow: 0 };

	constructor(options: StateOptions) {
		this.clock = new SandboxClock(options.now, options.clockTicks);
		this.workflowLifetimeMs = options.workflowLifetimeMs;
		const main = this.addAccount(DEFAULT_ACCOUNT_ID, 'Sandbox User', 'sandbox.user@example.com', options.credits);
		this.addAccount(OTHER_ACCOUNT_ID, 'Other Sandbox User', 'other.user@example.com', options.credits);
		this.addAccount(BROKE_ACCOUNT_ID, 'Broke Sandbox User', 'broke.user@example.com', 0);
		if (options.seedData) this.seed(main, options.seedPosts);
		this.clock.onChange(() => this.publishDue());
	}

	nowIso(): string {
		return new Date(this.clock.now()).toISOString();
	}

	addAccount(id: string, name: string, email: string, credits: number): AccountRecord {
		const account: AccountRecord = {
			id,
			name,
			email,
			credits: 0,
			history: [],
			drafts: [],
			posts: [],
			inspirations: [],
			writingProfiles: seedProfiles(),
		};
		this.accounts.set(id, account);
		if (credits > 0) this.grant(id, credits);
		return account;
	}

	addKey(record: Omit<KeyRecord, 'lastUsedAt'> & { lastUsedAt?: number | null }): KeyRecord {
		const full: KeyRecord = { lastUsedAt: null, ...record, scopes: [...record.scopes] };
		this.keys.set(full.key, full);
		return full;
	}

	account(id: string): AccountRecord {
		const a = this.accounts.get(id);
		if (!a) throw new Error(`Unknown account ${id}`);
		return a;
	}

	private seed(account: AccountRecord, posts: number): void {
		const now = this.clock.now();
		const today = Math.floor(now / DAY_MS) * DAY_MS;
		for (let i = posts; i >= 1; i--) {
			const text = seedPostText(i - 1);
			account.posts.push({
				id: this.nextId('post'),
				text,
				publishedAt: new Date(today - i * DAY_MS + 8.5 * 60 * 60 * 1000).toISOString(),
				metrics: metricsFor(text),
				draftId: null,
			});
		}
		const created = new Date(now - 60 * 60 * 1000).toISOString();
		account.drafts.push({
			id: this.nextId('draft'),
			text: 'Why we stopped estimating in story points (draft).',
			status: 'draft',
			scheduledAt: null,
			createdAt: created,
			updatedAt: created,
		});
		account.drafts.push({
			id: this.nextId('draft'),
			text: 'Three lessons from shipping our API in public.',
			status: 'scheduled',
			scheduledAt: new Date(today + 3 * DAY_MS + 8.5 * 60 * 60 * 1000).toISOString(),
			createdAt: created,
			updatedAt: created,
		});
		account.inspirations.push(...seedInspirations());
	}

	nextId(kind: 'draft' | 'post' | 'tx' | 'workflow'): string {
		const n = ++this.seq[kind];
		const prefix = { draft: 'drf_', post: 'pst_', tx: 'tx_', workflow: 'wf_' }[kind];
		return kind === 'tx' ? `${prefix}${n}` : `${prefix}${String(n).padStart(6, '0')}`;
	}

	grant(accountId: string, amount: number): CreditTransactionRecord {
		const account = this.account(accountId);
		account.credits += amount;
		const tx: CreditTransactionRecord = {
			id: this.nextId('tx'),
			amount,
			operation: 'grant',
			balanceAfter: account.credits,
			createdAt: this.nowIso(),
		};
		account.history.push(tx);
		return tx;
	}

	/** Spends `cost` credits; the caller checked the balance. */
	charge(accountId: string, operation: Exclude<CreditOperation, 'grant'>, cost = 1): CreditTransactionRecord {
		const account = this.account(accountId);
		if (account.credits < cost) throw new Error('charge() without enough credits');
		account.credits -= cost;
		const tx: CreditTransactionRecord = {
			id: this.nextId('tx'),
			amount: -cost,
			operation,
			balanceAfter: account.credits,
			createdAt: this.nowIso(),
		};
		account.history.push(tx);
		return tx;
	}

	/**
	 * Moves the balance by `amount` (negative to spend) as one transaction,
	 * done in the application (a top-up, a refund, a spend outside the API);
	 * for tests of Credits Low. The balance never goes below 0.
	 */
	adjustCredits(accountId: string, amount: number, operation: CreditOperation = 'adjustment'): CreditTransactionRecord {
		const account = this.account(accountId);
		const applied = Math.max(-account.credits, amount);
		account.credits += applied;
		const tx: CreditTransactionRecord = { id: this.nextId('tx'), amount: applied, operation, balanceAfter: account.credits, createdAt: this.nowIso() };
		account.history.push(tx);
		return tx;
	}

	/** Sets some metrics of a published post (engagement growing after publication); for tests of Post Metric Milestone. */
	setMetrics(accountId: string, postId: string, metrics: Partial<PostMetricsRecord> & Record<string, number>): PostRecord {
		const post = this.account(accountId).posts.find((p) => p.id === postId);
		if (!post) throw new Error(`Unknown post ${postId}`);
		post.metrics = { ...post.metrics, ...metrics };
		return post;
	}

	createDraft(accountId: string, text: string, scheduledAt: string | null): DraftRecord {
		const now = this.nowIso();
		const draft: DraftRecord = {
			id: this.nextId('draft'),
			text,
			status: scheduledAt ? 'scheduled' : 'draft',
			scheduledAt,
			createdAt: now,
			updatedAt: now,
		};
		this.account(accountId).drafts.push(draft);
		return draft;
	}

	/** Publishes every scheduled draft whose date has come (publishedAt = scheduledAt). */
	publishDue(): PostRecord[] {
		const now = this.clock.now();
		const published: PostRecord[] = [];
		for (const account of this.accounts.values()) {
			const due = account.drafts
				.filter((d) => d.status === 'scheduled' && d.scheduledAt !== null && Date.parse(d.scheduledAt) <= now)
				.sort((a, b) => Date.parse(a.scheduledAt ?? '') - Date.parse(b.scheduledAt ?? '') || a.id.localeCompare(b.id));
			if (due.length === 0) continue;
			const dueIds = new Set(due.map((d) => d.id));
			account.drafts = account.drafts.filter((d) => !dueIds.has(d.id));
			for (const draft of due) {
				const post: PostRecord = {
					id: this.nextId('post'),
					text: draft.text,
					publishedAt: draft.scheduledAt as string,
					metrics: metricsFor(draft.text),
					draftId: draft.id,
				};
				account.posts.push(post);
				published.push(post);
			}
		}
		return published;
	}

	/** Drafts, newest first (createdAt, then id). */
	listDrafts(accountId: string): DraftRecord[] {
		return [...this.account(accountId).drafts].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
	}

	/** Posts, newest first by publishedAt, then id ascending. */
	listPosts(accountId: string): PostRecord[] {
		return [...this.account(accountId).posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.id.localeCompare(b.id));
	}

	/** Inspirations filtered; most liked first, then id. */
	searchInspirations(accountId: string, filter: { search?: string; minLikes?: number; format?: string }): InspirationRecord[] {
		const needle = filter.search?.toLowerCase();
		return this.account(accountId)
			.inspirations.filter(
				(i) =>
					(needle === undefined || i.text.toLowerCase().includes(needle) || i.author.toLowerCase().includes(needle)) &&
					(filter.minLikes === undefined || i.likes >= filter.minLikes) &&
					(filter.format === undefined || i.format === filter.format),
			)
			.sort((a, b) => b.likes - a.likes || a.id.localeCompare(b.id));
	}

	activateProfile(accountId: string, id: string): WritingProfileRecord | undefined {
		const profiles = this.account(accountId).writingProfiles;
		const target = profiles.find((p) => p.id === id);
		if (!target) return undefined;
		for (const p of profiles) p.active = p.id === id;
		return target;
	}

	createWorkflow(accountId: string, fields: Pick<WorkflowRecord, 'topic' | 'context' | 'preferences' | 'language' | 'ideas'>): WorkflowRecord {
		const now = this.clock.now();
		const wf: WorkflowRecord = {
			id: this.nextId('workflow'),
			accountId,
			createdAt: now,
			expiresAt: now + this.workflowLifetimeMs,
			...fields,
			stage: 'ideas',
			ideaId: null,
			questions: [],
			answers: [],
			text: null,
			verdict: null,
			refines: 0,
			busy: false,
		};
		this.workflows.set(wf.id, wf);
		return wf;
	}
}

export { ALL_SCOPES };
