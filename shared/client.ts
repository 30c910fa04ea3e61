/**
 * The client: one typed method per catalogue operation, built on an injected
 * transport (`send`) and an injected `sleep`. It validates before any request,
 * maps every failure to the typed errors, and retries by the policy in retry.ts.
 * All calls of one client share one pacing (pacing.ts: a refusal pauses them
 * all, the rate-limit headers hold them before the quota runs out), one
 * credit ledger (credits.ts: the floor holds with calls in flight) and one
 * verdict on the key (after a 401 no call is sent any more). Calls may run
 * concurrently on one client.
 */
import type { InputOf, ItemOf, OperationKey, OutputOf } from './catalogue';
import type { ListPage, NextPage } from './types';
import { OPERATION_KEYS, getOperation, spendsCredits } from './catalogue';
import type { CallEnd } from './credits';
import { CreditLedger } from './credits';
import {
	AuthenticationError,
	CreditFloorError,
	MalformedResponseError,
	NetworkError,
	PostWriterError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	WorkflowBusyError,
	networkErrorFrom,
	scrubError,
} from './errors';
import { newWalk, normaliseList, stallMessage, stepWalk } from './lists';
import { creditsRemainingOf, parseOutput, readListItems } from './parse';
import { buildRequest } from './request';
import type { PaidCallMemo } from './paid-memory';
import { errorOfUnclear, unclearFailureOf } from './paid-memory';
import type { Slot } from './pacing';
import { Pacer, PauseTooLong, describeQuota } from './pacing';
import { readRateLimit, readResponse } from './response';
import type { RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, MIN_ATTEMPT_MS, decideRetry } from './retry';
import type { HttpRequest, HttpResponse, Send, Sleep } from './transport';
import { normaliseBaseUrl, validateInput } from './validate';
import { str } from './values';

export interface RetryEvent {
	operation: OperationKey;
	attempt: number;
	delayMs: number;
	reason: string;
}

export interface ClientOptions {
	/** The credential's base URL; normalised (https, ends in /api/v1). */
	baseUrl: string;
	send: Send;
	sleep: Sleep;
	/** Clock, for retry dates and future-date checks. Defaults to Date.now. */
	now?: () => number;
	/** Random source for jitter, in [0, 1). Defaults to Math.random. */
	random?: () => number;
	retry?: Partial<RetryPolicy>;
	/** Per-attempt timeout handed to the transport. */
	timeoutMs?: number;
	/**
	 * Absolute time (ms, on `now`'s clock) that no request may outlive: each
	 * attempt's timeout is cut to the time left, a retry wait that would leave
	 * less than MIN_ATTEMPT_MS before it is not taken (the last error is
	 * thrown, a 429 keeping its delay), and no request starts with less than
	 * MIN_ATTEMPT_MS left. For a platform that stops the run at a fixed time
	 * (a Zapier step has 30 s).
	 */
	deadline?: number;
	/** The API key: redacted from every error this client throws, whatever its shape. */
	apiKey?: string;
	onRetry?: (event: RetryEvent) => void;
	/** The pacing shared by the calls (default: one of the client's own, on its sleep and clock). Adapters pass the one of the key (a PacerRegistry). */
	pacer?: Pacer;
	/** Who this client calls for (an execution): the pacing serves the parties of a key round robin. */
	party?: string;
	/** The setting that sets the quota's time budget, as the platform names it (for the message when it runs out). */
	quotaBudgetSetting?: string;
}

export interface CallOptions {
	retry?: Partial<RetryPolicy>;
	/** Refuse a credit-spending call that would leave fewer credits than this. */
	minCreditsToKeep?: number;
	/** Extra query parameters (pagination). */
	query?: Record<string, string | number | undefined>;
	/** The memory of paid calls' outcomes for this item (paid-memory.ts): a paid call it holds is not sent again. */
	memo?: PaidCallMemo;
}

export interface ListOptions extends CallOptions {
	/** Stop after this many items (default: all, up to the hard cap). */
	limit?: number;
	/** Page size asked of the server. */
	pageSize?: number;
	/** Hard cap on pages followed. */
	maxPages?: number;
	/** Start at this page (the `next` of a page read before) instead of the first. */
	next?: NextPage;
}

