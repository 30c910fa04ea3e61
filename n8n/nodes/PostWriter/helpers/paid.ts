/**
 * Paid calls are never paid twice when n8n runs the node again: Settings ›
 * Retry On Fail (the same execution) and a retry of a failed execution
 * (execution mode `retry`). The node's side of shared/paid/paid-memory.ts: its two
 * options, the scope of a run (execution, workflow, node, credential) and the
 * hint that tells when answers were reused.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { OTHER_FIELD_LABELS } from '../../../shared/catalogue';
import { DEFAULT_RETRY_WINDOW_MS, PaidRun } from '../../../shared/paid';
import { ValidationError } from '../../../shared/errors';
import type { Credential } from '../transport';
import { PAID_MEMORY } from '../transport';

export const RESEND_UNCLEAR = 'resendUnclear';
export const PAID_MEMORY_MINUTES = 'paidMemoryMinutes';

/** Options › Remember Paid Answers For, in minutes: an hour by default (shared/paid/paid-memory.ts), a day at most (the memory is bounded in entries and bytes too). */
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

export interface PaidSettings {
	resendUnclear: boolean;
	windowMs: number;
}

/** The two options of the run's Options collection (item 0's); a wrong value is a ValidationError naming the option. */
export function readPaidSettings(options: IDataObject | undefined): PaidSettings {
	const raw = options?.[PAID_MEMORY_MINUTES];
	let minutes = DEFAULT_PAID_MEMORY_MINUTES;
	if (raw !== undefined && raw !== null && raw !== '') {
		minutes = Number(raw);
		if (!Number.isFinite(minutes) || minutes < 1 || minutes > MAX_PAID_MEMORY_MINUTES) {
			throw new ValidationError(PAID_MEMORY_MINUTES, `must be a number of minutes from 1 to ${MAX_PAID_MEMORY_MINUTES}, got ${String(raw)}.`);
		}
	}
	return { resendUnclear: options?.[RESEND_UNCLEAR] === true, windowMs: Math.round(minutes * 60_000) };
}

/** What n8n tells of the run: the execution, the workflow, whether it is a retry. Each may be missing (an older n8n, a test context). */
function runOf(ctx: IExecuteFunctions): { execution?: string; workflow?: string; retry: boolean } {
	const call = <T>(fn: (() => T) | undefined): T | undefined => {
		try {
			return typeof fn === 'function' ? fn.call(ctx) : undefined;
		} catch {
			return undefined;
		}
	};
	const execution = call(ctx.getExecutionId);
	const workflow = call(ctx.getWorkflow)?.id;
	return {
		execution: typeof execution === 'string' && execution !== '' ? execution : undefined,
		workflow: typeof workflow === 'string' && workflow !== '' ? workflow : undefined,
		retry: call(ctx.getMode) === 'retry',
	};
}

/** The run's place in the process's memory of paid calls; none when n8n tells neither the execution nor the workflow (nothing could find it again). */
export function openPaidRun(ctx: IExecuteFunctions, credential: Credential, settings: PaidSettings): PaidRun | undefined {
	const node = ctx.getNode();
	const run = runOf(ctx);
	if (run.execution === undefined && run.workflow === undefined) return undefined;
	return new PaidRun(PAID_MEMORY, {
		credential: `${credential.baseUrl}\n${credential.apiKey}`,
		step: node.id ?? node.name,
		...run,
		windowMs: settings.windowMs,
		resendUnclear: settings.resendUnclear,
		advice: UNCLEAR_ADVICE,
	});
}

/** The output pane says when answers were reused instead of paid again. */
export function reuseHint(ctx: IExecuteFunctions, run: PaidRun): void {
	const n = run.reused.size;
	if (n === 0 || typeof ctx.addExecutionHints !== 'function') return;
	ctx.addExecutionHints({
		message: `${n} item${n === 1 ? '' : 's'} reused from the previous try, not charged again (answers of paid calls are kept for ${MEMORY_SETTING}).`,
		location: 'outputPane',
	});
}
