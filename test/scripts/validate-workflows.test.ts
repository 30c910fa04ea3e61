/**
 * scripts/lib/workflow-validation.ts: the repository's workflows pass, and the validators really
 * catch broken workflows (a YAML error, a schema error, an expression error) written to a
 * temporary folder. Offline. (CI runs the same validation per workflow: npm run validate:workflows.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Validators } from '../../scripts/lib/workflow-validation';
import { WORKFLOWS_DIR, loadValidators, validateWorkflow, workflowFiles } from '../../scripts/lib/workflow-validation';

const VALID = `name: ok
on: [push]
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "\${{ secrets.NPM_TOKEN != '' }}"
`;

/** Broken variants of VALID, each caught by a different check. */
const BROKEN: Record<string, { yaml: string; expect: RegExp }> = {
	'yaml-indentation.yml': {
		// steps: dedented by one space: not YAML any more
		yaml: VALID.replace('    steps:', '   steps:'),
		expect: /Parse Error.*\[action-validator parse_error\]/,
	},
	'schema-typo.yml': {
		// "step:" instead of "steps:": a key the workflow schema does not allow
		yaml: VALID.replace('    steps:', '    step:'),
		expect: /Additional property 'step' is not allowed/,
	},
	'missing-runs-on.yml': {
		yaml: VALID.replace('    runs-on: ubuntu-latest\n', ''),
		expect: /runs-on: This property is required/,
	},
	'expression-context.yml': {
		// valid YAML and valid against the schema; only the expression is wrong
		yaml: VALID.replace('secrets.NPM_TOKEN', 'secret.NPM_TOKEN'),
		expect: /undefined variable "secret".*\[actionlint expression\]/,
	},
	'permission-value.yml': {
		yaml: VALID.replace('contents: read', 'id-token: writ'),
		expect: /permissions\/id-token: Enum conditions are not met/,
	},
};

let tmp: string;
let validators: Validators;
beforeAll(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'validate-workflows-'));
	validators = loadValidators();
});
afterAll(() => {
	fs.rmSync(tmp, { recursive: true, force: true });
});

function write(dir: string, name: string, yaml: string) {
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, yaml);
	return file;
}

describe('validate-workflows', () => {
	it('passes every workflow of this repository', async () => {
		const files = workflowFiles();
		expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['ci.yml', 'release-n8n.yml', 'release-zapier.yml']));
		expect(fs.readdirSync(WORKFLOWS_DIR).filter((f) => /\.ya?ml$/.test(f))).toHaveLength(files.length);
		for (const file of files) expect(await validateWorkflow(file, validators)).toEqual({ file: path.relative(path.resolve(__dirname, '../..'), file), problems: [] });
	});

	it('passes the valid sample that the broken ones are derived from', async () => {
		const r = await validateWorkflow(write(path.join(tmp, 'valid'), 'valid.yml', VALID), validators);
		expect(r.problems).toEqual([]);
	});

	it.each(Object.entries(BROKEN))('fails %s', async (name, { yaml, expect: message }) => {
		const file = write(path.join(tmp, 'broken'), name, yaml);
		const r = await validateWorkflow(file, validators);
		expect(r.file).toBe(file);
		expect(r.problems.join('\n')).toMatch(message);
	});

	it('finds the good and the broken workflow of a folder, sorted, and fails only the broken one', async () => {
		const dir = path.join(tmp, 'mixed');
		write(dir, 'b-bad.yaml', BROKEN['schema-typo.yml'].yaml);
		write(dir, 'a-good.yml', VALID);
		write(dir, 'notes.txt', 'not a workflow');
		const files = workflowFiles(dir);
		expect(files.map((f) => path.basename(f))).toEqual(['a-good.yml', 'b-bad.yaml']);
		const results = await Promise.all(files.map((f) => validateWorkflow(f, validators)));
		expect(results.map((r) => r.problems.length > 0)).toEqual([false, true]);
	});

	it('finds nothing in a folder without workflows', () => {
		fs.mkdirSync(path.join(tmp, 'empty'));
		expect(workflowFiles(path.join(tmp, 'empty'))).toEqual([]);
	});
});
