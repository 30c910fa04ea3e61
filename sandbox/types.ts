/**
 * The types the parts of the sandbox share: its options and handle, the
 * runtime that routing, fault injection and the handlers see, the quota and
 * fault options, a route, a parsed request and a handler. server.ts wires the
 * parts; they import these from here, never from server.ts, so the import
 * graph has no circle (test/sandbox/structure.test.ts).
 */
import type { OperationKey, OperationSpec } from '../shared/catalogue';
import type { ErrorShape } from './api-errors';
import type { ListShape } from './paging';
import type { RecordShape } from './shapes';
import type { AccountRecord, KeyRecord, PostRecord } from './records';
import type { SandboxState } from './state';

// ---------------------------------------------------------------------------
// Options and handle
// ---------------------------------------------------------------------------

export type RetryHeader = 'seconds' | 'http-date' | 'reset';
/**
 * Which rate-limit fields the answers carry: `X-RateLimit-*` (and the
 * `retryHeader` form on a 429), separate `RateLimit-Limit` / `-Remaining` /
 * `-Reset` (seconds to wait), the IETF `RateLimit-Policy` / `RateLimit`
 * structured fields only, only `Retry-After` on a 429 (in seconds, or as an
 * HTTP date), or nothing at all (`none`: a 429 that says nothing, as the spec's
 * "back off exponentially" allows).
 */
export type RateLimitHeaders = 'x-ratelimit' | 'ratelimit' | 'ietf' | 'retry-after' | 'retry-after-date' | 'none';
export const RATE_LIMIT_HEADERS: readonly RateLimitHeaders[] = ['x-ratelimit', 'ratelimit', 'ietf', 'retry-after', 'retry-after-date', 'none'];
/** Order of GET /posts by publication time (the spec does not say). */
export type ListOrder = 'newest-first' | 'oldest-first';
export const LIST_ORDERS: readonly ListOrder[] = ['newest-first', 'oldest-first'];

export interface SandboxKeys {
	/** All scopes, default account. */
	full: string;
	/** posts:read and account:read only, default account. */
	readonly: string;
	/** Revoked. */
	revoked: string;
	/** Expired (expiry one day before the clock's start). */
	expired: string;
	/** All scopes, an account with 0 credits. */
	noCredits: string;
	/** All scopes, another account (ownership tests). */
	other: string;
}

