/**
 * The memory of paid calls' outcomes: what makes a platform's own re-run of a
 * step (n8n's Retry On Fail, an execution's Retry) never pay twice for a call
 * the service may already have carried out. The service has no idempotency
 * key (docs/api-v1.md), so the integration is the only place that can stop it.
 *
 * - A call that was answered is remembered with its answer: the re-run gets
 *   the same answer (same proposals, same credits remaining) without a call.
 * - A call that failed ambiguously (timeout, reset, 5xx: it may have been
 *   charged) is remembered with its message: the re-run fails again with it,
 *   unless the user asked to send such calls again on purpose.
 * - A call refused for sure (429, 4xx, nothing sent) is not remembered: the
 *   re-run sends it.
 *
 * Entries are keyed by a digest of their parts (the credential, the scope,
 * the request): no key, prompt or other clear text is held as a key. The
 * memory is bounded in entries, bytes and time. Pure: the clock and the
 * digest are injected, no timers (expired entries go when the memory is used).
 */
import {
	MalformedResponseError,
	NetworkError,
	PostWriterError,
	ServerError,
	TimeoutError,
} from '../errors';
import type { HttpRequest } from '../base';

/**
 * Bounds of one process's memory. 20 000 entries hold a few hundred large
 * batches (a batch of 40 items keeps 80 entries: one per item within the
 * execution, one for a retry); 32 MiB hold them with answers of 10 proposals
 * of 3 000 characters each (about 60 KiB as UTF-16) in the worst case.
 */
export const PAID_MEMORY_LIMITS = { maxEntries: 20_000, maxBytes: 32 * 1024 * 1024 };

/** What an ambiguous failure leaves: enough to throw the same error again. */
export interface UnclearFailure {
	kind: string;
	message: string;
	status?: number;
	code?: string;
	operation?: string;
}

export type PaidOutcome = { kind: 'answered'; value: unknown } | { kind: 'unclear'; failure: UnclearFailure };

interface Entry {
	json: string;
	bytes: number;
	expiresAt: number;
}

export interface PaidMemoryOptions {
	now: () => number;
	/** A one-way digest (SHA-256 in the adapters): the entries' ids. */
	digest: (text: string) => string;
	maxEntries?: number;
	maxBytes?: number;
}

/** The store: outcomes by the digest of their key's parts, oldest dropped first when a bound is reached. */
export class PaidMemory {
	private readonly entries = new Map<string, Entry>();
	private bytes = 0;
	private readonly limits: { maxEntries: number; maxBytes: number };

	constructor(private readonly options: PaidMemoryOptions) {
		this.limits = { ...PAID_MEMORY_LIMITS, ...definedOnly({ maxEntries: options.maxEntries, maxBytes: options.maxBytes }) };
	}

	/** Keeps an outcome for `ttlMs`; an outcome larger than the whole memory is not kept. */
	put(parts: readonly string[], outcome: PaidOutcome, ttlMs: number): void {
		const id = this.id(parts);
		this.drop(id);
		const json = JSON.stringify(outcome);
		// UTF-16: two bytes a character, as the engine holds the text.
		const bytes = json.length * 2;
		if (ttlMs <= 0 || bytes > this.limits.maxBytes) return;
		this.sweep();
		while (this.entries.size > 0 && (this.entries.size >= this.limits.maxEntries || this.bytes + bytes > this.limits.maxBytes)) {
			this.drop(this.entries.keys().next().value as string);
		}
		this.entries.set(id, { json, bytes, expiresAt: this.options.now() + ttlMs });
		this.bytes += bytes;
	}

	/** The outcome kept under these parts and not expired (a copy), or undefined. */
	get(parts: readonly string[]): PaidOutcome | undefined {
		const id = this.id(parts);
		const entry = this.entries.get(id);
		if (!entry) return undefined;
		if (entry.expiresAt <= this.options.now()) {
			this.drop(id);
			return undefined;
		}
		return JSON.parse(entry.json) as PaidOutcome;
	}

	get size(): number {
		return this.entries.size;
	}

	/** Bytes held (the stored JSON as UTF-16). */
	get byteSize(): number {
		return this.bytes;
	}

	/** The ids held: digests, never a key or an input. */
	ids(): string[] {
		return [...this.entries.keys()];
	}

	clear(): void {
		this.entries.clear();
		this.bytes = 0;
	}

	private id(parts: readonly string[]): string {
		return this.options.digest(parts.map((p) => `${p.length}:${p}`).join('|'));
	}

	private drop(id: string): void {
		const entry = this.entries.get(id);
		if (!entry) return;
		this.entries.delete(id);
		this.bytes -= entry.bytes;
	}

