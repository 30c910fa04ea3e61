/**
 * Small helpers of the n8n end-to-end suite (generic: another e2e project may
 * share them once they are deduplicated).
 */

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
