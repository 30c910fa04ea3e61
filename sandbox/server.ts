/**
 * The local sandbox: a node:http server implementing API v1 on 127.0.0.1,
 * routed from the operation catalogue (shared/catalogue.ts), with in-memory
 * state, a controllable clock, rate limits and fault injection.
 * The choices it makes where the spec says "not shown" are listed in README.md.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { OPERATION_KEYS, OPERATIONS } from '../shared/catalogue';
import type { FieldSpec, OperationKey, OperationSpec } from '../shared/catalogue';
import type { Scope } from '../shared/types';
import { ALL_SCOPES } from '../shared/types';
import { BROKE_ACCOUNT_ID, DAY_MS, DEFAULT_ACCOUNT_ID, OTHER_ACCOUNT_ID, SandboxState } from './state';
import type { AccountRecord, KeyRecord, PostRecord, WorkflowRecord } from './state';
import {
	analyzeText,
	generateProposals,
	ideasFor,
	intFor,
	mulberry32,
	passesValidationRule,
	questionsFor,
	refinePost,
	rewriteText,
	sha256,
	viralityOf,
	writePost,
} from './text';

// ---------------------------------------------------------------------------
// Options and handle
// ---------------------------------------------------------------------------

export type ErrorShape = 'nested' | 'flat' | 'message';
export type ListShape = 'data-cursor' | 'bare' | 'items-offset' | 'named';
export type RetryHeader = 'seconds' | 'http-date' | 'reset';
/** Order of GET /posts by publication time (the spec does not say). */
export type ListOrder = 'newest-first' | 'oldest-first';
export const LIST_ORDERS: readonly ListOrder[] = ['newest-first', 'oldest-first'];

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
	/** Statuses picked from for `errorRate` (default [500, 502, 503]). */
	errorStatuses?: number[];
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
	/** Limit faults to these routes, written "METHOD /path" as in the catalogue (e.g. "POST /generate"). */
	routes?: string[];
	/** Apply 5xx / reset / timeout / HTML / malformed faults after the operation ran (and charged). */
	faultAfterHandling?: boolean;
}

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
	listShape: ListShape;
	/** Order of GET /posts: newest publishedAt first (default) or oldest first; ties by id in the matching direction. */
	listOrder: ListOrder;
	retryHeader: RetryHeader;
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

export const KEY_PREFIX = 'pw_live_';
export const DEFAULT_QUOTAS: Quotas = {
	default: { limit: 600, windowMs: 60_000 },
	generate: { limit: 60, windowMs: 60_000 },
};
const CALENDAR_MAX_DAYS = 92;
const LIST_DEFAULT_LIMIT = 20;
const LIST_MAX_LIMIT = 100;
const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

function defaults(): SandboxOptions {
	return {
		port: 0,
		now: Date.now(),
		clockTicks: false,
		seed: 1,
		keySeed: '',
		keys: {},
		credits: 100,
		seedData: true,
		seedPosts: 12,
		errorShape: 'nested',
		listShape: 'data-cursor',
		listOrder: 'newest-first',
		retryHeader: 'seconds',
		quota: { ...DEFAULT_QUOTAS },
		faults: {},
		faultAfterHandling: false,
		creationLatencyMs: 0,
		workflowBusyStatus: 409,
		validateReadyAfterRefines: 0,
		workflowLifetimeMs: 7 * DAY_MS,
		maxBodyBytes: 64 * 1024,
	};
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly headers: Record<string, string> = {},
		readonly field?: string,
	) {
		super(message);
	}
}

const validation = (field: string, message: string) => new ApiError(400, 'VALIDATION_ERROR', message, {}, field);
const outOfSequence = (message: string) => new ApiError(409, 'WORKFLOW_OUT_OF_SEQUENCE', message);

// ---------------------------------------------------------------------------
// Routing from the catalogue
// ---------------------------------------------------------------------------

interface Route {
	key: OperationKey;
	op: OperationSpec;
	regex: RegExp;
	params: string[];
	/** "METHOD /path" as in the catalogue. */
	name: string;
}