/** A list read page by page (PostWriterClient.readList). */
export interface ListRead {
	items: unknown[];
	/** Requests made (one per page). */
	requests: number;
	/** True when the read stopped while the server said more follow; `reason` says which list, what the server said and what was read. */
	truncated: boolean;
	reason?: string;
}

/** Hard caps of the paginator, whatever the caller asks. */
export const LIST_HARD_CAP = { pages: 100, items: 10_000 };

export type OperationMethods = {
	[K in OperationKey]: OutputOf<K> extends unknown[]
		? (input?: InputOf<K>, options?: ListOptions) => Promise<ItemOf<K>[] & Truncation>
		: (input: InputOf<K>, options?: CallOptions) => Promise<OutputOf<K>>;
};

/** Set (not enumerable) on a list's array when it stopped while the server said more follow. */
export interface Truncation {
	readonly truncated?: true;
	readonly truncatedReason?: string;
}

export interface RawResult {
	value: unknown;
	response: HttpResponse;
	attempts: number;
}

/** The client: the class below plus one method per catalogue operation (added in its constructor). */
export type PostWriterClient = ClientCore & OperationMethods;

class ClientCore {
	readonly baseUrl: string;
	private readonly send: Send;
	private readonly sleep: Sleep;
	readonly now: () => number;
	private readonly random: () => number;
	private readonly policy: RetryPolicy;
	private readonly timeoutMs: number;
	/** See ClientOptions.deadline. */
	readonly deadline?: number;
	private readonly onRetry?: (event: RetryEvent) => void;
	/** Secrets redacted from every error this client throws (its API key). */
	private readonly secrets: readonly string[];
	/** One pacing for every call of this client. */
	readonly pacer: Pacer;
	/** Balance and reservations, for the credit floor. */
	readonly credits = new CreditLedger();
	/** The 401 that refused the key: no call is sent after it. */
	private keyRefused?: AuthenticationError;
	private readonly party?: string;
	private readonly quotaBudgetSetting?: string;

	constructor(options: ClientOptions) {
		this.baseUrl = normaliseBaseUrl(options.baseUrl);
		this.send = options.send;
		this.sleep = options.sleep;
		this.now = options.now ?? (() => Date.now());
		this.random = options.random ?? Math.random;
		this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
		this.timeoutMs = options.timeoutMs ?? 30_000;
		this.deadline = options.deadline;
		this.onRetry = options.onRetry;
		this.secrets = options.apiKey ? [options.apiKey] : [];
		this.pacer = options.pacer ?? new Pacer({ sleep: this.sleep, now: this.now, random: this.random });
		this.party = options.party;
		this.quotaBudgetSetting = options.quotaBudgetSetting;
		for (const key of OPERATION_KEYS) {
			const isList = Boolean(getOperation(key).list);
			Object.defineProperty(this, key, {
				enumerable: false,
				value: isList
					? (input?: Record<string, unknown>, opts?: ListOptions) => this.list(key, input ?? {}, opts)
					: (input: Record<string, unknown>, opts?: CallOptions) => this.call(key, input, opts),
			});
		}
	}

	/** Validates, sends with retries, and returns the normalised output. Every error is redacted with the key. */
	async call(key: OperationKey, input: unknown, options: CallOptions = {}): Promise<unknown> {
		try {
			return await this.callUnscrubbed(key, input, options);
		} catch (e) {
			throw scrubError(e, this.secrets);
		}
	}

