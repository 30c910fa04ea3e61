/**
 * The client: one typed method per catalogue operation, built on an injected
 * transport (`send`) and an injected `sleep`. It validates before any request,
 * maps every failure to the typed errors, and sends each request through its
 * sender (sender.ts: pacing, redirects, retries by the policy in retry.ts).
 * All calls of one client share one pacing (pacer.ts: a refusal pauses them
 * all, the rate-limit headers hold them before the quota runs out), one
 * credit ledger (credit-ledger.ts: the floor holds with calls in flight) and one
 * verdict on the key (after a 401 no call is sent any more). Calls may run
 * concurrently on one client. Its options and results are options.ts;
 * the bookkeeping of a paid call (memory, credit floor), paid-call.ts; the
 * reading of a whole list, all-pages.ts.
 */
import type { HttpRequest, ListPage } from '../base';
import { str } from '../base';
import type { OperationKey } from '../catalogue';
import { OPERATION_KEYS, getOperation, normaliseBaseUrl, spendsCredits, validateInput } from '../catalogue';
import { scrubError } from '../errors';
import type { ListRead } from '../lists';
import { normaliseList, readPages } from '../lists';
import { Pacer } from '../pacing';
import { CreditLedger, balanceReadError, sendPaidCall } from '../paid';
import { creditsRemainingOf, parseOutput, readListItems } from '../records';
import type { CallOptions, ClientOptions, ListOptions, OperationMethods, RawResult } from './options';
import { buildRequest } from './request';
import { Sender } from './sender';

/** The client: the class below plus one method per catalogue operation (added in its constructor). */
export type PostWriterClient = ClientCore & OperationMethods;

class ClientCore {
	readonly baseUrl: string;
	readonly now: () => number;
	/** See ClientOptions.deadline. */
	readonly deadline?: number;
	/** Secrets redacted from every error this client throws (its API key). */
	private readonly secrets: readonly string[];
	/** One pacing for every call of this client. */
	readonly pacer: Pacer;
	/** Balance and reservations, for the credit floor. */
	readonly credits = new CreditLedger();
	/** The sending of one request: pacing, retries, the deadline, the key's verdict. */
	private readonly sender: Sender;

	constructor(options: ClientOptions) {
		this.baseUrl = normaliseBaseUrl(options.baseUrl);
		this.now = options.now ?? (() => Date.now());
		this.deadline = options.deadline;
		this.secrets = options.apiKey ? [options.apiKey] : [];
		const random = options.random ?? Math.random;
		this.pacer = options.pacer ?? new Pacer({ sleep: options.sleep, now: this.now, random });
		this.sender = new Sender({ ...options, baseUrl: this.baseUrl, now: this.now, random, pacer: this.pacer });
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
		return this.sender.timeLeft();
	}

	/** Sends one request with the retry policy, within the deadline, paced with the client's other calls (sender.ts). */
	async execute(key: OperationKey, request: HttpRequest, options: CallOptions = {}): Promise<RawResult> {
		return await this.sender.execute(key, request, options.retry);
	}
}

export const PostWriterClient = ClientCore as unknown as new (options: ClientOptions) => PostWriterClient;

export function createClient(options: ClientOptions): PostWriterClient {
	return new PostWriterClient(options);
}
