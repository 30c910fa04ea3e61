/**
 * CI's totals, from the test runners' JSON reports (scripts/lib/test-reports.ts):
 * one line per suite (passed, failed, skipped), then the grand total.
 *   ts-node --transpile-only scripts/ci-summary.ts --reports <dir> <name>…
 * reads <dir>/<name>.json for each name (jest's or Playwright's JSON report);
 * a missing report counts as a failure. Exits 1 when a suite failed.
 */
import * as path from 'node:path';
import { readReport, summarize } from './lib/test-reports';

const args = process.argv.slice(2);
const at = args.indexOf('--reports');
if (at < 0 || !args[at + 1]) {
	process.stderr.write('usage: ci-summary.ts --reports <dir> <name>…\n');
	process.exit(2);
}
const dir = args.splice(at, 2)[1];
if (args.length === 0) {
	process.stderr.write('ci-summary: no suite named\n');
	process.exit(2);
}
const { lines, ok } = summarize(args.map((name) => readReport(name, path.join(dir, `${name}.json`))));
for (const line of lines) process.stdout.write(`${line}\n`);
process.exitCode = ok ? 0 : 1;