export interface SandboxOptions {
	/** TCP port on 127.0.0.1; 0 = random (default 0). */
	port: number;
	/** Start of the sandbox clock, epoch ms (default: real now). */
	now: number;
	/** Also let the sandbox clock follow real time (default false: it moves only by clock.advance/set). */
	clockTicks: boolean;
	/** Seed of the PRNG used by fault rates (default 1). */
	seed: number;
	/** Derive the keys from this string instead of random bytes (reproducible keys). */
	keySeed: string;
	/** Explicit keys (each must start with pw_live_); the others are generated. */
	keys: Partial<SandboxKeys>;
	/** Starting balance of the default and the other account (default 100). */
	credits: number;
	/** Seed posts, drafts and inspirations in the default account (default true). Writing profiles are always seeded. */
	seedData: boolean;
	/** Number of seeded published posts (default 12). */
	seedPosts: number;
	errorShape: ErrorShape;
	/** How lists are wrapped and paged (see paging.ts). */
	listShape: ListShape;
	/** Largest page a list gives (default: 100 for data-cursor, bare, items-offset and named; 20 for the other shapes, below what the clients ask). */
	listPageMax?: number;
	/** Order of GET /posts: newest publishedAt first (default) or oldest first; ties by id in the matching direction. */
	listOrder: ListOrder;
	/** Shape of the records in 2xx bodies: the sandbox's own (default), snake_case with epoch seconds, or nested with synonyms (see shapes.ts). */
	recordShape: RecordShape;
	retryHeader: RetryHeader;
	/**
	 * Send `X-RateLimit-Reset` on every answer, as many real APIs do (default
	 * false): the end of the quota window in epoch seconds with milliseconds
	 * (Discord's form, e.g. `1763700000.250`).
	 */
	rateLimitReset: boolean;
	/**
	 * The form of the rate-limit fields (default 'x-ratelimit'):
	 * - 'x-ratelimit': X-RateLimit-Limit / -Remaining on every answer,
	 *   X-RateLimit-Reset with `rateLimitReset`, the `retryHeader` form on a 429;
	 * - 'ietf': draft-ietf-httpapi-ratelimit-headers only, on every answer:
	 *   `RateLimit-Policy: "<bucket>";q=<limit>;w=<window s>` and
	 *   `RateLimit: "<bucket>";r=<remaining>;t=<s to reset>` (whole seconds,
	 *   rounded up); a 429 has no Retry-After and no X-RateLimit-*;
	 * - 'ratelimit': `RateLimit-Limit`, `RateLimit-Remaining` and
	 *   `RateLimit-Reset` (whole seconds to wait, rounded up) on every answer,
	 *   a 429 included, and nothing else (the older IETF draft's separate fields);
	 * - 'retry-after': no rate-limit field on other answers, only
	 *   `Retry-After: <s>` on a 429;
	 * - 'retry-after-date': the same with `Retry-After` as an HTTP date (the
	 *   window's end rounded up to the second).
	 */
	rateLimitHeaders: RateLimitHeaders;
	quota: Partial<Quotas>;
	faults: FaultOptions;
	/** Same as faults.faultAfterHandling (either one turns it on). */
	faultAfterHandling: boolean;
	/** Real-time duration of each creation operation (default 0). */
	creationLatencyMs: number;
	/** Status of WORKFLOW_BUSY (default 409). */
	workflowBusyStatus: number;
	/** Number of refines before /creation/validate says ready (default 0). */
	validateReadyAfterRefines: number;
	/** Creation workflow lifetime on the sandbox clock (default 7 days). */
	workflowLifetimeMs: number;
	/** Largest accepted body in bytes (default 65536). */
	maxBodyBytes: number;
	/** Called with one line per request (method, path, status). */
	log?: (line: string) => void;
}

export interface SandboxStats {
	requests: number;
	/** Keyed "METHOD /path" with the catalogue path (e.g. "POST /writing-profiles/:id/activate"). */
	byRoute: Record<string, number>;
	/** Successful (charged) paid calls. */
	paidCalls: number;
	creditsSpent: number;
	/**
	 * Charges per paid input, keyed "<operation>:<input>" (the prompt of
	 * generate, the text of analyze and rewrite): a value above 1 is the same
	 * input charged again.
	 */
	chargesByInput: Record<string, number>;
}

export interface Sandbox {
	/** http://127.0.0.1:<port>/api/v1 */
	baseUrl: string;
	port: number;
	keys: SandboxKeys;
	close(): Promise<void>;
	clock: { now(): number; advance(ms: number): void; set(ms: number): void };
	state: SandboxState;
	stats: SandboxStats;
	resetStats(): void;
	/** Changes options at run time (faults, quotas, shapes, latency…). `faults` and `quota` are merged key by key. */
	configure(partial: Partial<SandboxOptions>): void;
	/** Clears every fault (counters and rates). */
	resetFaults(): void;
	/** Forgets every rate-limit window. */
	resetRateLimits(): void;
	/** Publishes the scheduled drafts that are due; returns the new posts. */
	publishDue(): PostRecord[];
	/** The options in force. */
	readonly options: Readonly<SandboxOptions>;
}

/** What routing, fault injection and the handlers share with the running server. */
export interface SandboxRuntime {
	/** The options in force (configure() replaces the object: read it at call time). */
	readonly opts: SandboxOptions;
	readonly state: SandboxState;
	readonly stats: SandboxStats;
	/** Waits on real time; returns at once while closing (the timer is cleared by close()). */
	sleep(ms: number): Promise<void>;
}

