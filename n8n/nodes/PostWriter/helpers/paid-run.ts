/**
 * A run's side of the memory of paid calls (paid.ts has the options): the
 * two options read, the run's scope in the process's memory (execution,
 * workflow, node, credential) and the hint that tells when answers were
 * reused. Loaded with the execution (execute.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PaidRun } from '../../../shared/paid';
import { ValidationError } from '../../../shared/errors';
import type { Credential } from '../transport';
import { PAID_MEMORY } from '../transport';
import { DEFAULT_PAID_MEMORY_MINUTES, MAX_PAID_MEMORY_MINUTES, MEMORY_SETTING, PAID_MEMORY_MINUTES, RESEND_UNCLEAR, UNCLEAR_ADVICE } from './paid';

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
