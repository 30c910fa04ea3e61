/**
 * The quota's time budget that ran out (the n8n node's Maximum Wait for the Quota, Zapier's 10 s, the SDK's
 * `maxQuotaWaitMs`), and the words a refusal's message gives it (classes.ts).
 */

/** The quota's time budget that ran out: what the message names. */
export interface QuotaBudget {
	/** The budget (ms) and the time waited (ms): for a 429, since the quota last let one of the operation's calls through. */
	budgetMs: number;
	waitedMs: number;
	/** Refusals of the call. */
	refusals: number;
	/** What the answers said of the quota ("10 calls per 1 s"), when they did. */
	quota?: string;
	/** The setting that sets the budget, as the platform names it. */
	setting?: string;
}

const duration = (ms: number) => (ms >= 180_000 ? `${Number((ms / 60_000).toFixed(1))} min` : `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`);

/** What ran out: the refusals and the wait so far, or (at the first refusal) a delay longer than the whole budget. */
export function budgetText(b: QuotaBudget, delayMs: number | undefined): string {
	const quota = b.quota ? ` The service allows ${b.quota}.` : ' The service did not say its quota.';
	const setting = b.setting ? ` (${b.setting})` : '';
	if (b.refusals <= 1 && delayMs !== undefined) {
		return `the service asks to wait ${duration(delayMs)}, longer than the ${duration(b.budgetMs)} allowed${setting}.${quota}`;
	}
	return `the call was refused ${b.refusals} time${b.refusals === 1 ? '' : 's'} and waited ${duration(b.waitedMs)} for the quota with none of these calls let through; one more wait would pass the ${duration(b.budgetMs)} allowed${setting}.${quota}`;
}
