/**
 * The sending of one request for the client (client.ts): paced with the
 * client's other calls (a refusal holds every call of its operation on the
 * key), redirects decided by redirects.ts, the answer read by response.ts
 * and rate-fields.ts (its dates on the server's clock, from its `Date`),
 * retried by the policy of retry.ts within the quota's time budget and the
 * deadline, and after a 401 nothing sent any more.
 */
import type { OperationKey } from '../catalogue';
import { getOperation } from '../catalogue';
import type { HttpRequest, HttpResponse, Send, Sleep } from '../base';
import { headerValue } from '../base';
import { AuthenticationError, PostWriterError, RateLimitedError, TimeoutError, WorkflowBusyError, networkErrorFrom } from '../errors';
import type { Pacer, Slot } from '../pacing';
import { PauseTooLong, describeQuota } from '../pacing';
import type { ClientOptions, RawResult, RetryEvent } from './options';
import { redirectError, sendFollowingRedirects } from './redirects';
import { readRateLimit } from './rate-fields';
import { readResponse } from './response';
import type { RetryPolicy } from './definitions';
import { DEFAULT_RETRY_POLICY } from './definitions';
import { MIN_ATTEMPT_MS, decideRetry, refusalAtDeadline, refusalOverBudget } from './retry';

/** A request's timeout when the client is given none. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** What the sender takes: the client's options, its Base URL normalised, its clock, random source and pacing settled. */
export interface SenderOptions extends Pick<ClientOptions, 'send' | 'sleep' | 'retry' | 'timeoutMs' | 'deadline' | 'onRetry' | 'party' | 'quotaBudgetSetting'> {
	baseUrl: string;
	now: () => number;
	random: () => number;
	pacer: Pacer;
}

export class Sender {
	private readonly baseUrl: string;
	private readonly send: Send;
	private readonly sleep: Sleep;
	private readonly now: () => number;
	private readonly random: () => number;
	private readonly policy: RetryPolicy;
	private readonly timeoutMs: number;
	private readonly deadline?: number;
	private readonly onRetry?: (event: RetryEvent) => void;
	private readonly pacer: Pacer;
	/** The 401 that refused the key: no call is sent after it. */
	private keyRefused?: AuthenticationError;
	private readonly party?: string;
	private readonly quotaBudgetSetting?: string;

	constructor(options: SenderOptions) {
		this.baseUrl = options.baseUrl;
		this.send = options.send;
		this.sleep = options.sleep;
		this.now = options.now;
		this.random = options.random;
		this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
		this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		this.deadline = options.deadline;
		this.onRetry = options.onRetry;
		this.pacer = options.pacer;
		this.party = options.party;
		this.quotaBudgetSetting = options.quotaBudgetSetting;
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
	async execute(key: OperationKey, request: HttpRequest, retry?: Partial<RetryPolicy>): Promise<RawResult> {
		const policy = { ...this.policy, ...retry };
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
					({ request: sent, response } = await sendFollowingRedirects(this.send, request, this.baseUrl, () => Math.min(this.timeoutMs, this.timeLeft())));
				} catch (e) {
					error = networkErrorFrom(e, op);
				}
				if (response) {
					this.pacer.serverClock.learn(headerValue(response.headers, 'date'), slot.sentAt, this.now());
					try {
						const redirected = redirectError(op, sent, response, this.baseUrl);
						if (redirected) throw redirected;
						value = readResponse(response, op, this.now(), this.pacer.serverClock, slot.sentAt);
					} catch (e) {
						error = e;
					}
				}
			} finally {
				// WORKFLOW_BUSY concerns one creation workflow, not the key's quota: an answer, for the pacing.
				const refused = error instanceof RateLimitedError;
				const rate = response ? readRateLimit(response.headers, this.now(), this.pacer.serverClock, slot.sentAt) : undefined;
				this.pacer.settle(slot, rate, refused ? 'refused' : response ? 'answered' : 'failed');
			}
			if (response && error === undefined) return { value, response, attempts: attempt };
			if (error instanceof AuthenticationError) this.keyRefused ??= error;
			const refusal = error instanceof RateLimitedError || error instanceof WorkflowBusyError;
			if (refusal) {
				refusals++;
				// The quota's budget counts the time in which the quota let none of this operation's calls through: a call
				// waiting its turn while others of the key's go is not stuck (three processes at 25 per 60 s had items run
				// out of 5 minutes behind their own process's calls). WORKFLOW_BUSY concerns its workflow: counted from its first.
				const moving = error instanceof RateLimitedError && firstRefusalAt !== undefined && this.pacer.answeredSince(key, firstRefusalAt);
				if (firstRefusalAt === undefined || moving) firstRefusalAt = this.now();
			}
			// A 429 that gives no delay: until the window's end its refusals showed (silent-window.ts).
			const learned = error instanceof RateLimitedError && error.retryAfterMs === undefined ? this.pacer.silentDelay(key, slot.sentAt) : undefined;
			const decision = decideRetry(
				error,
				method,
				{
					attempt,
					waitedMs,
					refusals,
					quotaWaitedMs: firstRefusalAt === undefined ? 0 : this.now() - firstRefusalAt,
					// A guess never waits longer than the backoff's longest step: the refusals it grew from may have been other
					// processes taking each window (three processes at 20 per 45 s: 1.85 × uncapped).
					learnedDelayMs: learned && (learned.guessed ? Math.min(learned.ms, policy.maxDelayMs) : learned.ms),
				},
				policy,
				this.random,
			);
			// Where the window its refusals showed ends, for a 429 that gave no delay (not a guess, nor a probe of a late end).
			const windowEndsInMs = learned && !learned.guessed && !learned.late ? learned.ms : undefined;
			// A wait that would leave no time before the deadline is not taken: the caller gets the error as the server gave it (a 429 keeps its delay).
			if (decision.retry && this.timeLeft() - decision.delayMs < MIN_ATTEMPT_MS) throw refusalAtDeadline(error, getOperation(key).name, windowEndsInMs);
			if (!decision.retry) {
				if (decision.budget) throw this.budgetError(key, error, policy.maxQuotaWaitMs, firstRefusalAt, refusals, windowEndsInMs);
				throw error;
			}
			this.onRetry?.({ operation: key, attempt, delayMs: decision.delayMs, reason: decision.reason });
			if (error instanceof RateLimitedError) {
				// One pacing: a refusal holds every call of this operation on the key (a short delay, only until the window our oldest call opened ends).
				const ownWait = this.pacer.refused(decision.delayMs, key, { learned: learned?.late === false, precisionMs: error.retryAfterPrecisionMs, settled: error.retryAfterSettled });
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

	/** The refusal that ran out of the quota's time budget, with the budget, the quota seen, and the window's end its refusals showed (`windowEndsInMs`). */
	private budgetError(key: OperationKey, error: unknown, budgetMs: number, firstRefusalAt: number | undefined, refusals: number, windowEndsInMs?: number): PostWriterError {
		const waitedMs = firstRefusalAt === undefined ? 0 : this.now() - firstRefusalAt;
		const budget = { budgetMs, waitedMs, refusals, quota: describeQuota(this.pacer.report(key)), setting: this.quotaBudgetSetting };
		return refusalOverBudget(error, key, getOperation(key).name, budget, windowEndsInMs);
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