	private async callUnscrubbed(key: OperationKey, input: unknown, options: CallOptions): Promise<unknown> {
		const clean = validateInput(key, input, this.now());
		const request = buildRequest(key, clean, this.baseUrl, options.query);
		if (!spendsCredits(key)) {
			const out = parseOutput(key, (await this.execute(key, request, options)).value, clean);
			this.credits.observe(creditsRemainingOf(out));
			return out;
		}
		// A paid call the memory holds: its answer again, or its ambiguous failure again; nothing is sent.
		const ticket = options.memo?.open(request);
		if (ticket?.recalled?.kind === 'answered') return ticket.recalled.value;
		if (ticket?.recalled?.kind === 'unclear') throw errorOfUnclear(ticket.recalled.failure);
		// A paid call reserves its cost before it is sent (and is refused here when that would pass the floor).
		const reservation = await this.credits.reserve(
			getOperation(key).cost,
			options.minCreditsToKeep,
			() => this.readBalance(key, options),
			(balance, reserved) => this.floorError(key, options.minCreditsToKeep ?? 0, balance, reserved),
		);
		let out: unknown;
		let failure: unknown;
		let failed = false;
		try {
			out = parseOutput(key, (await this.execute(key, request, options)).value, clean);
		} catch (e) {
			failure = e;
			failed = true;
		}
		if (failed) {
			const end = endOf(failure);
			this.credits.settle(reservation, end);
			if (ticket && options.memo && end === 'charged') {
				// May have been carried out: remembered, so that a re-run of the step fails it again rather than paying twice.
				if (failure instanceof Error) failure.message = `${failure.message} ${options.memo.advice}`;
				ticket.keep({ kind: 'unclear', failure: unclearFailureOf(failure) });
			}
			throw failure;
		}
		this.credits.settle(reservation, 'charged', creditsRemainingOf(out));
		ticket?.keep({ kind: 'answered', value: out });
		return out;
	}

	/** Follows the pages, up to `limit` and the hard caps; when it stopped while the server said more follow, the array has `truncated: true` and `truncatedReason` (see readList). */
	async list(key: OperationKey, input: unknown, options: ListOptions = {}): Promise<unknown[]> {
		const read = await this.readList(key, input, options);
		if (read.truncated) {
			Object.defineProperty(read.items, 'truncated', { value: true, enumerable: false });
			Object.defineProperty(read.items, 'truncatedReason', { value: read.reason, enumerable: false });
		}
		return read.items;
	}

	/**
	 * Follows the pages under any convention the response shows (lists.ts),
	 * up to `limit` and the hard caps. `truncated` says when it stopped while
	 * the server said more follow (a convention it cannot follow, a page that
	 * repeats, a cursor that cycles, the page cap), with the reason.
	 */
	async readList(key: OperationKey, input: unknown, options: ListOptions = {}): Promise<ListRead> {
		try {
			return await this.listUnscrubbed(key, input, options);
		} catch (e) {
			throw scrubError(e, this.secrets);
		}
	}

	private async listUnscrubbed(key: OperationKey, input: unknown, options: ListOptions): Promise<ListRead> {
		const clean = validateInput(key, input, this.now());
		const limit = Math.min(options.limit ?? LIST_HARD_CAP.items, LIST_HARD_CAP.items);
		const maxPages = Math.min(options.maxPages ?? LIST_HARD_CAP.pages, LIST_HARD_CAP.pages);
		const pageSize = options.pageSize ?? Math.min(100, limit);
		const name = `${getOperation(key).method} ${getOperation(key).path}`;
		const items: unknown[] = [];
		const walk = newWalk();
		let next = options.next;
		for (;;) {
			const page = await this.readPage(key, clean, { ...options, pageSize, next });
			const step = stepWalk(walk, page);
			if (step.keep) items.push(...page.items.slice(0, limit - items.length));
			const read = { items, requests: walk.pages };
			if (items.length >= limit) return { ...read, truncated: false };
			if (step.stall) return { ...read, truncated: true, reason: stallMessage(name, step.stall, items.length, walk.pages) };
			if (!step.next) return { ...read, truncated: false };
			if (walk.pages >= maxPages) {
				const reason = `${name}: the service said more follow, but the read stopped at its cap of ${maxPages} pages. ${items.length} items were read in ${walk.pages} requests.`;
				return { ...read, truncated: true, reason };
			}
			next = step.next;
		}
	}

	/** One page, each item read by its kind's reader (records.ts), with its paging (`next`, or `more` when it cannot be followed): for triggers that read page by page. */
	async page(key: OperationKey, input: unknown, options: ListOptions = {}): Promise<ListPage<Record<string, unknown>>> {
		try {
			return await this.readPage(key, validateInput(key, input, this.now()), options);
		} catch (e) {
			throw scrubError(e, this.secrets);
		}
	}

