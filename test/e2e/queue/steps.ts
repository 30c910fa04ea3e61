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

declare global {
	/** Set by test/e2e/queue/environment.js: a listener on the real process (the tests' `process` is jest's copy). */
	var onHostSignal: ((signal: NodeJS.Signals, listener: () => void) => () => void) | undefined;
}

/**
 * Runs `cleanup` on SIGINT and SIGTERM (the n8n processes and servers run in
 * process groups of their own, which Ctrl-C does not reach), then exits with
 * 130 or 143. Returns the function that removes the handlers (afterAll).
 * Needs the project's testEnvironment to be test/e2e/queue/environment.js.
 */
export function onInterrupt(cleanup: () => Promise<void>): () => void {
	const on = globalThis.onHostSignal;
	if (!on) throw new Error('onInterrupt needs testEnvironment test/e2e/queue/environment.js (jest\'s own `process` gets no signal)');
	const removers = (['SIGINT', 'SIGTERM'] as const).map((signal) =>
		on(signal, () => {
			process.stdout.write(`\n${signal}: stopping what the tests started\n`);
			void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		}),
	);
	return () => removers.forEach((off) => off());
}

/**
 * `env` for a child process, without what jest sets for its own tests:
 * NODE_ENV=test silences n8n (its logger is silent in tests, so an import
 * prints nothing and a main writes no log), JEST_WORKER_ID marks a jest worker.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const copy = { ...env };
	delete copy.NODE_ENV;
	delete copy.JEST_WORKER_ID;
	return copy;
}

/**
 * jest's toEqual, with `context` (log paths, figures) on both sides: equal
 * there, it shows in a failure's diff beside what differs.
 */
export function expectEqual(actual: Record<string, unknown>, expected: Record<string, unknown>, context: Record<string, unknown> = {}): void {
	expect({ ...actual, context }).toEqual({ ...expected, context });
}
