/**
 * Lints the node and credential descriptions of the n8n package with
 * eslint-plugin-n8n-nodes-base's node and credential rules, as @n8n/node-cli
 * applies them. The node's parameters are generated from the catalogue at load
 * time, so `n8n-node lint` cannot see them in the source; this lints what n8n
 * receives: the classes of the BUILT package (n8n/dist, the paths of
 * n8n/package.json's "n8n" field; verify:n8n runs it), or with --source their
 * TypeScript sources, with no build (`npm run lint` runs that).
 * The work is done by scripts/lib/lint-descriptions.ts.
 *
 * Usage: npm run lint:descriptions -- [--source] [--keep] [package-dir]   (default: n8n/)
 *   --source  the .ts sources of the listed classes, not the built ones
 *   --keep    keep the generated .ts files and print their folder
 * Exit code 1 when a rule reports a problem, 2 when the lint could not run.
 */
import * as path from 'node:path';
import type { DescriptionLintResult } from './lib/lint-descriptions';
import { DEFAULT_PACKAGE_DIR, entriesFromSource, formatProblem, lintDescriptions, lintPackageDescriptions } from './lib/lint-descriptions';

async function main(argv: string[]): Promise<number> {
	const keep = argv.includes('--keep');
	const source = argv.includes('--source');
	const dirArg = argv.find((a) => !a.startsWith('--'));
	const packageDir = dirArg ? path.resolve(dirArg) : DEFAULT_PACKAGE_DIR;
	let result: DescriptionLintResult;
	try {
		result = source ? await lintDescriptions(entriesFromSource(packageDir), { keep }) : await lintPackageDescriptions(packageDir, { keep });
	} catch (error) {
		process.stderr.write(`lint-descriptions: ${error instanceof Error ? error.message : String(error)}\n`);
		return 2;
	}
	for (const p of result.problems) process.stdout.write(`${formatProblem(p)}\n`);
	const kept = keep ? ` (files kept in ${result.dir})` : '';
	process.stdout.write(`lint-descriptions: ${result.files.length} files, ${result.errorCount} errors, ${result.warningCount} warnings${kept}\n`);
	return result.problems.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => {
	process.exitCode = code;
});
