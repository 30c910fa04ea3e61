/**
 * The records of the sandbox's in-memory state: keys, accounts and what they
 * hold (drafts, posts, inspirations, writing profiles, credit transactions),
 * and the creation workflows. Types only; state.ts keeps the records.
 */
import type { Scope } from '../shared/base';
import type { IdeaText, QuestionText } from './creation-text';

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

export interface InspirationRecord {
	id: string;
	text: string;
	author: string;
	format: string;
	likes: number;
	comments: number;
	url: string;
}

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