	/** Drops the expired entries at the front (the oldest); later ones expire when read or pushed out. */
	private sweep(): void {
		const now = this.options.now();
		for (const [id, entry] of this.entries) {
			if (entry.expiresAt > now) break;
			this.drop(id);
		}
	}
}

function definedOnly<T extends Record<string, number | undefined>>(o: T): Partial<Record<keyof T, number>> {
	return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, number>>;
}

/** Where a run's outcomes are kept and looked up. */
export interface PaidScope {
	/** The credential (base URL and key): part of every digest, never kept. */
	credential: string;
	/** The step (the node). */
	step: string;
	/** The execution: a re-run in the same execution (Retry On Fail) finds its answers by item. */
	execution?: string;
	/** The workflow: a retry of an execution finds its answers by request. */
	workflow?: string;
	/** This run is a retry of an execution: the workflow's outcomes serve it. */
	retry: boolean;
	/** How long outcomes are kept (ms). */
	windowMs: number;
	/** Send a call that failed ambiguously again (the user's choice), instead of failing it again. */
	resendUnclear: boolean;
	/** The sentence added to an ambiguous failure's message: why it is not sent again, and the setting that sends it. */
	advice: string;
}

/** One call's place in the memory: what was recalled, and where its outcome goes. */
export interface PaidTicket {
	readonly recalled?: PaidOutcome;
	keep(outcome: PaidOutcome): void;
}

/** The memory as one item's calls see it (CallOptions.memo of the client). */
export interface PaidCallMemo {
	/** The place of this paid request: the n-th call with the same request in this item and in this run. */
	open(request: Pick<HttpRequest, 'method' | 'url' | 'body'>): PaidTicket;
	readonly advice: string;
}

/**
 * One run of a step over its items. Within an execution, an outcome is keyed
 * by the execution, the step, the item and the request; for a retry of an
 * execution, by the workflow, the step and the request. A request repeated
 * (two items with the same prompt, a validation asked twice) is told apart by
 * its rank: the first, the second…
 */
export class PaidRun {
	private readonly ranks = new Map<string, number>();
	/** Items that got an answer from the memory, and items failed again from it. */
	readonly reused = new Set<number>();
	readonly failedAgain = new Set<number>();

	constructor(
		private readonly memory: PaidMemory,
		private readonly scope: PaidScope,
	) {}

	forItem(item: number): PaidCallMemo {
		const itemRanks = new Map<string, number>();
		const { scope, memory } = this;
		return {
			advice: scope.advice,
			open: (request) => {
				const text = `${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}`;
				const inItem = next(itemRanks, text);
				const inRun = next(this.ranks, text);
				const keys: string[][] = [];
				if (scope.execution !== undefined) keys.push(['execution', scope.credential, scope.execution, scope.step, String(item), text, inItem]);
				const retryKey = scope.workflow === undefined ? undefined : ['retry', scope.credential, scope.workflow, scope.step, text, inRun];
				if (retryKey) keys.push(retryKey);
				const lookup = scope.retry ? keys : keys.filter((k) => k !== retryKey);
				let recalled = lookup.map((k) => memory.get(k)).find((o) => o !== undefined);
				if (recalled?.kind === 'unclear' && scope.resendUnclear) recalled = undefined;
				if (recalled?.kind === 'answered') this.reused.add(item);
				if (recalled?.kind === 'unclear') this.failedAgain.add(item);
				return {
					recalled,
					keep: (outcome) => {
						for (const k of keys) memory.put(k, outcome, scope.windowMs);
					},
				};
			},
		};
	}
}

function next(ranks: Map<string, number>, text: string): string {
	const rank = ranks.get(text) ?? 0;
	ranks.set(text, rank + 1);
	return String(rank);
}

/** What of an ambiguous failure is kept. */
export function unclearFailureOf(error: unknown): UnclearFailure {
	if (error instanceof PostWriterError) {
		return { kind: error.kind, message: error.message, status: error.status, code: error.code, operation: error.operation };
	}
	return { kind: 'server', message: error instanceof Error ? error.message : String(error) };
}

/** The error of a kept ambiguous failure, of its first class (a timeout stays a timeout), with its message. */
export function errorOfUnclear(failure: UnclearFailure): PostWriterError {
	const details = { status: failure.status, code: failure.code, operation: failure.operation };
	switch (failure.kind) {
		case 'timeout':
			return new TimeoutError(failure.message, true, details);
		case 'network':
			return new NetworkError(failure.message, true, details);
		case 'malformed':
			return new MalformedResponseError(failure.message, details);
		default:
			return new ServerError(failure.message, details);
	}
}
