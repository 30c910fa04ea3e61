/**
 * Small helpers of the n8n end-to-end suite (generic: another e2e project may
 * share them once they are deduplicated).
 */
import { waitUntil } from '../../../scripts/lib/processes';

/** `fn` run once, on the first call; later calls get the same promise (and the same failure). */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
	let result: Promise<T> | undefined;
	return () => (result ??= fn());
}

/**
 * Runs jest expectations; a failure's message ends with `context` (where to
 * look: the log files of n8n), which jest's own message cannot carry.
 */
export function withContext(context: string, assertions: () => void): void {
	try {
		assertions();
	} catch (error) {
		if (error instanceof Error) {
			error.message = `${error.message}\n\n${context}`;
		}
		throw error;
	}
}

/** POSTs to an n8n production webhook; retries for a minute while n8n has not registered it yet (404, nothing started). */
export async function postWebhook(url: string, webhook: string, body: unknown): Promise<number | string> {
	let status: number | string = 0;
	await waitUntil(
		async () => {
			try {
				const r = await fetch(`${url}/webhook/${webhook}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
				await r.text();
				status = r.status;
			} catch (e) {
				status = String(e);
			}
			return status !== 404;
		},
		60_000,
		1000,
	);
	return status;
}
