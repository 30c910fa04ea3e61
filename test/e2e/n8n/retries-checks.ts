/**
 * The tests of [6] (retries.ts): paid batches under Retry On Fail, an
 * execution's Retry through n8n's REST API, and On Error: Continue (using
 * error output), each read from n8n's executions and the sandbox's charges
 * per prompt.
 */
import { OTHER_FIELD_LABELS } from '../../../shared/catalogue';
import type { RetryDeps, RetryResults } from './retries';
import { BATCH, runRetries } from './retries';
import { once, withContext } from './support';

/** The ambiguous failure's title, as the core words it for a 500 on POST /generate. */
const AMBIGUOUS = /^POST \/generate could not be completed by the service \(500 Internal Server Error\)/;
/** The option the message names: the way to send the item again on purpose. */
const RESEND = OTHER_FIELD_LABELS.resendUnclear;

const twice = (charges: number[]) => charges.filter((n) => n > 1).length;

export function retryChecks({ check, deps }: { check: (name: string, fn: () => Promise<void>) => void; deps: () => Promise<RetryDeps> }): void {
	const results = once(async (): Promise<RetryResults> => await runRetries(await deps()));
	const context = (r: RetryResults) => JSON.stringify({ loggedIn: r.loggedIn, stop: r.stop.execution, retry: { ...r.retry, charges: undefined } }).slice(0, 2000);

	describe('[6] paid batches under n8n start: Retry On Fail and a Retry never charge twice', () => {
		check('the owner is logged in to the REST API (POST /rest/login), as the editor is', async () => {
			const r = await results();
			expect(r.loggedIn).toEqual({ ok: true });
		});

		check(`Retry On Fail (3 tries, wait 0), On Error Stop Workflow, ${BATCH} items, one /generate answered 500 after its charge: the execution fails with that item's message, 0 prompts charged twice, every prompt charged once`, async () => {
			const r = await results();
			const { stop } = r;
			withContext(context(r), () => {
				expect(stop.webhookStatus).toBe(200);
				expect(stop.execution?.status).toBe('error');
				expect(stop.execution?.error?.message).toMatch(AMBIGUOUS);
				expect(`${stop.execution?.error?.message} ${stop.execution?.error?.description ?? ''}`).toContain(RESEND);
				expect(twice(stop.charges)).toBe(0);
				// The items the first try never sent were sent by a later one, once: every prompt charged once, one request each.
				expect(stop.charges).toEqual(Array(BATCH).fill(1));
				expect(stop.requests).toBe(BATCH);
			});
		});

		check('that execution retried as the editor\'s Retry button does (POST /rest/executions/:id/retry): mode retry, the same message, nothing sent, 0 prompts charged twice', async () => {
			const r = await results();
			const { stop, retry } = r;
			withContext(context(r), () => {
				expect(retry.error).toBeUndefined();
				expect(retry.ok).toBe(true);
				expect(retry.execution?.mode).toBe('retry');
				expect(retry.execution?.retryOf).toBe(stop.execution?.id);
				expect(retry.execution?.status).toBe('error');
				expect(retry.execution?.error?.message).toBe(stop.execution?.error?.message);
				expect(retry.requests).toBe(0);
				expect(twice(retry.charges)).toBe(0);
				expect(retry.charges).toEqual(Array(BATCH).fill(1));
			});
		});

		check(`On Error: Continue (using error output): each of the ${BATCH} items charged once, the failed one on the error output with its message`, async () => {
			const r = await results();
			const { continued } = r;
			withContext(JSON.stringify(continued.execution).slice(0, 2000), () => {
				expect(continued.webhookStatus).toBe(200);
				expect(continued.execution?.status).toBe('success');
				const [ok, failed] = continued.execution?.generate ?? [];
				expect(ok).toHaveLength(BATCH - 1);
				expect(failed).toHaveLength(1);
				expect(String(failed?.[0]?.error)).toMatch(AMBIGUOUS);
				expect(String(failed?.[0]?.error)).toContain(RESEND);
				expect(continued.charges).toEqual(Array(BATCH).fill(1));
				expect(continued.requests).toBe(BATCH);
			});
		});
	});
}
