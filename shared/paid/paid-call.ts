/**
 * The bookkeeping around one credit-spending call: the memory of paid calls
 * (paid-memory.ts) answers a call it holds without sending it; the credit
 * ledger (credit-ledger.ts) reserves the call's cost before it is sent, and refuses
 * it when that would pass the floor the user set; a failure is settled as
 * charged when the service may have carried the call out, and then
 * remembered, so that a re-run of the step fails it again rather than paying
 * twice. The sending itself is the client's (client.ts).
 */
import type { OperationKey } from '../catalogue';
import { getOperation } from '../catalogue';
import type { CallEnd, CreditLedger } from './credit-ledger';
import { CreditFloorError, MalformedResponseError, NetworkError, PostWriterError, RedirectError, ServerError } from '../errors';
import type { PaidCallMemo } from './paid-memory';
import { errorOfUnclear, unclearFailureOf } from './paid-memory';
import type { HttpRequest } from '../base';

/** One paid call, as the client hands it over. */
export interface PaidCall {
	key: OperationKey;
	request: HttpRequest;
	/** Sends the request (with the retry policy) and returns the normalised output. */
	send: () => Promise<unknown>;
	/** The client's ledger. */
	credits: CreditLedger;
	/** The balance for the floor, when the ledger does not know it (one Get Credits). */
	readBalance: () => Promise<number | undefined>;
	/** The balance an output reports, when it does. */
	remainingOf: (output: unknown) => number | undefined;
	/** See CallOptions.minCreditsToKeep. */
	minCreditsToKeep?: number;
	/** See CallOptions.memo. */
	memo?: PaidCallMemo;
}

/** Sends a paid call unless the memory holds it, within the credit floor; returns its output. */
export async function sendPaidCall(call: PaidCall): Promise<unknown> {
	const { key, request, credits, memo } = call;
	// A paid call the memory holds: its answer again, or its ambiguous failure again; nothing is sent.
	const ticket = memo?.open(request);
	if (ticket?.recalled?.kind === 'answered') return ticket.recalled.value;
	if (ticket?.recalled?.kind === 'unclear') throw errorOfUnclear(ticket.recalled.failure);
	// A paid call reserves its cost before it is sent (and is refused here when that would pass the floor).
	const reservation = await credits.reserve(getOperation(key).cost, call.minCreditsToKeep, call.readBalance, (balance, reserved) =>
		floorError(key, call.minCreditsToKeep ?? 0, balance, reserved),
	);
	let out: unknown;
	let failure: unknown;
	let failed = false;
	try {
		out = await call.send();
	} catch (e) {
		failure = e;
		failed = true;
	}
	if (failed) {
		const end = endOf(failure);
		credits.settle(reservation, end);
		if (ticket && memo && end === 'charged') {
			// May have been carried out: remembered, so that a re-run of the step fails it again rather than paying twice.
			if (failure instanceof Error) failure.message = `${failure.message} ${memo.advice}`;
			ticket.keep({ kind: 'unclear', failure: unclearFailureOf(failure) });
		}
		throw failure;
	}
	credits.settle(reservation, 'charged', call.remainingOf(out));
	ticket?.keep({ kind: 'answered', value: out });
	return out;
}

/** The error of a balance read for the floor: a key without `account:read` cannot keep a floor. */
export function balanceReadError(key: OperationKey, error: unknown): unknown {
	const missingScope = error instanceof PostWriterError && error.kind === 'missing_scope';
	return missingScope
		? new CreditFloorError(
				'Minimum Credits to Keep needs to read the balance, and the API key lacks the scope "account:read". Add that scope to the key, or set Minimum Credits to Keep to 0.',
				{ operation: key, field: 'minCreditsToKeep' },
			)
		: error;
}

/** The error of a paid call that Minimum Credits to Keep stops before it is sent (exported for the docs' table of messages). */
export function floorError(key: OperationKey, floor: number, balance: number, reserved: number): CreditFloorError {
	const op = getOperation(key);
	const cost = op.cost ?? 1;
	const inFlight = reserved > 0 ? ` with ${reserved} more reserved by calls in flight` : '';
	return new CreditFloorError(
		`${op.name} was not sent: it costs ${cost} credit${cost === 1 ? '' : 's'}, the balance is ${balance}${inFlight}, and Minimum Credits to Keep is ${floor}. Add credits or lower the minimum.`,
		{ operation: key, field: 'minCreditsToKeep' },
	);
}

/** How a failed paid call ends for the credit floor: charged when the service may have carried it out. */
function endOf(error: unknown): CallEnd {
	if (error instanceof NetworkError || error instanceof RedirectError) return error.ambiguous ? 'charged' : 'refused';
	if (error instanceof ServerError || error instanceof MalformedResponseError) return 'charged';
	if (error instanceof PostWriterError) return 'refused';
	return 'charged';
}
