/**
 * What the client takes and gives: its options (the injected transport, wait
 * and clock, the retry policy, the deadline, the pacing it shares), the
 * options of one call and of a list, and the typed method each catalogue
 * operation becomes. Types only; the client itself is client.ts.
 */
import type { InputOf, ItemOf, OperationKey, OutputOf } from '../catalogue';
import type { PaidCallMemo } from '../paid';
import type { Pacer } from '../pacing';
import type { RetryPolicy } from './definitions';
import type { HttpResponse, Send, Sleep, NextPage } from '../base';

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
