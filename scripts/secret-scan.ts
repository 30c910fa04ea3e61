/**
 * Secret scan of everything the tests printed, threw or produced, for sandbox
 * API keys (scripts/lib/secret-scan.ts says what is scanned and what a hit is).
 *
 * Usage:
 *   ts-node --transpile-only scripts/secret-scan.ts [--dir <dir>] [--require <name>…] [extra files…]
 *   ts-node --transpile-only scripts/secret-scan.ts --reset [--dir <dir>]     empty the scan directory
 * The directory defaults to $SECRET_SCAN_DIR or <tmp>/post-writer-secret-scan.
 * Exit code: 0 when 0 hits, 1 on any hit, 2 when there is nothing (or too
 * little) to scan: a scan of nothing proves nothing.
 */
import * as fs from 'node:fs';
import { scan, scanDir } from './lib/secret-scan';

function say(message: string): void {
	process.stdout.write(`${message}\n`);
}

function fail(message: string): void {
	process.stderr.write(`secret-scan: FAILED: ${message}\n`);
}

function main(argv: string[]): number {
	const args = { dir: scanDir(), extra: [] as string[], require: [] as string[], reset: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--dir') args.dir = argv[++i];
		else if (a === '--require') args.require.push(argv[++i]);
		else if (a === '--reset') args.reset = true;
		else if (a === '--help') {
			say(fs.readFileSync(__filename, 'utf8').split('*/')[0]);
			return 0;
		} else args.extra.push(a);
	}
	if (args.reset) {
		fs.rmSync(args.dir, { recursive: true, force: true });
		fs.mkdirSync(args.dir, { recursive: true });
		say(`secret-scan: emptied ${args.dir}`);
		return 0;
	}
	const report = scan(args);
	for (const f of report.files) {
		say(`secret-scan: ${String(f.hits).padStart(3)} hit(s) in ${f.file} (${f.bytes} bytes)`);
		for (const s of f.samples) say(`    ${s}`);
	}
	say(`secret-scan: ${report.hits} hit(s) for ${report.keysKnown} known keys and the pattern pw_live_<32 hex>, in ${report.files.length} file(s), ${report.bytes} bytes`);
	if (report.problems.length > 0) {
		for (const p of report.problems) fail(p);
		fail('a scan of nothing proves nothing; run the tests with the log reporter first (npm run test:chaos).');
		return 2;
	}
	if (report.hits > 0) {
		fail(`${report.hits} API key(s) found in test output`);
		return 1;
	}
	return 0;
}

process.exitCode = main(process.argv.slice(2));