const ROUTES: Route[] = OPERATION_KEYS.map((key) => {
	const op = OPERATIONS[key] as OperationSpec;
	const params: string[] = [];
	const pattern = op.path
		.split('/')
		.map((seg) => {
			if (seg.startsWith(':')) {
				params.push(seg.slice(1));
				return '([^/]+)';
			}
			return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	return { key, op, regex: new RegExp(`^${pattern}$`), params, name: `${op.method} ${op.path}` };
});

type Match =
	| { kind: 'route'; route: Route; params: Record<string, string> }
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

function matchRoute(method: string, path: string): Match {
	const allowed: string[] = [];
	for (const route of ROUTES) {
		const m = route.regex.exec(path);
		if (!m) continue;
		if (route.op.method !== method) {
			allowed.push(route.op.method);
			continue;
		}
		const params: Record<string, string> = {};
		route.params.forEach((name, i) => {
			try {
				params[name] = decodeURIComponent(m[i + 1]);
			} catch {
				params[name] = m[i + 1];
			}
		});
		return { kind: 'route', route, params };
	}
	return allowed.length > 0 ? { kind: 'method', allowed: [...new Set(allowed)] } : { kind: 'none' };
}

// ---------------------------------------------------------------------------
// Validation from the catalogue's field specs
// ---------------------------------------------------------------------------

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(text: string): boolean {
	const m = YMD.exec(text);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isAbsent(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function checkField(spec: FieldSpec, raw: unknown, source: Record<string, unknown>, now: number, fromQuery: boolean): unknown {
	const name = spec.name;
	switch (spec.type) {
		case 'string':
		case 'text': {
			if (typeof raw !== 'string') throw validation(name, `${name} must be a string`);
			if (raw.trim() === '') throw validation(name, `${name} must not be empty`);
			if (spec.maxLength !== undefined && raw.length > spec.maxLength) {
				throw validation(name, `${name} must be at most ${spec.maxLength} characters (got ${raw.length})`);
			}
			return raw;
		}
		case 'integer': {
			let n: unknown = raw;
			if (fromQuery && typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) n = Number(raw.trim());
			const range =
				spec.min !== undefined && spec.max !== undefined
					? ` between ${spec.min} and ${spec.max}`
					: spec.min !== undefined
						? ` of at least ${spec.min}`
						: spec.max !== undefined
							? ` of at most ${spec.max}`
							: '';
			if (typeof n !== 'number' || !Number.isInteger(n) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
				throw validation(name, `${name} must be an integer${range}`);
			}
			return n;
		}
		case 'boolean': {
			if (fromQuery && (raw === 'true' || raw === 'false')) return raw === 'true';
			if (typeof raw !== 'boolean') throw validation(name, `${name} must be a boolean (true or false)`);
			return raw;
		}
		case 'datetime': {
			const example = 'such as 2026-12-01T09:00:00Z';
			if (typeof raw !== 'string') throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			const m = ISO_DATETIME.exec(raw.trim());
			if (!m || !isRealDate(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
				throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example} (got "${raw.slice(0, 40)}")`);
			}
			const ms = Date.parse(raw.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
			if (Number.isNaN(ms)) throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			if (spec.future && ms <= now) {
				throw validation(name, `${name} must be in the future (got ${new Date(ms).toISOString()}, sandbox time is ${new Date(now).toISOString()})`);
			}
			return new Date(ms).toISOString();
		}
		case 'date': {
			if (typeof raw !== 'string' || !YMD.test(raw)) throw validation(name, `${name} must be a date written YYYY-MM-DD`);
			if (!isRealDate(raw)) throw validation(name, `${name} is not a real calendar date: ${raw}`);
			if (spec.notBefore) {
				const other = source[spec.notBefore];
				if (typeof other === 'string' && isRealDate(other) && raw < other) {
					throw validation(name, `${name} (${raw}) must not be before ${spec.notBefore} (${other})`);
				}
			}
			return raw;
		}
		case 'answers': {
			if (!Array.isArray(raw) || raw.length === 0) throw validation(name, `${name} must be a non-empty array of {questionId, answer} objects`);
			return raw.map((entry, i) => {
				if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
					throw validation(`${name}[${i}]`, `${name}[${i}] must be an object {questionId, answer}`);
				}
				const { questionId, answer } = entry as Record<string, unknown>;
				if (typeof questionId !== 'string' || questionId.trim() === '') {
					throw validation(`${name}[${i}].questionId`, `${name}[${i}].questionId must be a non-empty string`);
				}
				if (typeof answer !== 'string' || answer.trim() === '') {
					throw validation(`${name}[${i}].answer`, `${name}[${i}].answer must be a non-empty string (question ${questionId})`);
				}
				return { questionId: questionId.trim(), answer };
			});
		}
	}
}

/** Validates the body and query fields of an operation; path fields come from the route. */
function validateFields(op: OperationSpec, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>, now: number): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const querySource: Record<string, unknown> = {};
	for (const [k, v] of query) querySource[k] = v;
	for (const spec of op.fields) {
		if (spec.in === 'path') {
			out[spec.name] = params[spec.name];
			continue;
		}
		const source = spec.in === 'query' ? querySource : body;
		const raw = source[spec.name];
		if (isAbsent(raw)) {
			if (spec.required) throw validation(spec.name, `${spec.name} is required`);
			if (spec.default !== undefined) out[spec.name] = spec.default;
			continue;
		}
		out[spec.name] = checkField(spec, raw, source, now, spec.in === 'query');
	}
	return out;
}

// ---------------------------------------------------------------------------
// Request context and handlers
// ---------------------------------------------------------------------------

interface Ctx {
	key: KeyRecord;
	account: AccountRecord;
	input: Record<string, unknown>;
	query: URLSearchParams;
	route: Route;
}

type Result = { status?: number; body: unknown } | { list: unknown[] };

type Handler = (ctx: Ctx) => Result | Promise<Result>;

function str(v: unknown): string | undefined {
	return typeof v === 'string' ? v : undefined;
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

function makeKey(seed: string, name: string): string {
	const secret = seed ? sha256(`${seed}:${name}`).slice(0, 32) : randomBytes(16).toString('hex');
	return `${KEY_PREFIX}${secret}`;
}

function mergeOptions(base: SandboxOptions, partial: Partial<SandboxOptions>): SandboxOptions {
	const next: SandboxOptions = { ...base };
	for (const [k, v] of Object.entries(partial) as [keyof SandboxOptions, unknown][]) {
		if (v === undefined) continue;
		if (k === 'faults') next.faults = { ...base.faults, ...(v as FaultOptions) };
		else if (k === 'quota') next.quota = { ...base.quota, ...(v as Partial<Quotas>) };
		else if (k === 'keys') next.keys = { ...base.keys, ...(v as Partial<SandboxKeys>) };
		else (next as unknown as Record<string, unknown>)[k] = v;
	}
	if (!LIST_ORDERS.includes(next.listOrder)) throw new Error(`listOrder must be one of ${LIST_ORDERS.join(', ')}, got ${String(next.listOrder)}`);
	return next;
}

type FaultKind = 'timeout' | 'reset' | 'burst429' | 'html' | 'malformed' | 'error';
interface FaultDecision {
	kind: FaultKind;
	status?: number;
}

/** Starts a sandbox on 127.0.0.1. */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
	let opts = mergeOptions(defaults(), options);
	const state = new SandboxState({
		now: opts.now,
		clockTicks: opts.clockTicks,
		credits: opts.credits,
		seedData: opts.seedData,
		seedPosts: opts.seedPosts,
		workflowLifetimeMs: opts.workflowLifetimeMs,
	});
	const clock = state.clock;
	let random = mulberry32(opts.seed);

	// Keys.
	const keys: SandboxKeys = {
		full: opts.keys.full ?? makeKey(opts.keySeed, 'full'),
		readonly: opts.keys.readonly ?? makeKey(opts.keySeed, 'readonly'),
		revoked: opts.keys.revoked ?? makeKey(opts.keySeed, 'revoked'),
		expired: opts.keys.expired ?? makeKey(opts.keySeed, 'expired'),
		noCredits: opts.keys.noCredits ?? makeKey(opts.keySeed, 'noCredits'),
		other: opts.keys.other ?? makeKey(opts.keySeed, 'other'),
	};
	for (const [name, key] of Object.entries(keys)) {
		if (!key.startsWith(KEY_PREFIX)) throw new Error(`keys.${name} must start with ${KEY_PREFIX}`);
	}
	const all = [...ALL_SCOPES];
	state.addKey({ key: keys.full, name: 'full', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.readonly, name: 'readonly', accountId: DEFAULT_ACCOUNT_ID, scopes: ['posts:read', 'account:read'], revoked: false, expiresAt: null });
	state.addKey({ key: keys.revoked, name: 'revoked', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: true, expiresAt: null });
	state.addKey({ key: keys.expired, name: 'expired', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: clock.now() - DAY_MS });
	state.addKey({ key: keys.noCredits, name: 'noCredits', accountId: BROKE_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.other, name: 'other', accountId: OTHER_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });

	const stats: SandboxStats = { requests: 0, byRoute: {}, paidCalls: 0, creditsSpent: 0 };

	// Fault counters live in opts.faults and are decremented as they fire.
	const takeCounter = (name: 'burst429' | 'resetNext' | 'malformedNext' | 'htmlNext' | 'timeoutNext'): boolean => {
		const n = opts.faults[name] ?? 0;
		if (n <= 0) return false;
		opts.faults = { ...opts.faults, [name]: n - 1 };
		return true;
	};

	function decideFault(routeName: string, actualName: string): FaultDecision | undefined {
		const f = opts.faults;
		if (f.routes && f.routes.length > 0 && !f.routes.includes(routeName) && !f.routes.includes(actualName)) return undefined;
		if (takeCounter('timeoutNext')) return { kind: 'timeout' };
		if (takeCounter('resetNext')) return { kind: 'reset' };
		if (takeCounter('burst429')) return { kind: 'burst429' };
		if (takeCounter('htmlNext')) return { kind: 'html' };
		if (takeCounter('malformedNext')) return { kind: 'malformed' };
		if ((f.resetRate ?? 0) > 0 && random() < (f.resetRate ?? 0)) return { kind: 'reset' };
		if ((f.errorRate ?? 0) > 0 && random() < (f.errorRate ?? 0)) {
			const statuses = f.errorStatuses && f.errorStatuses.length > 0 ? f.errorStatuses : [500, 502, 503];
			return { kind: 'error', status: statuses[Math.floor(random() * statuses.length) % statuses.length] };
		}
		return undefined;
	}

	// Rate limits: fixed windows per (bucket, key identifier), on real time.
	const windows = new Map<string, { start: number; count: number }>();
	const quotaFor = (bucket: 'default' | 'generate'): QuotaRule => opts.quota[bucket] ?? DEFAULT_QUOTAS[bucket];
	function windowOf(bucket: 'default' | 'generate', id: string) {
		const rule = quotaFor(bucket);
		const mapKey = `${bucket}|${id}`;
		const now = Date.now();
		let w = windows.get(mapKey);
		if (!w || now >= w.start + rule.windowMs) {
			w = { start: now, count: 0 };
			windows.set(mapKey, w);
		}
		return { w, rule, resetAt: w.start + rule.windowMs };
	}

	function retryHeaders(resetAtMs: number, secondsHint?: number): Record<string, string> {
		const now = Date.now();
		const seconds = secondsHint ?? Math.max(1, Math.ceil((resetAtMs - now) / 1000));
		const at = secondsHint !== undefined ? now + secondsHint * 1000 : resetAtMs;
		switch (opts.retryHeader) {
			case 'http-date':
				// HTTP dates have a 1 s resolution: round up so the client never retries early.
				return { 'Retry-After': new Date(Math.ceil(at / 1000) * 1000).toUTCString() };
			case 'reset':
				return { 'X-RateLimit-Reset': String(Math.ceil(at / 1000)) };
			default:
				return { 'Retry-After': String(seconds) };
		}
	}

	function errorBody(code: string, message: string, field?: string): unknown {
		const extra = field ? { field } : {};
		switch (opts.errorShape) {
			case 'flat':
				return { error: message, code, ...extra };
			case 'message':
				return { message, code, ...extra };
			default:
				return { error: { code, message, ...extra } };
		}
	}

	// Sockets, timers and held responses, all released by close().
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let closing = false;
	const sleep = (ms: number) =>
		new Promise<void>((resolve) => {
			if (ms <= 0 || closing) return resolve();
			const t = setTimeout(() => {
				timers.delete(t);
				resolve();
			}, ms);
			timers.add(t);
		});

	// -----------------------------------------------------------------------
	// Handlers, one per catalogue operation (typed: none can be missing).
	// -----------------------------------------------------------------------

	/** Refuses a paid call the balance cannot cover (402); nothing is charged yet. */
	/** The operation's cost, from the catalogue (the spec documents 1 credit for generate, analyze and rewrite). */
	function costOf(ctx: Ctx): number {
		return ctx.route.op.cost ?? 0;
	}
	/** Refuses the call before any work when the balance cannot pay for it. */
	function paid(ctx: Ctx): void {
		const cost = costOf(ctx);
		if (ctx.account.credits < cost) {
			throw new ApiError(
				402,
				'INSUFFICIENT_CREDITS',
				`Not enough credits: this call costs ${cost} credit${cost === 1 ? '' : 's'} and the balance is ${ctx.account.credits}`,
			);
		}
	}
	/** Charges the operation's cost once it has run; returns the balance left. */
	function charge(ctx: Ctx, operation: 'generate' | 'analyze' | 'rewrite'): number {
		const cost = costOf(ctx);
		state.charge(ctx.account.id, operation, cost);
		stats.paidCalls++;
		stats.creditsSpent += cost;
		return ctx.account.credits;
	}

	function requireWorkflow(ctx: Ctx): WorkflowRecord {
		const id = String(ctx.input.workflowId);
		const wf = state.workflows.get(id);
		if (!wf || wf.accountId !== ctx.account.id) {
			throw new ApiError(404, 'WORKFLOW_NOT_FOUND', `Workflow ${id} was not found for this account. Start one with POST /creation/ideas.`);
		}
		if (clock.now() > wf.expiresAt) {
			throw new ApiError(
				410,
				'WORKFLOW_EXPIRED',
				`Workflow ${id} expired on ${new Date(wf.expiresAt).toISOString()} (workflows last 7 days). Start a new one with POST /creation/ideas.`,
			);
		}
		return wf;
	}

	function busyError(): ApiError {
		return new ApiError(opts.workflowBusyStatus, 'WORKFLOW_BUSY', 'WORKFLOW_BUSY', { 'Retry-After': '1' });
	}

	/** Runs a creation operation: busy lock, sequence check, real-time latency. */
	async function runOnWorkflow<T>(wf: WorkflowRecord, check: () => void, work: () => T): Promise<T> {
		if (wf.busy) throw busyError();
		check();
		wf.busy = true;
		try {
			await sleep(opts.creationLatencyMs);
			return work();
		} finally {
			wf.busy = false;
		}
	}

	const handlers: Record<OperationKey, Handler> = {
		generate: (ctx) => {
			const prompt = String(ctx.input.prompt);
			const numProposals = Number(ctx.input.numProposals);
			const saveDraft = ctx.input.saveDraft !== false;
			const scheduledAt = str(ctx.input.scheduledAt) ?? null;
			if (scheduledAt && !saveDraft) {
				throw validation('scheduledAt', 'scheduledAt requires saveDraft to be true (the schedule applies to the saved draft)');
			}
			paid(ctx);
			const proposals = generateProposals(prompt, numProposals);
			const draft = saveDraft ? state.createDraft(ctx.account.id, proposals[0], scheduledAt) : null;
			const creditsRemaining = charge(ctx, 'generate');
			return { body: { proposals, draftId: draft ? draft.id : null, creditsRemaining } };
		},
		analyze: (ctx) => {
			paid(ctx);
			const analysis = analyzeText(String(ctx.input.text));
			return { body: { ...analysis, creditsRemaining: charge(ctx, 'analyze') } };
		},
		rewrite: (ctx) => {
			paid(ctx);
			const instruction = String(ctx.input.instruction);
			const text = rewriteText(String(ctx.input.text), instruction);
			return { body: { text, instruction, creditsRemaining: charge(ctx, 'rewrite') } };
		},
		virality: (ctx) => ({ body: viralityOf(String(ctx.input.text)) }),
		listDrafts: (ctx) => ({ list: state.listDrafts(ctx.account.id) }),
		createDraft: (ctx) => ({
			status: 201,
			body: state.createDraft(ctx.account.id, String(ctx.input.text), str(ctx.input.scheduledAt) ?? null),
		}),
		listPosts: (ctx) => {
			const posts = state.listPosts(ctx.account.id);
			return { list: opts.listOrder === 'oldest-first' ? posts.reverse() : posts };
		},
		calendar: (ctx) => {
			const from = String(ctx.input.from);
			const to = String(ctx.input.to);
			const start = Date.parse(`${from}T00:00:00.000Z`);
			const end = Date.parse(`${to}T00:00:00.000Z`) + DAY_MS; // exclusive
			const days = Math.round((end - start) / DAY_MS);
			if (days > CALENDAR_MAX_DAYS) {
				throw validation('to', `the range ${from} to ${to} spans ${days} days; at most ${CALENDAR_MAX_DAYS} days are allowed`);
			}
			const inRange = (iso: string) => {
				const t = Date.parse(iso);
				return t >= start && t < end;
			};
			const entries = [
				...ctx.account.drafts
					.filter((d) => d.status === 'scheduled' && d.scheduledAt && inRange(d.scheduledAt))
					.map((d) => ({ type: 'scheduled', id: d.id, draftId: d.id, text: d.text, date: d.scheduledAt as string })),
				...ctx.account.posts
					.filter((p) => inRange(p.publishedAt))
					.map((p) => ({ type: 'published', id: p.id, postId: p.id, text: p.text, date: p.publishedAt })),
			].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
			return { body: { from, to, entries } };
		},
		searchInspirations: (ctx) => ({
			list: state.searchInspirations(ctx.account.id, {
				search: str(ctx.input.search),
				minLikes: typeof ctx.input.minLikes === 'number' ? ctx.input.minLikes : undefined,
				format: str(ctx.input.format),
			}),
		}),
		accountProfile: (ctx) => ({
			body: {
				id: ctx.account.id,
				name: ctx.account.name,
				email: ctx.account.email,
				credits: ctx.account.credits,
				writingProfiles: ctx.account.writingProfiles,
			},
		}),
		credits: (ctx) => ({ body: { balance: ctx.account.credits, history: [...ctx.account.history].reverse() } }),
		listWritingProfiles: (ctx) => ({ list: ctx.account.writingProfiles }),
		activateWritingProfile: (ctx) => {
			const id = String(ctx.input.id);
			const profile = state.activateProfile(ctx.account.id, id);
			if (!profile) {
				const known = ctx.account.writingProfiles.map((p) => p.id).join(', ');
				throw new ApiError(404, 'WRITING_PROFILE_NOT_FOUND', `Writing profile ${id} was not found. Known writing profiles: ${known}.`);
			}
			return { body: profile };
		},
		creationIdeas: async (ctx) => {
			const fields = {
				topic: String(ctx.input.topic),
				context: str(ctx.input.context),
				preferences: str(ctx.input.preferences),
				language: str(ctx.input.language),
			};
			await sleep(opts.creationLatencyMs);
			const ideas = ideasFor(fields);
			const wf = state.createWorkflow(ctx.account.id, { ...fields, ideas });
			return { body: { workflowId: wf.id, ideas } };
		},
		creationPrepare: (ctx) => {
			const wf = requireWorkflow(ctx);
			const ideaId = String(ctx.input.ideaId);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'written' || wf.stage === 'validated') {
						throw outOfSequence(
							`Cannot prepare again: the text of workflow ${wf.id} is already written. Correct it with POST /creation/refine (workflowId, instruction), or start a new workflow with POST /creation/ideas.`,
						);
					}
					if (!wf.ideas.some((i) => i.id === ideaId)) {
						throw validation('ideaId', `ideaId "${ideaId}" is not an idea of workflow ${wf.id}; valid ideaId values: ${wf.ideas.map((i) => i.id).join(', ')}`);
					}
				},
				() => {
					const idea = wf.ideas.find((i) => i.id === ideaId) as (typeof wf.ideas)[number];
					wf.ideaId = ideaId;
					wf.questions = questionsFor(wf.topic, idea);
					wf.stage = 'prepared';
					return { body: { workflowId: wf.id, questions: wf.questions } };
				},
			);
		},
		creationWrite: (ctx) => {
			const wf = requireWorkflow(ctx);
			const answers = ctx.input.answers as { questionId: string; answer: string }[];
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas') {
						throw outOfSequence('Cannot write yet: choose an idea first with POST /creation/prepare (workflowId, ideaId).');
					}
					const valid = wf.questions.map((q) => q.id);
					const unknown = answers.find((a) => !valid.includes(a.questionId));
					if (unknown) {
						throw validation('answers', `answers: questionId "${unknown.questionId}" is not a question of workflow ${wf.id}; valid questionId values: ${valid.join(', ')}`);
					}
					const missing = valid.filter((id) => !answers.some((a) => a.questionId === id));
					if (missing.length > 0) {
						throw validation('answers', `answers: missing an answer for questionId ${missing.join(', ')} (every question must be answered)`);
					}
				},
				() => {
					const idea = wf.ideas.find((i) => i.id === wf.ideaId) as (typeof wf.ideas)[number];
					wf.answers = answers;
					wf.text = writePost({ topic: wf.topic, idea, answers, preferences: wf.preferences });
					wf.verdict = null;
					wf.stage = 'written';
					return { body: { workflowId: wf.id, text: wf.text } };
				},
			);
		},
		creationValidate: (ctx) => {
			const wf = requireWorkflow(ctx);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas') {
						throw outOfSequence(
							'Cannot validate yet: there is no text. Choose an idea with POST /creation/prepare (workflowId, ideaId), then write with POST /creation/write (workflowId, answers).',
						);
					}
					if (wf.stage === 'prepared') {
						throw outOfSequence('Cannot validate yet: write the text first with POST /creation/write (workflowId, answers).');
					}
				},
				() => {
					const text = wf.text ?? '';
					const rule = passesValidationRule(text);
					const needRefines = Math.max(0, opts.validateReadyAfterRefines - wf.refines);
					const issues = [...rule.issues];
					const suggestions = [...rule.suggestions];
					if (needRefines > 0) {
						issues.push('The opening line does not make the reader stop scrolling.');
						suggestions.push('Refine with an instruction such as "Make the first line punchier".');
					}
					const ready = issues.length === 0;
					const jitter = intFor({ op: 'validate', text }, 20);
					const score = ready ? 75 + jitter : 40 + jitter;
					wf.verdict = { ready, score, issues, suggestions };
					wf.stage = 'validated';
					return { body: { workflowId: wf.id, ready, verdict: wf.verdict } };
				},
			);
		},
		creationRefine: (ctx) => {
			const wf = requireWorkflow(ctx);
			const instruction = String(ctx.input.instruction);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas' || wf.stage === 'prepared') {
						throw outOfSequence(
							`Cannot refine yet: there is no text. ${wf.stage === 'ideas' ? 'Choose an idea with POST /creation/prepare (workflowId, ideaId), then write' : 'Write it first'} with POST /creation/write (workflowId, answers).`,
						);
					}
				},
				() => {
					wf.refines++;
					wf.text = refinePost(wf.text ?? '', instruction, wf.refines);
					wf.verdict = null;
					wf.stage = 'written';
					return { body: { workflowId: wf.id, text: wf.text } };
				},
			);
		},
	};

	// -----------------------------------------------------------------------
	// Lists
	// -----------------------------------------------------------------------

	function encodeCursor(offset: number): string {
		return Buffer.from(`offset:${offset}`).toString('base64');
	}
	function decodeCursor(cursor: string): number {
		const text = Buffer.from(cursor, 'base64').toString('utf8');
		const m = /^offset:(\d+)$/.exec(text);
		if (!m) throw validation('cursor', 'cursor is not a cursor returned by this endpoint (use the nextCursor of the previous page)');
		return Number(m[1]);
	}

	function formatList(items: unknown[], query: URLSearchParams, op: OperationSpec): unknown {
		const shape = opts.listShape;
		if (shape === 'bare') return items;
		let limit = LIST_DEFAULT_LIMIT;
		const rawLimit = query.get('limit');
		if (rawLimit !== null && rawLimit !== '') {
			if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) throw validation('limit', `limit must be an integer between 1 and ${LIST_MAX_LIMIT}`);
			limit = Math.min(LIST_MAX_LIMIT, Number(rawLimit));
		}
		let offset = 0;
		const cursor = query.get('cursor');
		const rawOffset = query.get('offset');
		if (cursor) offset = decodeCursor(cursor);
		else if (rawOffset !== null && rawOffset !== '') {
			if (!/^\d+$/.test(rawOffset)) throw validation('offset', 'offset must be an integer of at least 0');
			offset = Number(rawOffset);
		}
		const page = items.slice(offset, offset + limit);
		const next = offset + limit < items.length ? offset + limit : null;
		const nextCursor = next === null ? null : encodeCursor(next);
		switch (shape) {
			case 'items-offset':
				return { items: page, offset, limit, total: items.length };
			case 'named':
				return { [op.list?.keys[0] ?? 'items']: page, nextCursor };
			default:
				return { data: page, nextCursor };
		}
	}

	// -----------------------------------------------------------------------
	// Request pipeline
	// -----------------------------------------------------------------------

	function readBody(req: IncomingMessage): Promise<{ tooLarge: boolean; text: string }> {
		const max = opts.maxBodyBytes;
		return new Promise((resolve) => {
			const declared = Number(req.headers['content-length'] ?? NaN);
			const chunks: Buffer[] = [];
			let size = 0;
			let settled = false;
			let over = Number.isFinite(declared) && declared > max;
			const finish = (value: { tooLarge: boolean; text: string }) => {
				if (!settled) {
					settled = true;
					resolve(value);
				}
			};
			if (over) finish({ tooLarge: true, text: '' });
			req.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (over) {
					// Keep draining (without storing) so the client can read the 413; give up past a hard cap.
					if (size > DRAIN_CAP_BYTES) req.destroy();
					return;
				}
				if (size > max) {
					over = true;
					chunks.length = 0;
					finish({ tooLarge: true, text: '' });
					return;
				}
				chunks.push(chunk);
			});
			req.on('end', () => finish({ tooLarge: over, text: over ? '' : Buffer.concat(chunks).toString('utf8') }));
			req.on('error', () => finish({ tooLarge: over, text: '' }));
			req.on('close', () => finish({ tooLarge: over, text: over ? '' : Buffer.concat(chunks).toString('utf8') }));
		});
	}

	interface Outcome {
		status: number;
		body: unknown;
		headers: Record<string, string>;
		/** Raw text (HTML, malformed JSON) instead of a JSON body. */
		raw?: { text: string; contentType: string };
	}

	function errorOutcome(e: ApiError): Outcome {
		return { status: e.status, body: errorBody(e.code, e.message, e.field), headers: { ...e.headers } };
	}

	function faultOutcome(fault: FaultDecision, retryAt: number): Outcome | 'reset' | 'timeout' {
		switch (fault.kind) {
			case 'timeout':
				return 'timeout';
			case 'reset':
				return 'reset';
			case 'burst429': {
				const sec = opts.faults.burstRetryAfterSec ?? 1;
				return {
					status: 429,
					body: errorBody('RATE_LIMITED', 'Rate limit exceeded'),
					headers: { ...retryHeaders(retryAt, sec), 'X-RateLimit-Remaining': '0' },
				};
			}
			case 'html':
				return {
					status: 502,
					body: undefined,
					headers: {},
					raw: { text: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html; charset=utf-8' },
				};
			case 'malformed':
				return { status: 200, body: undefined, headers: {}, raw: { text: '{"proposals": [', contentType: 'application/json; charset=utf-8' } };
			case 'error': {
				const status = fault.status ?? 500;
				const code = status === 502 ? 'BAD_GATEWAY' : status === 503 ? 'SERVICE_UNAVAILABLE' : status === 504 ? 'GATEWAY_TIMEOUT' : 'INTERNAL_ERROR';
				return { status, body: errorBody(code, `Simulated server error (${status})`), headers: {} };
			}
		}
	}

	const held = new Set<ServerResponse>();

	function write(req: IncomingMessage, res: ServerResponse, outcome: Outcome | 'reset' | 'timeout', rate: { limit: number; remaining: number }, label: string): void {
		if (outcome === 'reset') {
			opts.log?.(`${label} -> reset`);
			req.socket.destroy();
			return;
		}
		if (outcome === 'timeout') {
			opts.log?.(`${label} -> held (timeout)`);
			held.add(res);
			res.on('close', () => held.delete(res));
			return;
		}
		if (res.headersSent || res.destroyed || req.socket.destroyed) return;
		const headers: Record<string, string> = {
			'X-RateLimit-Limit': String(rate.limit),
			'X-RateLimit-Remaining': String(rate.remaining),
			...outcome.headers,
		};
		let text: string;
		if (outcome.raw) {
			headers['Content-Type'] = outcome.raw.contentType;
			text = outcome.raw.text;
		} else if (outcome.body === undefined) {
			text = '';
		} else {
			headers['Content-Type'] = 'application/json; charset=utf-8';
			text = JSON.stringify(outcome.body);
		}
		headers['Content-Length'] = String(Buffer.byteLength(text));
		opts.log?.(`${label} -> ${outcome.status}`);
		res.writeHead(outcome.status, headers);
		res.end(text);
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const path = url.pathname.replace(/\/+$/, '') || '/';
		const underApi = path === '/api/v1' || path.startsWith('/api/v1/');
		const relative = underApi ? path.slice('/api/v1'.length) || '/' : path;
		const match = underApi ? matchRoute(method, relative) : ({ kind: 'none' } as Match);
		const routeName = match.kind === 'route' ? match.route.name : `${method} ${relative}`;
		const actualName = `${method} ${relative}`;
		const label = `${method} ${url.pathname}${url.search}`;

		stats.requests++;
		stats.byRoute[routeName] = (stats.byRoute[routeName] ?? 0) + 1;

		// Rate-limit identity: the bearer token as sent (or "anonymous").
		const auth = req.headers.authorization;
		const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
		const identity = bearer ? bearer[1] : 'anonymous';
		const bucket: 'default' | 'generate' = match.kind === 'route' && match.route.key === 'generate' ? 'generate' : 'default';
		const peek = () => {
			const { w, rule } = windowOf(bucket, identity);
			return { limit: rule.limit, remaining: Math.max(0, rule.limit - w.count) };
		};

		const body = await readBody(req);
		if (closing) return;
		if (body.tooLarge) {
			write(req, res, errorOutcome(new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${opts.maxBodyBytes} bytes`)), peek(), label);
			return;
		}

		state.publishDue();

		// Faults decided before handling.
		const fault = decideFault(routeName, actualName);
		const after = Boolean(opts.faultAfterHandling || opts.faults.faultAfterHandling);
		if (opts.faults.latencyMs) await sleep(opts.faults.latencyMs);
		if (closing) return;
		if (fault && (fault.kind === 'burst429' || !after)) {
			write(req, res, faultOutcome(fault, Date.now() + (opts.faults.burstRetryAfterSec ?? 1) * 1000), peek(), label);
			return;
		}

		let outcome: Outcome;
		let rate = peek();
		try {
			if (match.kind === 'none') {
				throw new ApiError(404, 'NOT_FOUND', `No endpoint ${method} ${url.pathname}. Paths are relative to /api/v1, for example POST /api/v1/generate.`);
			}
			if (match.kind === 'method') {
				throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${relative}; use ${match.allowed.join(' or ')}.`, {
					Allow: match.allowed.join(', '),
				});
			}
			const { route, params } = match;

			// Rate limit (per key identifier, fixed window, real time).
			const { w, rule, resetAt } = windowOf(bucket, identity);
			if (w.count >= rule.limit) {
				rate = { limit: rule.limit, remaining: 0 };
				throw new ApiError(429, 'RATE_LIMITED', 'Rate limit exceeded', retryHeaders(resetAt));
			}
			w.count++;
			rate = { limit: rule.limit, remaining: Math.max(0, rule.limit - w.count) };

			// Authentication.
			if (!bearer || !bearer[1].startsWith(KEY_PREFIX)) throw new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid Authorization header');
			const key = state.keys.get(bearer[1]);
			if (!key) throw new ApiError(401, 'INVALID_API_KEY', 'Invalid API key');
			if (key.revoked) throw new ApiError(401, 'API_KEY_REVOKED', 'API key has been revoked');
			if (key.expiresAt !== null && clock.now() >= key.expiresAt) throw new ApiError(401, 'API_KEY_EXPIRED', 'API key has expired');
			key.lastUsedAt = clock.now();

			// Scope of the route.
			const need = (scope: Scope) => {
				if (!key.scopes.includes(scope)) throw new ApiError(403, 'MISSING_SCOPE', `Missing required scope: ${scope}`);
			};
			need(route.op.scope);

			// Body.
			let json: Record<string, unknown> = {};
			if (route.op.method === 'POST' && body.text.trim() !== '') {
				let parsed: unknown;
				try {
					parsed = JSON.parse(body.text);
				} catch {
					throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
				}
				if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
					throw new ApiError(400, 'VALIDATION_ERROR', 'The request body must be a JSON object');
				}
				json = parsed as Record<string, unknown>;
			}

			// Extra scopes carried by fields (scheduledAt needs posts:schedule).
			for (const spec of route.op.fields) {
				const source = spec.in === 'query' ? Object.fromEntries(url.searchParams) : json;
				if (spec.scope && !isAbsent(source[spec.name])) need(spec.scope);
			}

			const input = validateFields(route.op, json, url.searchParams, params, clock.now());
			const account = state.account(key.accountId);
			const result = await handlers[route.key]({ key, account, input, query: url.searchParams, route });
			if ('list' in result) outcome = { status: 200, body: formatList(result.list, url.searchParams, route.op), headers: {} };
			else outcome = { status: result.status ?? 200, body: result.body, headers: {} };
		} catch (e) {
			if (e instanceof ApiError) outcome = errorOutcome(e);
			else {
				opts.log?.(`${label} -> internal error: ${e instanceof Error ? e.stack : String(e)}`);
				outcome = errorOutcome(new ApiError(500, 'INTERNAL_ERROR', 'Internal sandbox error'));
			}
		}
		if (closing) return;
		if (fault && after) {
			write(req, res, faultOutcome(fault, Date.now() + 1000), rate, label);
			return;
		}
		write(req, res, outcome, rate, label);
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((e: unknown) => {
			opts.log?.(`unhandled: ${e instanceof Error ? e.stack : String(e)}`);
			try {
				if (!res.headersSent && !res.destroyed) {
					const text = JSON.stringify(errorBody('INTERNAL_ERROR', 'Internal sandbox error'));
					res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
					res.end(text);
				}
			} catch {
				req.socket.destroy();
			}
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('clientError', (_err, socket) => {
		if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
		else socket.destroy();
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;

	let closed: Promise<void> | undefined;
	const sandbox: Sandbox = {
		baseUrl: `http://127.0.0.1:${port}/api/v1`,
		port,
		keys,
		clock: {
			now: () => clock.now(),
			advance: (ms: number) => clock.advance(ms),
			set: (ms: number) => clock.set(ms),
		},
		state,
		stats,
		resetStats() {
			stats.requests = 0;
			stats.byRoute = {};
			stats.paidCalls = 0;
			stats.creditsSpent = 0;
		},
		configure(partial: Partial<SandboxOptions>) {
			// The port, the keys and the clock's start are fixed once started (use clock.set to move the clock).
			const rest: Partial<SandboxOptions> = { ...partial };
			delete rest.port;
			delete rest.keys;
			delete rest.now;
			opts = mergeOptions(opts, rest);
			if (partial.seed !== undefined) random = mulberry32(partial.seed);
		},
		resetFaults() {
			opts = { ...opts, faults: {}, faultAfterHandling: false };
		},
		resetRateLimits() {
			windows.clear();
		},
		publishDue: () => state.publishDue(),
		get options() {
			return opts;
		},
		close() {
			if (closed) return closed;
			closing = true;
			for (const t of timers) clearTimeout(t);
			timers.clear();
			closed = new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const res of held) res.destroy();
				for (const s of sockets) s.destroy();
				server.closeAllConnections?.();
			});
			return closed;
		},
	};
	return sandbox;
}
