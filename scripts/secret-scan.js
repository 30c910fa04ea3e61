#!/usr/bin/env node
/**
 * Secret scan: searches everything the tests and the chaos suite printed,
 * threw or produced for sandbox API keys. Must find 0.
 *
 * What is scanned (all files under the scan directory, plus files given as arguments):
 *   - `jest-<run>.log`: every byte jest wrote to stdout/stderr, test console
 *     output, failure messages and the full `--json` results of the run
 *     (written by test/chaos/log-reporter.js);
 *   - `items-<pid>.log`: every output item, thrown error (deeply inspected,
 *     causes and attached request data included) and node/app output the
 *     chaos and bad-input tests saw (written by test/chaos/harness.ts);
 *   - any extra file on the command line (CI logs, e2e output…).
 *
 * What counts as a hit:
 *   - any string in the sandbox key format, `pw_live_` + 32 hex characters;
 *   - any key listed in `keys/*.txt` (every key the chaos sandboxes used,
 *     written outside the scanned logs), wherever it appears;
 *   - the keys derived from the chaos suite's fixed `keySeed`s.
 *
 * Usage:
 *   node scripts/secret-scan.js [--dir <dir>] [--require <name>…] [extra files…]
 *   node scripts/secret-scan.js --reset [--dir <dir>]     empty the scan directory
 * The directory defaults to $SECRET_SCAN_DIR or <tmp>/post-writer-secret-scan.
 * Exit code: 0 when 0 hits, 1 on any hit, 2 when there is nothing (or too
 * little) to scan: a scan of nothing proves nothing.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');

const KEY_PATTERN = /pw_live_[0-9a-f]{32}/g;
/** The keySeeds used by the chaos harness; the sandbox derives key <name> as sha256(`${seed}:${name}`)[0..32]. */
const KNOWN_KEY_SEEDS = ['chaos-core', 'chaos-n8n', 'chaos-zapier', 'chaos-bad-inputs', 'chaos-bench'];
const KEY_NAMES = ['full', 'readonly', 'revoked', 'expired', 'noCredits', 'other'];
/** A run that logged less than this has not really been captured. */
const MIN_BYTES = 2048;

function scanDir() {
	return process.env.SECRET_SCAN_DIR || path.join(os.tmpdir(), 'post-writer-secret-scan');
}

function keysFromSeed(seed) {
	return KEY_NAMES.map((name) => `pw_live_${crypto.createHash('sha256').update(`${seed}:${name}`).digest('hex').slice(0, 32)}`);
}

function listFiles(dir) {
	if (!fs.existsSync(dir)) return [];
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name === 'keys') continue; // the key list itself is not output
			out.push(...listFiles(full));
		} else out.push(full);
	}
	return out;
}

function knownKeys(dir) {
	const keys = new Set(KNOWN_KEY_SEEDS.flatMap(keysFromSeed));
	const keyDir = path.join(dir, 'keys');
	if (fs.existsSync(keyDir)) {
		for (const f of fs.readdirSync(keyDir)) {
			for (const line of fs.readFileSync(path.join(keyDir, f), 'utf8').split('\n')) {
				const k = line.trim();
				if (k.length >= 12) keys.add(k);
			}
		}
	}
	return keys;
}

/** Counts hits in one text: format matches plus exact known keys (not counted twice). */
function scanText(text, keys) {
	const hits = [];
	const seenAt = new Set();
	for (const m of text.matchAll(KEY_PATTERN)) {
		seenAt.add(m.index);
		hits.push({ at: m.index, key: m[0] });
	}
	for (const key of keys) {
		let at = text.indexOf(key);
		while (at !== -1) {
			if (!seenAt.has(at)) hits.push({ at, key });
			at = text.indexOf(key, at + 1);
		}
	}
	return hits;
}

function mask(key) {
	return `${key.slice(0, 10)}…${key.slice(-2)}`;
}

function scan({ dir = scanDir(), extra = [], require: required = [] } = {}) {
	const files = [...listFiles(dir), ...extra];
	const keys = knownKeys(dir);
	const report = { dir, files: [], bytes: 0, hits: 0, keysKnown: keys.size, problems: [] };
	for (const file of files) {
		if (!fs.existsSync(file)) {
			report.problems.push(`missing file ${file}`);
			continue;
		}
		const text = fs.readFileSync(file, 'utf8');
		const hits = scanText(text, keys);
		report.bytes += Buffer.byteLength(text);
		report.hits += hits.length;
		report.files.push({
			file,
			bytes: Buffer.byteLength(text),
			hits: hits.length,
			samples: hits.slice(0, 3).map((h) => `${mask(h.key)} near "${text.slice(Math.max(0, h.at - 60), h.at).replace(/\s+/g, ' ')}"`),
		});
	}
	for (const name of required) {
		// A file whose name, or whose path under the scan directory, starts with the name (e2e-queue/… for a folder).
		const f = report.files.find((x) => x.bytes > 0 && (path.basename(x.file).startsWith(name) || path.relative(dir, x.file).startsWith(name)));
		if (!f) report.problems.push(`nothing captured for "${name}" (expected a non-empty ${name}* file or folder in ${dir})`);
	}
	if (report.files.length === 0) report.problems.push(`no output to scan in ${dir}`);
	else if (report.bytes < MIN_BYTES) report.problems.push(`only ${report.bytes} bytes captured in ${dir}; at least ${MIN_BYTES} expected`);
	return report;
}

function main(argv) {
	const args = { dir: scanDir(), extra: [], require: [], reset: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--dir') args.dir = argv[++i];
		else if (a === '--require') args.require.push(argv[++i]);
		else if (a === '--reset') args.reset = true;
		else if (a === '--help') {
			console.log(fs.readFileSync(__filename, 'utf8').split('*/')[0]);
			return 0;
		} else args.extra.push(a);
	}
	if (args.reset) {
		fs.rmSync(args.dir, { recursive: true, force: true });
		fs.mkdirSync(args.dir, { recursive: true });
		console.log(`secret-scan: emptied ${args.dir}`);
		return 0;
	}
	const report = scan(args);
	for (const f of report.files) {
		console.log(`secret-scan: ${String(f.hits).padStart(3)} hit(s) in ${f.file} (${f.bytes} bytes)`);
		for (const s of f.samples) console.log(`    ${s}`);
	}
	console.log(
		`secret-scan: ${report.hits} hit(s) for ${report.keysKnown} known keys and the pattern pw_live_<32 hex>, in ${report.files.length} file(s), ${report.bytes} bytes`,
	);
	if (report.problems.length > 0) {
		for (const p of report.problems) console.error(`secret-scan: FAILED: ${p}`);
		console.error('secret-scan: FAILED: a scan of nothing proves nothing; run the tests with the log reporter first (npm run test:chaos).');
		return 2;
	}
	if (report.hits > 0) {
		console.error(`secret-scan: FAILED: ${report.hits} API key(s) found in test output`);
		return 1;
	}
	return 0;
}

module.exports = { scan, scanText, scanDir, keysFromSeed, KNOWN_KEY_SEEDS, KEY_PATTERN };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
