/**
 * The per-item loop shared by every operation: one client per run (so the
 * retry policy and the credit floor see the whole run; the pacing is the
 * key's, shared with every other run on it), items run by a pool (Options ›
 * Concurrency as a hard cap, or Auto: the key's pacing sizes the calls in
 * flight), output in input order with pairedItem on every item,
 * continueOnFail honoured, errors mapped once.
 *
 * Without continueOnFail, the first failure stops the run from starting new
 * items; the items already in flight finish (a call is never left half-sent),
 * then that failure is thrown.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { OperationKey } from '../../../shared/catalogue';
import { spendsCredits } from '../../../shared/catalogue';
import type { PostWriterClient } from '../../../shared/client';
import { ValidationError } from '../../../shared/errors';
import type { PaidCallMemo, PaidRun } from '../../../shared/paid';
import { createClient, readCredential } from '../transport';
import { errorItemText, toNodeError } from './node-errors';
import type { FieldOverrides } from './layout';
import { CONCURRENCY, MAX_CONCURRENCY, MAX_QUOTA_WAIT, MAX_QUOTA_WAIT_MINUTES, OPTIONS } from './options';
import { describeQuota, formatDuration } from '../../../shared/pacing';
import { readCreditFloor, readInput } from './input';
import { openPaidRun, readPaidSettings, reuseHint } from './paid-run';

/** `memo`: the item's place in the memory of paid calls (paid.ts), for the paid calls the handler makes. */
export type ItemHandler = (itemIndex: number, client: PostWriterClient, memo?: PaidCallMemo) => Promise<IDataObject | IDataObject[]>;

export interface ForEachItemOptions {
	/** Items run at once (default 1: one after the other); 'auto': as many as the key's pacing lets go (at most MAX_CONCURRENCY). */
	concurrency?: number | 'auto';
}

/**
 * Runs `task(i)` for i = 0 … count − 1, at most `concurrency` at once, in
 * order of start. After `stopped()` turns true no new task starts; those
 * running finish. No timer: each worker starts the next task when its own ends.
 */
export async function runPool(count: number, concurrency: number, task: (index: number) => Promise<void>, stopped: () => boolean): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count && !stopped()) {
			const index = next++;
			await task(index);
		}
	};
	const workers = Math.max(1, Math.min(concurrency, count));
	await Promise.all(Array.from({ length: workers }, async () => await worker()));
}

/** The Options collection of the run (item 0's), or undefined for an operation without one. */
function readOptions(ctx: IExecuteFunctions): IDataObject | undefined {
	try {
		const options = ctx.getNodeParameter(OPTIONS, 0, {}) as IDataObject | undefined;
		return options && typeof options === 'object' ? options : undefined;
	} catch {
		return undefined;
	}
}

/** Options › Concurrency, read once for the run (item 0): a whole number from 1 to MAX_CONCURRENCY, or 'auto' when left out. */
export function readConcurrency(ctx: IExecuteFunctions): number | 'auto' {
	const options = ctx.getNodeParameter(OPTIONS, 0, {}) as IDataObject | undefined;
	const raw = options && typeof options === 'object' ? options[CONCURRENCY] : undefined;
	if (raw === undefined || raw === null || raw === '') return 'auto';
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
		throw new ValidationError(CONCURRENCY, `must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${String(raw)}. Leave it out for Auto.`);
	}
	return n;
}

/** Options › Maximum Wait for the Quota (minutes) as the retry policy's budget, read once for the run (item 0); undefined when not set. */
export function readQuotaBudget(ctx: IExecuteFunctions): number | undefined {
	let options: IDataObject | undefined;
	try {
		options = ctx.getNodeParameter(OPTIONS, 0, {}) as IDataObject | undefined;
	} catch {
		// An operation without an Options collection: the default budget.
		return undefined;
	}
	const raw = options && typeof options === 'object' ? options[MAX_QUOTA_WAIT] : undefined;
	if (raw === undefined || raw === null || raw === '') return undefined;
	const n = Number(raw);
	if (!Number.isFinite(n) || n < 0 || n > MAX_QUOTA_WAIT_MINUTES) {
		throw new ValidationError(MAX_QUOTA_WAIT, `must be a number of minutes from 0 to ${MAX_QUOTA_WAIT_MINUTES}, got ${String(raw)}.`);
	}
	return Math.round(n * 60_000);
}