	/** One page: the list's request (or the next page `options.next` names) sent, the body and headers read for the items and the paging. */
	private async readPage(key: OperationKey, clean: Record<string, unknown>, options: ListOptions): Promise<ListPage<Record<string, unknown>>> {
		const spec = getOperation(key);
		const next = options.next;
		const request: HttpRequest = next?.url
			? { method: 'GET', url: next.url, headers: { Accept: 'application/json' } }
			: buildRequest(key, clean, this.baseUrl, { limit: options.pageSize, ...next?.query, ...options.query });
		const { value, response } = await this.execute(key, request, options);
		const page = normaliseList<unknown>(value, spec.list?.keys ?? [], {
			headers: response.headers,
			url: request.url,
			baseUrl: this.baseUrl,
			idOf: (item) => str(readListItems(key, [item])[0]?.id),
		});
		return { ...page, items: readListItems(key, page.items) };
	}

	/** The balance for the credit floor: one Get Credits (shared by the calls waiting for it). */
	private async readBalance(key: OperationKey, options: CallOptions): Promise<number | undefined> {
		const credits = (await this.call('getCredits', {}, { retry: options.retry }).catch((e: unknown) => {
			const missingScope = e instanceof PostWriterError && e.kind === 'missing_scope';
			return Promise.reject(
				missingScope
					? new CreditFloorError(
							'Minimum Credits to Keep needs to read the balance, and the API key lacks the scope "account:read". Add that scope to the key, or set Minimum Credits to Keep to 0.',
							{ operation: key, field: 'minCreditsToKeep' },
						)
					: e,
			);
		})) as { balance?: number };
		return typeof credits.balance === 'number' ? credits.balance : undefined;
	}

	private floorError(key: OperationKey, floor: number, balance: number, reserved: number): CreditFloorError {
		const op = getOperation(key);
		const cost = op.cost ?? 1;
		const inFlight = reserved > 0 ? ` with ${reserved} more reserved by calls in flight` : '';
		return new CreditFloorError(
			`${op.name} was not sent: it costs ${cost} credit${cost === 1 ? '' : 's'}, the balance is ${balance}${inFlight}, and Minimum Credits to Keep is ${floor}. Add credits or lower the minimum.`,
			{ operation: key, field: 'minCreditsToKeep' },
		);
	}

	/** Time left before the deadline (Infinity without one). */
	timeLeft(): number {
		return this.deadline === undefined ? Infinity : this.deadline - this.now();
	}