// ---------------------------------------------------------------------------
// Quotas and faults
// ---------------------------------------------------------------------------

export interface QuotaRule {
	limit: number;
	windowMs: number;
}

export interface Quotas {
	/** Every endpoint except /generate. */
	default: QuotaRule;
	/** POST /generate only (it does not count against `default`). */
	generate: QuotaRule;
}

export interface FaultOptions {
	/** Added delay (real time) before every matching request. */
	latencyMs?: number;
	/** Probability (0..1) of a 5xx answer. */
	errorRate?: number;
	/** Statuses picked from for `errorRate` and `errorNext` (default [500, 502, 503]). */
	errorStatuses?: number[];
	/** The next n matching requests get a 5xx (the first of `errorStatuses`): exactly n, however many calls arrive at once. */
	errorNext?: number;
	/** The next n matching requests get 429. */
	burst429?: number;
	/** Retry delay of `burst429`, in seconds (default 1). */
	burstRetryAfterSec?: number;
	/** Probability (0..1) of destroying the socket without an answer. */
	resetRate?: number;
	/** The next n matching requests have their socket destroyed. */
	resetNext?: number;
	/** The next n matching requests get 200 with truncated JSON `{"proposals": [`. */
	malformedNext?: number;
	/** The next n matching requests get 502 with an HTML page. */
	htmlNext?: number;
	/** The next n matching requests never get an answer (socket held until close). */
	timeoutNext?: number;
	/** The next n matching requests are answered with a redirect (`redirectStatus`, default 307) to `redirectTo`, before they are handled: nothing is charged. */
	redirectNext?: number;
	/** The status of `redirectNext` (301, 302, 303, 307 or 308). */
	redirectStatus?: number;
	/** Where `redirectNext` points: an origin, which the request's path and query follow (another host), or `'self'` for the request's own address (a redirect within the origin). */
	redirectTo?: string;
	/** The next n matching requests pass untouched before any fault applies: a counted fault (`errorNext`…) then hits the (n+1)-th. */
	passNext?: number;
	/** Limit faults to these routes, written "METHOD /path" as in the catalogue (e.g. "POST /generate"). */
	routes?: string[];
	/** Apply 5xx / reset / timeout / HTML / malformed faults after the operation ran (and charged). */
	faultAfterHandling?: boolean;
}

// ---------------------------------------------------------------------------
// Routes, requests and handlers
// ---------------------------------------------------------------------------

export interface Route {
	key: OperationKey;
	op: OperationSpec;
	regex: RegExp;
	params: string[];
	/** "METHOD /path" as in the catalogue. */
	name: string;
}

/** What a path matches: a route (with its decoded parameters), only other methods (405), or nothing (404). */
export type Match =
	| { kind: 'route'; route: Route; params: Record<string, string> }
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

/** A request as routing reads it from the request line and headers. */
export interface ParsedRequest {
	method: string;
	url: URL;
	/** The path relative to /api/v1 (the whole path outside it). */
	relative: string;
	match: Match;
	/** "METHOD /path" with the catalogue path when a route matched (stats, fault routes). */
	routeName: string;
	/** "METHOD /path" as sent, relative to /api/v1. */
	actualName: string;
	/** Method, path and query as sent, for the log. */
	label: string;
	/** The bearer token as sent, or null. */
	token: string | null;
}

/** What a handler gets: the authenticated key and its account, the validated input, the query, the route. */
export interface Ctx {
	key: KeyRecord;
	account: AccountRecord;
	input: Record<string, unknown>;
	query: URLSearchParams;
	route: Route;
}

export type Result = { status?: number; body: unknown } | { list: unknown[] };

export type Handler = (ctx: Ctx) => Result | Promise<Result>;

export type Handlers = Record<OperationKey, Handler>;
