/**
 * A jest reporter that captures the whole output of a run for the secret
 * scan (scripts/secret-scan.ts): every byte written to stdout and stderr
 * (tee'd, so the terminal still shows it), each test file's console output
 * and failure messages, and the aggregated results (the same content as
 * `jest --json`). It writes `jest-<name>.log` in the scan directory.
 *
 * List it FIRST in `reporters`, before 'default', so that the default
 * reporter's own writes go through the tee.
 * Options: { name: 'chaos' } (default: 'main').
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

/**
 * The scan directory, as scanDir() of scripts/lib/secret-scan.ts has it (test/chaos/secret-scan.test.ts
 * checks that they agree): jest loads reporters with plain require, which cannot load TypeScript.
 */
function scanDir() {
	return process.env.SECRET_SCAN_DIR || path.join(os.tmpdir(), 'post-writer-secret-scan');
}

class LogReporter {
	constructor(_globalConfig, options = {}) {
		this.dir = scanDir();
		fs.mkdirSync(this.dir, { recursive: true });
		this.file = path.join(this.dir, `jest-${options.name || 'main'}.log`);
		fs.writeFileSync(this.file, `# jest run ${new Date().toISOString()} pid ${process.pid}\n`);
		for (const stream of [process.stdout, process.stderr]) {
			const original = stream.write.bind(stream);
			const file = this.file;
			stream.write = (chunk, encoding, cb) => {
				try {
					fs.appendFileSync(file, typeof chunk === 'string' ? chunk : Buffer.from(chunk));
				} catch {
					/* the capture must never break the run */
				}
				return original(chunk, encoding, cb);
			};
		}
	}

	append(text) {
		fs.appendFileSync(this.file, `${text}\n`);
	}

	onTestResult(_test, result) {
		this.append(`\n# file ${result.testFilePath}`);
		for (const entry of result.console || []) this.append(`console.${entry.type}: ${entry.message}\n${entry.origin || ''}`);
		if (result.failureMessage) this.append(result.failureMessage);
		if (result.testExecError) this.append(JSON.stringify(result.testExecError));
		for (const a of result.testResults || []) {
			this.append(`${a.status}: ${a.fullName}`);
			for (const m of a.failureMessages || []) this.append(m);
			for (const d of a.failureDetails || []) {
				try {
					this.append(JSON.stringify(d));
				} catch {
					this.append(String(d));
				}
			}
		}
	}

	onRunComplete(_contexts, results) {
		// The same JSON `jest --json` writes.
		const json = JSON.stringify(results, (k, v) => (k === 'coverageMap' ? undefined : v));
		this.append(`\n# aggregated results (jest --json)\n${json}`);
	}
}

module.exports = LogReporter;
module.exports.scanDir = scanDir;
