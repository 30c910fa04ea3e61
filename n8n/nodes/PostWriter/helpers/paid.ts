/**
 * Paid calls are never paid twice when n8n runs the node again: Settings ›
 * Retry On Fail (the same execution) and a retry of a failed execution
 * (execution mode `retry`). The node's side of shared/paid/paid-memory.ts: its two
 * options, their names and bounds, and the words that name them. What a run
 * does with them (its settings read, its scope, the hint that tells when
 * answers were reused) is paid-run.ts, loaded with the execution.
 */
import type { INodeProperties } from 'n8n-workflow';

import { OTHER_FIELD_LABELS } from '../../../shared/catalogue/definitions';
import { DEFAULT_RETRY_WINDOW_MS } from '../../../shared/paid/definitions';

export const RESEND_UNCLEAR = 'resendUnclear';
export const PAID_MEMORY_MINUTES = 'paidMemoryMinutes';

/** Options › Remember Paid Answers For, in minutes: an hour by default (shared/paid/definitions.ts), a day at most (the memory is bounded in entries and bytes too). */
export const DEFAULT_PAID_MEMORY_MINUTES = DEFAULT_RETRY_WINDOW_MS / 60_000;
export const MAX_PAID_MEMORY_MINUTES = 24 * 60;

/** The settings as the messages name them. */
export const RESEND_SETTING = `Options › ${OTHER_FIELD_LABELS[RESEND_UNCLEAR]}`;
export const MEMORY_SETTING = `Options › ${OTHER_FIELD_LABELS[PAID_MEMORY_MINUTES]}`;

/** Said after an ambiguous failure of a paid call: why the node does not send it again, and how to send it on purpose. */
export const UNCLEAR_ADVICE = `Running the node again (Retry On Fail, or Retry of the execution) fails this item again without sending it; to send it again on purpose, turn on ${RESEND_SETTING}.`;

/** Options › Send Again After an Unclear Failure: off by default. */
export function resendUnclearOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[RESEND_UNCLEAR],
		name: RESEND_UNCLEAR,
		type: 'boolean',
		default: false,
		description:
			'Whether a paid call that failed without a clear answer (a timeout, a lost connection, a server error: the service may have charged it) is sent again when n8n runs the node again (Retry On Fail, Retry of the execution). Off: the item fails again with the same message and nothing is charged twice.',
	};
}

/** Options › Remember Paid Answers For: how long an execution's paid answers serve a retry of it. */
export function paidMemoryOption(): INodeProperties {
	return {
		displayName: OTHER_FIELD_LABELS[PAID_MEMORY_MINUTES],
		name: PAID_MEMORY_MINUTES,
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PAID_MEMORY_MINUTES, numberPrecision: 0 },
		default: DEFAULT_PAID_MEMORY_MINUTES,
		description: `Minutes this n8n process keeps the answers of paid calls, so that Retry On Fail and a Retry of the execution reuse them instead of paying again (${DEFAULT_PAID_MEMORY_MINUTES} when not set). In queue mode each worker keeps its own.`,
	};
}
