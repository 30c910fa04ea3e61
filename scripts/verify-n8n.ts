/**
 * Runs the checks of n8n's verification scanner on the built n8n package
 * (scripts/lib/verify-n8n.ts) and prints one line per check, its problems below.
 * `npm run verify:n8n` runs it through jest (test/verify/n8n.test.ts: one test
 * per check, for CI's JSON report), which starts this in a child process:
 *   ts-node --transpile-only scripts/verify-n8n.ts [--json <file>]
 * --json writes the checks ([{ name, ok, summary, details }]) to <file>.
 * Exits 1 when a check fails.
 */
import * as fs from 'node:fs';
import { formatCheck, verifyN8n } from './lib/verify-n8n';

const at = process.argv.indexOf('--json');
const jsonFile = at >= 0 ? process.argv[at + 1] : undefined;

verifyN8n((c) => process.stdout.write(`${formatCheck(c)}\n`)).then(
	(checks) => {
		if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(checks, null, 2));
		process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
	},
	(error: unknown) => {
		process.stderr.write(`verify-n8n: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 2;
	},
);
