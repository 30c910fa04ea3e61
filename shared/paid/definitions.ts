/**
 * shared/paid's definitions: what a platform shows of the memory of paid calls when it loads (n8n's default
 * for Remember Paid Answers For), without the memory itself. The folder's second entry, beside index.ts (which
 * exports this too): it imports nothing, so the code that only describes loads none of paid/
 * (test/shared/structure.test.ts).
 */

/** How long an execution's answers serve a retry of it: an hour, the time a user takes to see a failure and click Retry (paid-memory.ts). */
export const DEFAULT_RETRY_WINDOW_MS = 60 * 60_000;
