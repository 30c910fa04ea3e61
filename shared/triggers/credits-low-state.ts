/**
 * Credits Low's state, pure functions of what was read and what was kept,
 * shared by both platforms: a watermark on the credit transactions and
 * whether the balance was below the threshold. A crossing is a transaction
 * that took the balance from at least the threshold to below it, so a fall
 * and a recovery between two polls still fires once. A composite id names
 * each event (`${transactionId}:${threshold}`): the Zapier trigger returns
 * these ids and Zapier's dedupe does the once-only part; the n8n trigger
 * keeps the state below.
 */
import { ValidationError } from '../errors';
import { readCredits } from '../records';
import type { CreditTransaction, CreditsOutput, Obj } from '../base';
import { isObj } from '../base';
import type { Stamped, WatermarkState } from './watermark';
import { firstId, firstTime, numeric, selectSince } from './watermark';

/** Transactions given in the output of a Credits Low event. */
export const LATEST_TRANSACTIONS = 5;

export function creditThreshold(raw: unknown): number {
	const n = numeric(raw);
	if (n === undefined || n <= 0) throw new ValidationError('threshold', `must be a number of credits above 0, got ${JSON.stringify(raw ?? null)}.`);
	return n;
}

/** A transaction with its time, the balance before and after it (read, or worked out from the amounts and the balance). */
export interface LedgerLine extends Stamped {
	amount?: number;
	before?: number;
	after?: number;
}

/**
 * The transactions, newest first, each with the balance around it. The
 * balance after a transaction is `balanceAfter` when the API sends it;
 * otherwise it is worked out backwards from the current balance and the
 * amounts. Transactions without a time are kept, stamped with their place
 * in the list (they count as old).
 */
export function ledger(credits: Pick<CreditsOutput, 'balance' | 'history'>): LedgerLine[] {
	// The core's credits reader (post-records.ts): any spelling of the history and of its transactions.
	const history = (readCredits(credits).history ?? []).filter(isObj) as CreditTransaction[];
	const rows = history.map((tx, index) => ({ tx, index, at: firstTime(tx, ['createdAt', 'created_at', 'date', 'timestamp']) }));
	// Newest first: by time when the times tell, else in the API's order (the sandbox answers newest first).
	let rises = false;
	for (let i = 1; i < rows.length; i++) if ((rows[i].at ?? 0) > (rows[i - 1].at ?? 0)) rises = true;
	const ordered = rises ? [...rows].sort((a, b) => (b.at ?? 0) - (a.at ?? 0) || b.index - a.index) : rows;
	const total = ordered.length;
	let after = typeof credits.balance === 'number' ? credits.balance : undefined;
	return ordered.map(({ tx, at }, i) => {
		const amount = numeric(tx.amount);
		const read = numeric(tx.balanceAfter ?? tx.balance_after);
		const balanceAfter = read ?? after;
		const before = balanceAfter !== undefined && amount !== undefined ? balanceAfter - amount : undefined;
		after = before;
		const id = firstId(tx, ['id', 'transactionId', 'transaction_id']) ?? `tx@${total - i}`;
		return { id, at: at ?? 0, record: tx, amount, before, after: balanceAfter };
	});
}

/** The transactions that took the balance from at least the threshold to below it, newest first. */
export function crossings(lines: LedgerLine[], threshold: number): LedgerLine[] {
	return lines.filter((l) => l.before !== undefined && l.after !== undefined && l.before >= threshold && l.after < threshold);
}

export interface CreditsLowState extends WatermarkState {
	/** The threshold the state was made for; another one starts afresh. */
	threshold?: number;
	/** The balance was below the threshold at the last poll. */
	below?: boolean;
}

export interface CreditsLowEvent {
	/** `${transactionId}:${threshold}`, or `balance:${threshold}:${time}` when no transaction shows the fall. */
	id: string;
	/** The crossing transaction, when the history shows it. */
	line?: LedgerLine;
}

/**
 * The falls below the threshold since the last poll (newest first) and the
 * next state. Each transaction newer than the watermark that crosses the
 * threshold fires. When the balance is below the threshold, was not at the
 * last poll, and no transaction shows the fall (a history without amounts),
 * the fall itself fires once. The first poll, or the first after the threshold
 * changed, fires nothing.
 */
export function selectCreditsLow(
	credits: Pick<CreditsOutput, 'balance' | 'history'>,
	state: CreditsLowState,
	threshold: number,
	now: number,
): { fresh: CreditsLowEvent[]; state: CreditsLowState } {
	const lines = ledger(credits);
	const below = typeof credits.balance === 'number' && credits.balance < threshold;
	const fresh: CreditsLowEvent[] = [];
	const since = selectSince(lines, state.threshold === threshold ? state : {});
	if (state.threshold === threshold && state.initialised) {
		const newIds = new Set(since.fresh.map((l) => l.id));
		for (const l of crossings(lines, threshold)) if (newIds.has(l.id)) fresh.push({ id: `${l.id}:${threshold}`, line: l });
		if (fresh.length === 0 && below && !state.below) fresh.push({ id: `balance:${threshold}:${new Date(now).toISOString()}` });
	}
	const next: CreditsLowState = { ...since.state, threshold, below };
	return { fresh, state: next };
}

/** Every fall below the threshold the history shows, newest first, as events (Zapier returns these; its dedupe fires each once). */
export function creditsLowHistory(credits: Pick<CreditsOutput, 'balance' | 'history'>, threshold: number): CreditsLowEvent[] {
	return crossings(ledger(credits), threshold).map((l) => ({ id: `${l.id}:${threshold}`, line: l }));
}

/** What both platforms output for a Credits Low event: the balance now, the threshold, the crossing and the latest transactions. */
export function creditsLowOutput(
	event: CreditsLowEvent,
	credits: Pick<CreditsOutput, 'balance' | 'history'>,
	threshold: number,
	now: number,
): Obj & { id: string } {
	const latest = ledger(credits)
		.slice(0, LATEST_TRANSACTIONS)
		.map((l) => l.record);
	const line = event.line;
	return {
		id: event.id,
		balance: credits.balance,
		threshold,
		below: typeof credits.balance === 'number' && credits.balance < threshold,
		balanceAfterCrossing: line?.after ?? credits.balance,
		crossedAt: new Date(line && line.at > 0 ? line.at : now).toISOString(),
		transactionId: line ? (firstId(line.record, ['id', 'transactionId', 'transaction_id']) ?? null) : null,
		transaction: line ? line.record : null,
		latestTransactions: latest,
	};
}
