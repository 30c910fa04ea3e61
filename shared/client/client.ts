/**
 * The client: one typed method per catalogue operation, built on an injected
 * transport (`send`) and an injected `sleep`. It validates before any request,
 * maps every failure to the typed errors, and retries by the policy in retry.ts.
 * All calls of one client share one pacing (pacer.ts: a refusal pauses them
 * all, the rate-limit headers hold them before the quota runs out), one
 * credit ledger (credit-ledger.ts: the floor holds with calls in flight) and one
 * verdict on the key (after a 401 no call is sent any more). Calls may run
 * concurrently on one client. Its options and results are options.ts;
 * the bookkeeping of a paid call (memory, credit floor), paid-call.ts; the
 * reading of a whole list, all-pages.ts.
 */
import type { OperationKey } from '../catalogue';
import type { ListPage, HttpRequest, HttpResponse, Send, Sleep } from '../base';
import { OPERATION_KEYS, getOperation, spendsCredits, normaliseBaseUrl, validateInput } from '../catalogue';
import type { CallOptions, ClientOptions, ListOptions, OperationMethods, RawResult, RetryEvent } from './options';
import { CreditLedger, balanceReadError, sendPaidCall } from '../paid';
import { AuthenticationError, PostWriterError, RateLimitedError, TimeoutError, WorkflowBusyError, networkErrorFrom, scrubError } from '../errors';
import type { ListRead } from '../lists';
import { readPages, normaliseList } from '../lists';
import { creditsRemainingOf, parseOutput, readListItems } from '../records';
import { buildRequest } from './request';
import type { Slot } from '../pacing';
import { describeQuota, Pacer, PauseTooLong } from '../pacing';
import { redirectError, sendFollowingRedirects } from './redirects';
import { readRateLimit, readResponse } from './response';
import type { RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, MIN_ATTEMPT_MS, decideRetry, refusalOverBudget } from './retry';
import { str } from '../base';

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
		const send = async () => parseOutput(key, (await this.execute(key, request, options)).value, clean);
		if (!spendsCredits(key)) {
			const out = await send();
			this.credits.observe(creditsRemainingOf(out));
			return out;
		}
		return await sendPaidCall({
			key,
			request,
			send,
			credits: this.credits,
			readBalance: () => this.readBalance(key, options),
			remainingOf: creditsRemainingOf,
			minCreditsToKeep: options.minCreditsToKeep,
			memo: options.memo,
		});
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
	 * Follows the pages under any convention the response shows (conventions.ts),
	 * up to `limit` and the hard caps (all-pages.ts). `truncated` says when it
	 * stopped while the server said more follow, with the reason.
	 */
	async readList(key: OperationKey, input: unknown, options: ListOptions = {}): Promise<ListRead> {
		try {
			const clean = validateInput(key, input, this.now());
			const name = `${getOperation(key).method} ${getOperation(key).path}`;
			return await readPages(name, options, (pageSize, next) => this.readPage(key, clean, { ...options, pageSize, next }));
		} catch (e) {
			throw scrubError(e, this.secrets);
		}
	}

	/** One page, each item read by its kind's reader (post-records.ts), with its paging (`next`, or `more` when it cannot be followed): for triggers that read page by page. */
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
		const read = this.call('getCredits', {}, { retry: options.retry }).catch((e: unknown) => Promise.reject(balanceReadError(key, e)));
		const credits = (await read) as { balance?: number };
		return typeof credits.balance === 'number' ? credits.balance : undefined;
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
		/** When this call's own wait after a refusal ended (the pause of its operation ends before it). */
		let waitedUntil: number | undefined;
		for (let attempt = 1; ; attempt++) {
			this.throwIfKeyRefused(key);
			const slot = await this.acquire(key, waitedUntil);
			waitedUntil = undefined;
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
				let sent = request;
				try {
					// Redirects within the Base URL's origin are followed; any other is refused below (redirects.ts).
					({ request: sent, response } = await sendFollowingRedirects(this.send, { ...request, timeoutMs: Math.min(this.timeoutMs, left) }, this.baseUrl));
				} catch (e) {
					error = networkErrorFrom(e, op);
				}
				if (response) {
					try {
						const redirected = redirectError(op, sent, response, this.baseUrl);
						if (redirected) throw redirected;
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
				// One pacing: a refusal holds every call of this operation on the key (a short delay, only until the window our oldest call opened ends).
				const ownWait = this.pacer.refused(decision.delayMs, key);
				waitedUntil = this.now() + ownWait;
				if (ownWait > 0) await this.sleep(ownWait);
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
		const waitedMs = firstRefusalAt === undefined ? 0 : this.now() - firstRefusalAt;
		const budget = { budgetMs, waitedMs, refusals, quota: describeQuota(this.pacer.report(key)), setting: this.quotaBudgetSetting };
		return refusalOverBudget(error, key, getOperation(key).name, budget);
	}

	/** A slot from the pacer; a pause that outlasts the deadline is a refusal, and nothing is sent. */
	private async acquire(key: OperationKey, waitedUntil?: number): Promise<Slot> {
		const maxWaitMs = this.deadline === undefined ? Infinity : Math.max(0, this.timeLeft() - MIN_ATTEMPT_MS);
		return await this.pacer.acquire(key, { party: this.party, maxWaitMs, waitedUntil }).catch((e: unknown) =>
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

export const PostWriterClient = ClientCore as unknown as new (options: ClientOptions) => PostWriterClient;

export function createClient(options: ClientOptions): PostWriterClient {
	return new PostWriterClient(options);
}
