/**
 * Secret scan: searches everything the tests and the chaos suite printed,
 * threw or produced for sandbox API keys. Must find 0.
 *
 * What is scanned (all files under the scan directory, plus extra files):
 *   - `jest-<run>.log`: every byte jest wrote to stdout/stderr, test console
 *     output, failure messages and the full `--json` results of the run
 *     (written by test/chaos/log-reporter.js);
 *   - `items-<pid>.log`: every output item, thrown error (deeply inspected,
 *     causes and attached request data included) and node/app output the
 *     chaos and bad-input tests saw (written by test/chaos/harness.ts);
 *   - any extra file given (CI logs, e2e output…).
 *
 * What counts as a hit:
 *   - any string in the sandbox key format, `pw_live_` + 32 hex characters;
 *   - any key listed in `keys/*.txt` (every key the chaos sandboxes used,
 *     written outside the scanned logs), wherever it appears;
 *   - the keys derived from the chaos suite's fixed `keySeed`s.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const KEY_PATTERN = /pw_live_[0-9a-f]{32}/g;
/** The keySeeds used by the chaos harness; the sandbox derives key <name> as sha256(`${seed}:${name}`)[0..32]. */
export const KNOWN_KEY_SEEDS = ['chaos-core', 'chaos-n8n', 'chaos-zapier', 'chaos-bad-inputs', 'chaos-bench'];
const KEY_NAMES = ['full', 'readonly', 'revoked', 'expired', 'noCredits', 'other'];
/** A run that logged less than this has not really been captured. */
export const MIN_BYTES = 2048;

/** A key found in a text, at its offset. */
export interface Hit {
	at: number;
	key: string;
}

/** One scanned file. */
export interface ScannedFile {
	file: string;
	bytes: number;
	hits: number;
	/** Up to three hits, the key masked, with the text before it. */
	samples: string[];
}

/** What a scan found. */
export interface ScanReport {
	dir: string;
	files: ScannedFile[];
	bytes: number;
	hits: number;
	keysKnown: number;
	/** Why the scan proves nothing (missing files, nothing or too little captured). */
	problems: string[];
}

/** Options of scan. */
export interface ScanOptions {
	/** The scan directory (default scanDir()). */
	dir?: string;
	/** Files scanned besides those of the directory. */
	extra?: string[];
	/** Names of which a non-empty file (or a folder of files) must have been captured: `jest-chaos`, `items-`, `e2e-queue`… */
	require?: string[];
}

/** The scan directory: $SECRET_SCAN_DIR or <tmp>/post-writer-secret-scan. */
export function scanDir(): string {
	return process.env.SECRET_SCAN_DIR || path.join(os.tmpdir(), 'post-writer-secret-scan');
}

/** The six keys the sandbox derives from a keySeed. */
export function keysFromSeed(seed: string): string[] {
	return KEY_NAMES.map((name) => `pw_live_${crypto.createHash('sha256').update(`${seed}:${name}`).digest('hex').slice(0, 32)}`);
}

function listFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	const out: string[] = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name === 'keys') continue; // the key list itself is not output
			out.push(...listFiles(full));
		} else out.push(full);
	}
	return out;
}

function knownKeys(dir: string): Set<string> {
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

/** The hits in one text: format matches plus exact known keys (not counted twice). */
export function scanText(text: string, keys: Iterable<string>): Hit[] {
	const hits: Hit[] = [];
	const seenAt = new Set<number>();
	for (const m of text.matchAll(KEY_PATTERN)) {
		seenAt.add(m.index as number);
		hits.push({ at: m.index as number, key: m[0] });
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

function mask(key: string): string {
	return `${key.slice(0, 10)}…${key.slice(-2)}`;
}

/** Scans the directory and the extra files. */
export function scan({ dir = scanDir(), extra = [], require: required = [] }: ScanOptions = {}): ScanReport {
	const files = [...listFiles(dir), ...extra];
	const keys = knownKeys(dir);
	const report: ScanReport = { dir, files: [], bytes: 0, hits: 0, keysKnown: keys.size, problems: [] };
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