export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey | undefined,
	handler: ItemHandler,
	options: ForEachItemOptions = {},
): Promise<INodeExecutionData[]> {
	const outputs: INodeExecutionData[][] = new Array<INodeExecutionData[]>(items.length);
	let client: PostWriterClient | undefined;
	let clientFailure: unknown;
	// Paid operations: the answers and ambiguous failures of this run are remembered, and those of a try before are reused (paid.ts).
	let paid: PaidRun | undefined;
	try {
		const maxQuotaWaitMs = readQuotaBudget(this);
		const credential = await readCredential(this);
		client = await createClient(this, { credential, ...(maxQuotaWaitMs === undefined ? {} : { retry: { maxQuotaWaitMs } }) });
		if (key && spendsCredits(key)) paid = openPaidRun(this, credential, readPaidSettings(readOptions(this)));
	} catch (error) {
		clientFailure = error;
	}
	// The first failure without continueOnFail: no new item starts after it.
	let stop: Error | undefined;
	// An item failed again from the memory (its paid call failed ambiguously on a try before): thrown at the end, the items never sent go on.
	let again: { itemIndex: number; error: Error } | undefined;

	const runItem = async (itemIndex: number): Promise<void> => {
		let failure: unknown;
		try {
			if (!client) throw clientFailure;
			const result = await handler(itemIndex, client, paid?.forItem(itemIndex));
			outputs[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem: { item: itemIndex } }));
			return;
		} catch (error) {
			failure = error;
		}
		const nodeError = toNodeError(this.getNode(), failure, itemIndex, key);
		if (!this.continueOnFail()) {
			if (!paid?.failedAgain.has(itemIndex)) stop ??= nodeError;
			else if (!again || itemIndex < again.itemIndex) again = { itemIndex, error: nodeError };
			return;
		}
		outputs[itemIndex] = [{ json: { error: errorItemText(failure, nodeError, key) }, pairedItem: { item: itemIndex } }];
	};

	const concurrency = options.concurrency ?? 1;
	await runPool(items.length, concurrency === 'auto' ? MAX_CONCURRENCY : concurrency, runItem, () => stop !== undefined);
	if (paid) reuseHint(this, paid);
	if (stop) throw stop;
	if (again) throw again.error;
	if (concurrency === 'auto' && client && key && items.length > 1) autoHint(this, client, key);
	return outputs.flat();
}

/** What Auto did, in the output pane: the calls at once, and from what. */
function autoHint(ctx: IExecuteFunctions, client: PostWriterClient, lane: OperationKey): void {
	const report = client.pacer.report(lane);
	if (report.peakInFlight === 0 || typeof ctx.addExecutionHints !== 'function') return;
	const quota = describeQuota(report);
	const latency = report.latencyMs === undefined ? '' : `, answers in about ${formatDuration(report.latencyMs)}`;
	const basis = quota ? `the quota the service reported (${quota})${latency}` : `no quota reported by the service: grown while no call was refused, cut back on a refusal${latency}`;
	ctx.addExecutionHints({
		message: `Concurrency Auto: up to ${report.peakInFlight} call${report.peakInFlight === 1 ? '' : 's'} at once on this API key, from ${basis}. Set Options › Concurrency to cap it.`,
		location: 'outputPane',
	});
}

/** The concurrency of the run, a wrong value reported on the node (whatever continueOnFail says: nothing was sent). The quota budget is checked here too. */
export function concurrencyOf(ctx: IExecuteFunctions, key: OperationKey): number | 'auto' {
	try {
		readQuotaBudget(ctx);
		if (spendsCredits(key)) readPaidSettings(readOptions(ctx));
		return readConcurrency(ctx);
	} catch (error) {
		throw toNodeError(ctx.getNode(), error, 0, key);
	}
}

/** Runs a single (non-list) catalogue operation on each item, with the credit floor when set, Options › Concurrency at once. */
export async function callForEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey,
	overrides: FieldOverrides = {},
	prepare?: (input: Record<string, unknown>, itemIndex: number) => Record<string, unknown>,
): Promise<INodeExecutionData[]> {
	const concurrency = concurrencyOf(this, key);
	return await forEachItem.call(
		this,
		items,
		key,
		async (itemIndex, client, memo) => {
			const read = readInput(this, key, itemIndex, overrides);
			const input = prepare ? prepare(read, itemIndex) : read;
			const minCreditsToKeep = readCreditFloor(this, itemIndex);
			return (await client.call(key, input, { minCreditsToKeep, memo })) as IDataObject;
		},
		{ concurrency },
	);
}

/**
 * Runs a list operation on each item with Return All / Limit, one item after
 * the other: an item's pages follow one another (each cursor comes from the
 * page before), and the run holds one page plus the output at a time.
 */
export async function listForEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: OperationKey,
	shape?: (record: IDataObject, itemIndex: number) => IDataObject,
	/** What the output pane should say of the records read (a labelled field none of them carries), if anything. */
	check?: (records: IDataObject[]) => string | undefined,
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, key, async (itemIndex, client) => {
		const input = readInput(this, key, itemIndex);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		const read = await client.readList(key, input, { limit });
		const records = read.items as IDataObject[];
		// No silent stop: the records read are returned, and the output pane says why the list may go on.
		if (read.truncated && typeof this.addExecutionHints === 'function') {
			this.addExecutionHints({ message: `Item ${itemIndex + 1}: ${read.reason} The ${records.length} records read are returned.`, location: 'outputPane' });
		}
		// Never silent: a labelled field no record carries is named, with what the records do carry.
		const said = check?.(records);
		if (said && typeof this.addExecutionHints === 'function') this.addExecutionHints({ message: `Item ${itemIndex + 1}: ${said}`, location: 'outputPane' });
		return shape ? records.map((r) => shape(r, itemIndex)) : records;
	});
}
