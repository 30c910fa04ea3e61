/**
 * The in-memory state of the sandbox: the accounts (with their drafts, posts,
 * credits, writing profiles and inspirations), the keys and the creation
 * workflows, on the controllable clock; and the ids of the three accounts.
 * No HTTP here; handlers.ts maps requests onto these methods. The records are
 * typed in records.ts, seeded by seed-content.ts, sorted by record-queries.ts.
 */
import { SandboxClock } from './clock';
import type {
	AccountRecord,
	CreditOperation,
	CreditTransactionRecord,
	DraftRecord,
	InspirationRecord,
	KeyRecord,
	PostMetricsRecord,
	PostRecord,
	WorkflowRecord,
	WritingProfileRecord,
} from './records';
import { draftsNewestFirst, dueDrafts, matchingInspirations, postsNewestFirst } from './record-queries';
import type { InspirationFilter } from './record-queries';
import { metricsFor, seedAccount, seedProfiles } from './seed-content';

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
		if (options.seedData) seedAccount(main, options.seedPosts, this.clock.now(), (kind) => this.nextId(kind));
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

	nextId(kind: 'draft' | 'post' | 'tx' | 'workflow'): string {
		const n = ++this.seq[kind];
		const prefix = { draft: 'drf_', post: 'pst_', tx: 'tx_', workflow: 'wf_' }[kind];
		return kind === 'tx' ? `${prefix}${n}` : `${prefix}${String(n).padStart(6, '0')}`;
	}

	grant(accountId: string, amount: number): CreditTransactionRecord {
		return this.book(this.account(accountId), amount, 'grant');
	}

	/** Spends `cost` credits; the caller checked the balance. */
	charge(accountId: string, operation: Exclude<CreditOperation, 'grant'>, cost = 1): CreditTransactionRecord {
		const account = this.account(accountId);
		if (account.credits < cost) throw new Error('charge() without enough credits');
		return this.book(account, -cost, operation);
	}

	/**
	 * Moves the balance by `amount` (negative to spend) as one transaction,
	 * done in the application (a top-up, a refund, a spend outside the API);
	 * for tests of Credits Low. The balance never goes below 0.
	 */
	adjustCredits(accountId: string, amount: number, operation: CreditOperation = 'adjustment'): CreditTransactionRecord {
		const account = this.account(accountId);
		return this.book(account, Math.max(-account.credits, amount), operation);
	}

	/** Moves the balance by `amount` and records it as the account's newest transaction. */
	private book(account: AccountRecord, amount: number, operation: CreditOperation): CreditTransactionRecord {
		account.credits += amount;
		const tx: CreditTransactionRecord = { id: this.nextId('tx'), amount, operation, balanceAfter: account.credits, createdAt: this.nowIso() };
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
			const due = dueDrafts(account.drafts, now);
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
		return draftsNewestFirst(this.account(accountId).drafts);
	}

	/** Posts, newest first by publishedAt, then id ascending. */
	listPosts(accountId: string): PostRecord[] {
		return postsNewestFirst(this.account(accountId).posts);
	}

	/** Inspirations filtered; most liked first, then id. */
	searchInspirations(accountId: string, filter: InspirationFilter): InspirationRecord[] {
		return matchingInspirations(this.account(accountId).inspirations, filter);
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
