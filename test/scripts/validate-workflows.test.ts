/**
 * scripts/validate-workflows.js: the repository's workflows pass, and the validators really
 * catch broken workflows (a YAML error, a schema error, an expression error) written to a
 * temporary folder. Runs the script as CI does, in a child process, offline.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'validate-workflows.js');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

function validate(...args: string[]) {
	const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
	return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

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
beforeAll(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'validate-workflows-'));
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
	it('passes every workflow of this repository', () => {
		const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
		expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release-n8n.yml', 'release-zapier.yml']));
		const r = validate();
		expect(r.out).toContain(`workflows: ${files.length} passed, 0 failed`);
		for (const f of files) expect(r.out).toContain(`PASS  .github/workflows/${f}`);
		expect(r.status).toBe(0);
	});

	it('passes the valid sample that the broken ones are derived from', () => {
		const r = validate(write(path.join(tmp, 'valid'), 'valid.yml', VALID));
		expect(r.out).toContain('workflows: 1 passed, 0 failed');
		expect(r.status).toBe(0);
	});

	it.each(Object.entries(BROKEN))('fails %s', (name, { yaml, expect: message }) => {
		const file = write(path.join(tmp, 'broken'), name, yaml);
		const r = validate(file);
		expect(r.out).toContain(`FAIL  ${file}`);
		expect(r.out).toMatch(message);
		expect(r.out).toContain('workflows: 0 passed, 1 failed');
		expect(r.status).toBe(1);
	});

	it('counts a folder with a good and a broken workflow as one failure', () => {
		const dir = path.join(tmp, 'mixed');
		write(dir, 'a-good.yml', VALID);
		write(dir, 'b-bad.yaml', BROKEN['schema-typo.yml'].yaml);
		const r = validate(dir);
		expect(r.out).toMatch(/PASS {2}\S*a-good\.yml/);
		expect(r.out).toMatch(/FAIL {2}\S*b-bad\.yaml/);
		expect(r.out).toContain('workflows: 1 passed, 1 failed');
		expect(r.status).toBe(1);
	});

	it('fails when there is nothing to validate', () => {
		fs.mkdirSync(path.join(tmp, 'empty'));
		const r = validate(path.join(tmp, 'empty'));
		expect(r.out).toContain('workflows: 0 passed, 0 failed');
		expect(r.status).toBe(1);
	});
});
