/**
 * What n8n's verification scanner checks, offline, on the built n8n package
 * (scripts/lib/verify-n8n.ts): one test per check. Build first: npm run build.
 * The scanner is an ES module, which jest's module registry cannot load: the
 * checks run once, in a child Node process (scripts/verify-n8n.ts, through
 * ts-node), whose lines are printed as they come; each test reads its result.
 * Run by `npm run verify:n8n`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { VerifyCheck } from '../../scripts/lib/verify-n8n';
import { VERIFY_CHECKS, formatCheck } from '../../scripts/lib/verify-n8n';

const ROOT = path.resolve(__dirname, '..', '..');
let checks: VerifyCheck[] = [];
let runError = '';

beforeAll(async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-n8n-report-'));
	const jsonFile = path.join(dir, 'checks.json');
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'scripts', 'verify-n8n.ts'), '--json', jsonFile], {
		cwd: ROOT,
		env: { ...process.env, NODE_ENV: undefined },
		stdio: ['ignore', 'inherit', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += String(chunk);
		process.stderr.write(chunk);
	});
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	try {
		checks = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as VerifyCheck[];
	} catch {
		runError = `scripts/verify-n8n.ts left no result (exit ${code}): ${stderr.trim()}`;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

describe('n8n verification (offline)', () => {
	it.each(VERIFY_CHECKS.map((name) => [name]))('%s', (name) => {
		if (runError) throw new Error(runError);
		const c = checks.find((x) => x.name === name);
		if (!c) throw new Error(`no result for "${name}"`);
		if (!c.ok) throw new Error(formatCheck(c));
	});
});
