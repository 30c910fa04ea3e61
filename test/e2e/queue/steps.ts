/**
 * What the end-to-end tests of this folder (and test/e2e/zapier-cli) share:
 * steps run once and read by several tests, a typed waitFor, progress lines.
 */

/**
 * A step run once, on the first call, whose result (or error) every later
 * call gets: the tests that need it await it, so a step that throws fails each
 * of them with its error, and a test left out by `-t` never starts a step that
 * only it needs.
 */
export function step<T>(run: () => Promise<T>): () => Promise<T> {
	let result: Promise<T> | undefined;
	return () => (result ??= run());
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` (sync or async) until true or `timeoutMs`; resolves its last answer. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 500): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await predicate()) return true;
		await sleep(intervalMs);
	}
	return await predicate();
}

/**
 * A progress line, written at once (jest runs these projects in band, so it
 * reaches the terminal and CI's log as it happens, without console.log's stack
 * line), and appended to `logFile` when given.
 */
export function sayer(write: (line: string) => void = () => undefined): (message?: string) => void {
	return (message = '') => {
		process.stdout.write(`${message}\n`);
		write(message);
	};
}

/**
 * Runs `cleanup` on SIGINT and SIGTERM (the n8n processes and servers run in
 * process groups of their own, which Ctrl-C does not reach), then exits with
 * 130 or 143. Returns the function that removes the handlers (afterAll).
 */
export function onInterrupt(cleanup: () => Promise<void>): () => void {
	const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
		const handler = () => {
			process.stdout.write(`\n${signal}: stopping what the tests started\n`);
			void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		};
		process.on(signal, handler);
		return () => process.off(signal, handler);
	});
	return () => handlers.forEach((off) => off());
}

/**
 * jest's toEqual, with `context` (log paths, figures) on both sides: equal
 * there, it shows in a failure's diff beside what differs.
 */
export function expectEqual(actual: Record<string, unknown>, expected: Record<string, unknown>, context: Record<string, unknown> = {}): void {
	expect({ ...actual, context }).toEqual({ ...expected, context });
}