	/**
	 * Sends one request with the retry policy, within the deadline, paced with
	 * the client's other calls; returns the parsed body. A refusal (429,
	 * WORKFLOW_BUSY) pauses every call of the client for the delay; other
	 * retries (a GET after a 5xx or a network error) wait on their own.
	 */
	async execute(key: OperationKey, request: HttpRequest, options: CallOptions = {}): Promise<RawResult> {
		const policy = { ...this.policy, ...options.retry };
		const op = getOperation(key);
		const method = op.method;
		let waitedMs = 0;
		let refusals = 0;
		let firstRefusalAt: number | undefined;
		for (let attempt = 1; ; attempt++) {
			this.throwIfKeyRefused(key);
			const slot = await this.acquire(key);
			let error: unknown;
			let response: HttpResponse | undefined;
			let value: unknown;
			try {
				this.throwIfKeyRefused(key);
				const left = this.timeLeft();
				if (left < MIN_ATTEMPT_MS) {
					throw new TimeoutError(
						`${op.name} was not sent: the time allowed for this run ends in ${Math.max(0, Math.round(left))} ms, too little for a request (at least ${MIN_ATTEMPT_MS} ms). Nothing was sent or charged.`,
						false,
						{ operation: key, code: 'DEADLINE_REACHED' },
					);
				}
				try {
					response = await this.send({ ...request, headers: { ...request.headers }, timeoutMs: Math.min(this.timeoutMs, left) });
				} catch (e) {
					error = networkErrorFrom(e, op);
				}
				if (response) {
					try {
						value = readResponse(response, op, this.now());
					} catch (e) {
						error = e;
					}
				}
			} finally {
				// WORKFLOW_BUSY concerns one creation workflow, not the key's quota: an answer, for the pacing.
				const refused = error instanceof RateLimitedError;
				const rate = response ? readRateLimit(response.headers, this.now()) : undefined;
				this.pacer.settle(slot, rate, refused ? 'refused' : response ? 'answered' : 'failed');
			}
			if (response && error === undefined) return { value, response, attempts: attempt };
			if (error instanceof AuthenticationError) this.keyRefused ??= error;
			const refusal = error instanceof RateLimitedError || error instanceof WorkflowBusyError;
			if (refusal) {
				refusals++;
				firstRefusalAt ??= this.now();
			}
			const decision = decideRetry(
				error,
				method,
				{ attempt, waitedMs, refusals, quotaWaitedMs: firstRefusalAt === undefined ? 0 : this.now() - firstRefusalAt },
				policy,
				this.random,
			);
			// A wait that would leave no time before the deadline is not taken: the caller gets the error as the server gave it (a 429 keeps its delay).
			if (decision.retry && this.timeLeft() - decision.delayMs < MIN_ATTEMPT_MS) throw error;
			if (!decision.retry) {
				if (decision.budget) throw this.budgetError(key, error, policy.maxQuotaWaitMs, firstRefusalAt, refusals);
				throw error;
			}
			this.onRetry?.({ operation: key, attempt, delayMs: decision.delayMs, reason: decision.reason });
			if (error instanceof RateLimitedError) {
				// One pacing: every call of this operation on the key waits this delay (plus the jitter that spreads the clients), then the next attempt goes.
				this.pacer.pause(decision.delayMs, key);
			} else if (refusal) {
				// WORKFLOW_BUSY concerns one creation workflow, not the key's quota: only this call waits.
				await this.sleep(decision.delayMs);
			} else {
				await this.sleep(decision.delayMs);
				waitedMs += decision.delayMs;
			}
		}
	}

	/** The refusal that ran out of the quota's time budget, with the budget and the quota seen. */
	private budgetError(key: OperationKey, error: unknown, budgetMs: number, firstRefusalAt: number | undefined, refusals: number): PostWriterError {
		const op = getOperation(key);
		const budget = {
			budgetMs,
			waitedMs: firstRefusalAt === undefined ? 0 : this.now() - firstRefusalAt,
			refusals,
			quota: describeQuota(this.pacer.report(key)),
			setting: this.quotaBudgetSetting,
		};
		if (error instanceof WorkflowBusyError) return new WorkflowBusyError(error.retryAfterMs, { operation: key, status: error.status, budget });
		const retryAfterMs = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
		return new RateLimitedError(retryAfterMs, { operation: key, operationName: op.name, status: 429, budget });
	}

	/** A slot from the pacer; a pause that outlasts the deadline is a refusal, and nothing is sent. */
	private async acquire(key: OperationKey): Promise<Slot> {
		const maxWaitMs = this.deadline === undefined ? Infinity : Math.max(0, this.timeLeft() - MIN_ATTEMPT_MS);
		return await this.pacer.acquire(key, { party: this.party, maxWaitMs }).catch((e: unknown) =>
			Promise.reject(e instanceof PauseTooLong ? new RateLimitedError(e.waitMs, { operation: key, operationName: getOperation(key).name }) : e),
		);
	}

	/** After a 401 the key is known to be refused: every later call fails at once with the same message, and nothing is sent. */
	private throwIfKeyRefused(key: OperationKey): void {
		const refused = this.keyRefused;
		if (!refused) return;
		throw new AuthenticationError(refused.serverMessage ?? 'The API key was not accepted', {
			status: refused.status,
			code: refused.code,
			operation: key,
		});
	}
}

/** How a failed paid call ends for the credit floor: charged when the service may have carried it out. */
function endOf(error: unknown): CallEnd {
	if (error instanceof NetworkError) return error.ambiguous ? 'charged' : 'refused';
	if (error instanceof ServerError || error instanceof MalformedResponseError) return 'charged';
	if (error instanceof PostWriterError) return 'refused';
	return 'charged';
}

export const PostWriterClient = ClientCore as unknown as new (options: ClientOptions) => PostWriterClient;

export function createClient(options: ClientOptions): PostWriterClient {
	return new PostWriterClient(options);
}
