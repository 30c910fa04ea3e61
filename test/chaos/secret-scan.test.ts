/**
 * The secret scanner itself (scripts/secret-scan.ts), black-box: it finds a
 * planted key, finds 0 in clean output, and fails loudly on an empty capture.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanDir } from '../../scripts/lib/secret-scan';

const SCRIPT = join(__dirname, '../../scripts/secret-scan.ts');
const FILLER = 'ok: POST /generate -> 200 {"proposals":["…"],"creditsRemaining":99}\n'.repeat(60);

function scan(dir: string, ...args: string[]) {
	const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', SCRIPT, '--dir', dir, ...args], { encoding: 'utf8' });
	return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function dirWith(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'secret-scan-test-'));
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(join(dir, name, '..'), { recursive: true });
		writeFileSync(join(dir, name), text);
	}
	return dir;
}

test('clean output: 0 hits, exit 0, the count is printed', () => {
	const r = scan(dirWith({ 'jest-chaos.log': FILLER, 'items-1.log': 'Authorization: Bearer [redacted]\n' }), '--require', 'jest-chaos');
	expect(r.out).toMatch(/secret-scan: 0 hit\(s\)/);
	expect(r.code).toBe(0);
});

test('a key in the sandbox format anywhere is a hit (exit 1), and is not printed in full', () => {
	const key = `pw_live_${'ab12'.repeat(8)}`;
	const r = scan(dirWith({ 'jest-chaos.log': FILLER, 'items-1.log': `error: Invalid API key ${key}\n` }));
	expect(r.code).toBe(1);
	expect(r.out).toMatch(/secret-scan: 1 hit\(s\) for/);
	expect(r.out).not.toContain(key);
});

test('a key listed in keys/, in another format, is a hit too', () => {
	const key = 'pw_live_CUSTOM-key-written-by-a-run';
	const r = scan(dirWith({ 'jest-chaos.log': `${FILLER}leaked ${key}`, 'keys/keys-1.txt': `${key}\n` }));
	expect(r.code).toBe(1);
});

test('the keys derived from the chaos keySeeds are known without a key file', () => {
	const key = `pw_live_${createHash('sha256').update('chaos-n8n:revoked').digest('hex').slice(0, 32)}`;
	const r = scan(dirWith({ 'jest-chaos.log': `${FILLER}${key.toUpperCase()} ${key}` }));
	expect(r.code).toBe(1);
	expect(r.out).toMatch(/1 hit\(s\) in/);
});

test('an empty capture fails loudly (exit 2)', () => {
	const r = scan(dirWith({}));
	expect(r.code).toBe(2);
	expect(r.out).toMatch(/FAILED: no output to scan/);
	expect(r.out).toMatch(/a scan of nothing proves nothing/);
});

test('a required capture that is missing fails loudly (exit 2)', () => {
	const r = scan(dirWith({ 'jest-main.log': FILLER }), '--require', 'jest-chaos');
	expect(r.code).toBe(2);
	expect(r.out).toMatch(/nothing captured for "jest-chaos"/);
});

test('a required folder (e2e-queue/…: logs and a Postgres dump) is scanned, and found or missed', () => {
	const key = `pw_live_${'cd34'.repeat(8)}`;
	const found = scan(dirWith({ 'e2e-queue/n8n-main.log': FILLER, 'e2e-queue/n8n-db.sql': "INSERT INTO execution_data VALUES ('{}');\n" }), '--require', 'e2e-queue');
	expect(found.code).toBe(0);
	const leaked = scan(dirWith({ 'e2e-queue/n8n-main.log': FILLER, 'e2e-queue/n8n-db.sql': `INSERT INTO execution_data VALUES ('${key}');\n` }), '--require', 'e2e-queue');
	expect(leaked.code).toBe(1);
	const missing = scan(dirWith({ 'jest-main.log': FILLER }), '--require', 'e2e-queue');
	expect(missing.code).toBe(2);
});

test("the log reporter (plain JavaScript, as jest loads reporters) writes where the scanner looks", () => {
	const reporter = jest.requireActual<{ scanDir(): string }>('./log-reporter.js');
	const saved = process.env.SECRET_SCAN_DIR;
	try {
		delete process.env.SECRET_SCAN_DIR;
		expect(reporter.scanDir()).toBe(scanDir());
		process.env.SECRET_SCAN_DIR = join(tmpdir(), 'elsewhere');
		expect(reporter.scanDir()).toBe(scanDir());
	} finally {
		if (saved === undefined) delete process.env.SECRET_SCAN_DIR;
		else process.env.SECRET_SCAN_DIR = saved;
	}
});
