#!/usr/bin/env node
/**
 * Lints the node and credential descriptions of the BUILT n8n package (n8n/dist,
 * the paths of n8n/package.json's "n8n" field) with eslint-plugin-n8n-nodes-base's
 * node and credential rules, as @n8n/node-cli applies them. The node's
 * parameters are generated from the catalogue at load time, so `n8n-node lint`
 * cannot see them in the source; this lints what n8n receives.
 * The work is done by scripts/lib/lint-descriptions.js (shared with
 * test/n8n/description-lint.test.ts, which lints the TypeScript source classes).
 *
 * Usage: node scripts/lint-descriptions.mjs [--keep] [package-dir]   (default: n8n/)
 *   --keep  keep the generated .ts files and print their folder
 * Exit code 1 when a rule reports a problem, 2 when the lint could not run.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const lib = require('./lib/lint-descriptions.js');

export const { lintDescriptions, entriesFromPackage, nodeEntry, credentialEntry, formatProblem } = lib;

export const DEFAULT_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'n8n');

/** Lints the built classes listed in `packageDir`/package.json. Same result shape as lintDescriptions. */
export async function lintPackageDescriptions(packageDir = DEFAULT_PACKAGE_DIR, options = {}) {
	return await lintDescriptions(entriesFromPackage(packageDir), options);
}

async function main(argv) {
	const keep = argv.includes('--keep');
	const dirArg = argv.find((a) => !a.startsWith('--'));
	const packageDir = dirArg ? path.resolve(dirArg) : DEFAULT_PACKAGE_DIR;
	let result;
	try {
		result = await lintPackageDescriptions(packageDir, { keep });
	} catch (error) {
		process.stderr.write(`lint-descriptions: ${error instanceof Error ? error.message : String(error)}\n`);
		return 2;
	}
	for (const p of result.problems) process.stdout.write(`${formatProblem(p)}\n`);
	const kept = keep ? ` (files kept in ${result.dir})` : '';
	process.stdout.write(
		`lint-descriptions: ${result.files.length} files, ${result.errorCount} errors, ${result.warningCount} warnings${kept}\n`,
	);
	return result.problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.exitCode = await main(process.argv.slice(2));
}
