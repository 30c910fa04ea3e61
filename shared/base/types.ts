/**
 * Record and response types of API v1.
 *
 * The spec shows only the `/generate` body and response and the names of the
 * creation fields. Everything else is "not shown": these types describe what
 * the sandbox answers (see sandbox/README.md) and every field beyond the
 * spec's is optional, because the real service may differ. Parsers in
 * `outputs.ts` accept the plausible variants and normalise them to these shapes.
 */

export type Scope =
	| 'posts:generate'
	| 'posts:read'
	| 'posts:write'
	| 'posts:schedule'
	| 'posts:publish'
	| 'account:read'
	| 'account:write'
	| 'media:read'
	| 'media:write'
	| 'infographics:read'
	| 'infographics:write'
	| 'infographics:generate'
	| 'infographics:export';

export const ALL_SCOPES: readonly Scope[] = [
	'posts:generate',
	'posts:read',
	'posts:write',
	'posts:schedule',
	'posts:publish',
	'account:read',
	'account:write',
	'media:read',
	'media:write',
	'infographics:read',
	'infographics:write',
	'infographics:generate',
	'infographics:export',
];

export interface GenerateOutput {
	proposals: string[];
	draftId?: string | null;
	creditsRemaining?: number;
}

export interface AnalyzeOutput {
	rules?: string[];
	tactics?: string[];
	summary?: string;
	creditsRemaining?: number;
	[key: string]: unknown;
}

export interface RewriteOutput {
	text: string;
	instruction?: string;
	creditsRemaining?: number;
	[key: string]: unknown;
}

export interface ViralityOutput {
	score: number;
	level?: string;
	factors?: string[];
	creditsRemaining?: number;
	[key: string]: unknown;
}

export interface Draft {
	id: string;
	text: string;
	status?: 'draft' | 'scheduled' | string;
	scheduledAt?: string | null;
	createdAt?: string;
	updatedAt?: string;
	[key: string]: unknown;
}

export interface PostMetrics {
	likes?: number;
	comments?: number;
	shares?: number;
	impressions?: number;
	[key: string]: unknown;
}

export interface Post {
	id: string;
	text: string;
	publishedAt: string;
	metrics?: PostMetrics;
	url?: string;
	[key: string]: unknown;
}

export interface CalendarEntry {
	/** `scheduled` (a draft with a date) or `published` (a post). */
	type: 'scheduled' | 'published' | string;
	id: string;
	draftId?: string;
	postId?: string;
	text?: string;
	/** The moment of the entry: scheduledAt for drafts, publishedAt for posts. */
	date: string;
	[key: string]: unknown;
}

export interface CalendarOutput {
	from: string;
	to: string;
	entries: CalendarEntry[];
	/** Entries the API sent without an id or a date (under any of their names), kept rather than dropped; absent when there are none. */
	unreadable?: Array<Record<string, unknown>>;
}

export interface Inspiration {
	id: string;
	text: string;
	author?: string;
	format?: string;
	likes?: number;
	comments?: number;
	url?: string;
	[key: string]: unknown;
}

export interface WritingProfile {
	id: string;
	name: string;
	description?: string;
	active?: boolean;
	[key: string]: unknown;
}

export interface CreditTransaction {
	id?: string;
	amount: number;
	operation?: string;
	balanceAfter?: number;
	createdAt?: string;
	[key: string]: unknown;
}

export interface CreditsOutput {
	balance: number;
	history: CreditTransaction[];
	[key: string]: unknown;
}

/** The account, normalised: `credits` is the balance as a number, `activeWritingProfile` the active one of the list. */
export interface AccountProfile {
	id?: string;
	name?: string;
	email?: string;
	credits?: number;
	writingProfiles?: WritingProfile[];
	activeWritingProfile: { id: string; name?: string } | null;
	[key: string]: unknown;
}

export interface ActivateOutput {
	id: string;
	name?: string;
	active?: boolean;
	[key: string]: unknown;
}

export interface Idea {
	id: string;
	title?: string;
	text?: string;
	[key: string]: unknown;
}

export interface Question {
	id: string;
	question?: string;
	text?: string;
	[key: string]: unknown;
}

export interface Verdict {
	ready?: boolean;
	score?: number;
	issues?: string[];
	suggestions?: string[];
	[key: string]: unknown;
}

export interface IdeasOutput {
	workflowId: string;
	ideas: Idea[];
	[key: string]: unknown;
}

export interface PrepareOutput {
	workflowId?: string;
	questions: Question[];
	[key: string]: unknown;
}

export interface WriteOutput {
	workflowId?: string;
	text: string;
	[key: string]: unknown;
}

export interface ValidateOutput {
	workflowId?: string;
	verdict: Verdict;
	ready: boolean;
	[key: string]: unknown;
}

export interface RefineOutput {
	workflowId?: string;
	text: string;
	[key: string]: unknown;
}

export interface Answer {
	questionId: string;
	answer: string;
}

/** How a list is paged, as recognised from a response (shared/lists/conventions.ts). */
export type PagingConvention = 'cursor' | 'graphql' | 'keyset' | 'link' | 'next-url' | 'page-number' | 'offset';

/**
 * How to ask for the next page: query parameters added to the list's own
 * request (a cursor, an offset, a page number, `starting_after`), or a URL
 * the server gave (a `Link` header, `next_page_url`), followed as given.
 */
export interface NextPage {
	convention: PagingConvention;
	query?: Record<string, string>;
	url?: string;
}

/** A page of a list endpoint, whatever shape it came in. */
export interface ListPage<T> {
	items: T[];
	/** The next page, when the response says more follow and says how. */
	next?: NextPage;
	/** The cursor of `next` when it is a cursor (any parameter name). */
	nextCursor?: string;
	/** The offset of `next` when it is an offset. */
	nextOffset?: number;
	total?: number;
	/**
	 * What the server said when it says more follow but gives no way to the
	 * next page that the client can follow (`has_more: true` without ids, a
	 * link to another host…): the reason to warn instead of stopping silently.
	 */
	more?: string;
}
