/**
 * Runs shell commands side by side as suites (scripts/lib/suites.ts): each
 * one's output in <out>/<name>.log, printed whole when it ends, at most
 * --concurrency at a time; then a table of how each ended.
 *   ts-node --transpile-only scripts/run-suites.ts --out <dir> [--concurrency N] [--timeout-min M] <name>=<command> …
 * Exits 1 when a suite fails or runs over its time.
 */
import { report, runSuites } from './lib/suites';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
	const i = args.indexOf(`--${name}`);
	return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const outDir = opt('out', '.e2e/suites');
const concurrency = Number(opt('concurrency', '3'));
const timeoutMs = Number(opt('timeout-min', '30')) * 60_000;
const suites = args.map((a) => {
	const eq = a.indexOf('=');
	if (eq <= 0) throw new Error(`expected <name>=<command>, got "${a}"`);
	return { name: a.slice(0, eq), command: 'bash', args: ['-c', a.slice(eq + 1)], timeoutMs };
});

runSuites(suites, { outDir, concurrency }).then((results) => process.exit(report(results) ? 0 : 1));
