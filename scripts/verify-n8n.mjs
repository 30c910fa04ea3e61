#!/usr/bin/env node
/**
 * What n8n's verification scanner (@n8n/scan-community-package) checks, run
 * offline on the n8n package (n8n/) as it is built now. Build first: npm run build.
 *
 *   pack          `npm pack` of n8n/; the tarball holds only dist/**, README.md,
 *                 LICENSE and package.json, and every path of the "n8n" field;
 *                 dist/ is not older than the sources.
 *   package root  the scanner's findPackageRoot, run on this repository, picks
 *                 n8n/ by the package name (the scanner lints the source
 *                 checkout of the attested commit under that folder).
 *   scan tarball  the scanner's analyzePackage over the unpacked tarball,
 *                 with its patterns ['**\/*.js', 'package.json'].
 *   scan source   analyzePackage over n8n/ with SOURCE_FILE_PATTERNS; it must
 *                 lint the real node and credential sources, not only package.json.
 *   descriptions  n8n's node and credential rules over the descriptions the
 *                 built classes produce (scripts/lint-descriptions.mjs): the
 *                 node's parameters are generated, so no source lint sees them.
 *
 * Not covered: the scanner's provenance check and its download of the source
 * at the attested commit (both need a publish from GitHub Actions).
 * Prints one line per check (and one per problem), then
 * `verify-n8n: N passed, M failed`; exits 1 when a check fails.
 * Usage: npm run verify:n8n
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';


const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PKG_DIR = path.join(REPO, 'n8n');
const require = createRequire(import.meta.url);
const { withBuildLock } = require('./lib/n8n-runtime');
const { lintPackageDescriptions, formatProblem } = require('./lib/lint-descriptions');

const ALLOWED_IN_TARBALL = [/^dist\//, /^README\.md$/, /^LICENSE$/, /^package\.json$/];
const REQUIRED_IN_TARBALL = ['package.json', 'README.md', 'LICENSE'];

const checks = [];
const rel = (p) => path.relative(REPO, p).split(path.sep).join('/') || '.';

function report(name, ok, summary, details = []) {
	checks.push(ok);
	process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${summary}\n`);
	for (const line of details) process.stdout.write(`     ${line}\n`);
}

/** Runs `fn`, reporting a thrown error as a failed check. */
async function check(name, fn) {
	try {
		await fn();
	} catch (error) {
		report(name, false, error instanceof Error ? error.message : String(error));
	}
}

function run(cmd, args, options) {
	const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
	if (result.error) throw result.error;
	if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ')}`);
	return result.stdout;
}

/** Runs `fn` with console output caught: returns { value, logged }. */
async function quietly(fn) {
	const methods = ['log', 'info', 'warn', 'error', 'debug'];
	const saved = methods.map((m) => console[m]);
	const logged = [];
	for (const m of methods) console[m] = (...args) => logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
	try {
		return { value: await fn(), logged };
	} finally {
		methods.forEach((m, i) => (console[m] = saved[i]));
	}
}

function walk(dir, out = []) {
	if (!fs.existsSync(dir)) return out;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		const isDir = entry.isDirectory() || (entry.isSymbolicLink() && fs.statSync(full).isDirectory());
		if (isDir) {
			if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(full, out);
		} else out.push(full);
	}
	return out;
}

/** The .ts source of a built path of the "n8n" field: dist/nodes/X/X.node.js -> nodes/X/X.node.ts. */
function sourceOf(builtPath) {
	const parts = builtPath.split('/');
	const at = Math.max(parts.lastIndexOf('nodes'), parts.lastIndexOf('credentials'));
	return parts.slice(at).join('/').replace(/\.js$/, '.ts');
}

// --- pack --------------------------------------------------------------------

const pkg = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8'));
const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-n8n-'));
const unpacked = path.join(tmp, 'package');

try {
	let packed = false;
	await check('pack', async () => {
		// Under the build lock of the e2e suites, so that a build running beside this never half-writes what is packed.
		const out = withBuildLock(() => run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: PKG_DIR }));
		const [{ filename }] = JSON.parse(out.slice(out.indexOf('[')));
		fs.mkdirSync(unpacked);
		run('tar', ['-xzf', path.join(tmp, filename), '-C', unpacked, '--strip-components=1']);
		const files = run('tar', ['-tzf', path.join(tmp, filename)])
			.split('\n')
			.filter((f) => f && !f.endsWith('/'))
			.map((f) => f.replace(/^[^/]+\//, ''));
		packed = true;
		const problems = [
			...files.filter((f) => !ALLOWED_IN_TARBALL.some((re) => re.test(f))).map((f) => `not allowed in the tarball: ${f}`),
			...REQUIRED_IN_TARBALL.filter((f) => !files.includes(f)).map((f) => `missing from the tarball: ${f}`),
			...listed.filter((f) => !files.includes(f)).map((f) => `listed in package.json "n8n" but not in the tarball: ${f} (npm run build)`),
		];
		const builtTimes = listed.filter((f) => fs.existsSync(path.join(PKG_DIR, f))).map((f) => fs.statSync(path.join(PKG_DIR, f)).mtimeMs);
		const sources = ['nodes', 'credentials', 'shared'].flatMap((d) => walk(path.join(PKG_DIR, d))).filter((f) => f.endsWith('.ts'));
		const newer = builtTimes.length > 0 ? sources.filter((f) => fs.statSync(f).mtimeMs > Math.min(...builtTimes)) : [];
		if (newer.length > 0) problems.push(`n8n/dist is older than ${newer.length} source file(s), e.g. ${rel(newer[0])}: npm run build`);
		const dist = files.filter((f) => f.startsWith('dist/')).length;
		const others = files.filter((f) => !f.startsWith('dist/'));
		report('pack', problems.length === 0, `${filename}, ${files.length} files (dist/** ${dist}, ${others.join(', ')})`, problems);
	});

	// --- package root ------------------------------------------------------------

	let scanner;
	let scannerRequire;
	let scannerMissing;
	try {
		const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
		scanner = await import(pathToFileURL(scannerPath).href);
		scannerRequire = createRequire(scannerPath);
	} catch (error) {
		scannerMissing = `cannot load @n8n/scan-community-package (a root devDependency; npm install): ${String(error instanceof Error ? error.message : error).split('\n')[0]}`;
	}

	await check('package root', async () => {
		if (!scanner) throw new Error(scannerMissing);
		const found = scanner.findPackageRoot(REPO, pkg.name);
		const glob = scannerRequire('fast-glob');
		const named = glob
			.sync('**/package.json', { cwd: REPO, absolute: true, ignore: ['**/node_modules/**'] })
			.filter((f) => {
				try {
					return JSON.parse(fs.readFileSync(f, 'utf8')).name === pkg.name;
				} catch {
					return false;
				}
			});
		const problems = [];
		if (found === null || path.resolve(found) !== PKG_DIR) problems.push(`expected ${rel(PKG_DIR)}/, the scanner would lint ${found === null ? 'nothing' : `${rel(found)}/`}`);
		if (named.length > 1) problems.push(`${named.length} package.json files are named ${pkg.name}: ${named.map(rel).join(', ')}; the scanner takes whichever it finds first`);
		// The scanner reads the GitHub checkout: a git-ignored package.json would not be there.
		const ignored = spawnSync('git', ['check-ignore', '-q', path.join(PKG_DIR, 'package.json')], { cwd: REPO });
		if (ignored.status === 0) problems.push(`${rel(PKG_DIR)}/package.json is git-ignored, so the source checkout would lack it`);
		report('package root', problems.length === 0, `findPackageRoot(<repo>, "${pkg.name}") = ${found === null ? 'null' : `${rel(found)}/`}`, problems);
	});

	// --- the scanner's two lint legs ----------------------------------------------

	/**
	 * Runs the scanner's analyzePackage, catching the ESLint results it computes
	 * (it returns only pass/fail and formatted text) and whatever it logs.
	 */
	async function analyze(dir, patterns) {
		const { ESLint } = scannerRequire('eslint');
		const originalLintFiles = ESLint.prototype.lintFiles;
		const captured = [];
		ESLint.prototype.lintFiles = async function (...args) {
			const results = await originalLintFiles.apply(this, args);
			captured.push(...results);
			return results;
		};
		try {
			const { value: verdict, logged } = await quietly(() => scanner.analyzePackage(dir, patterns));
			return { verdict, results: captured, logged };
		} finally {
			ESLint.prototype.lintFiles = originalLintFiles;
		}
	}

	function messagesOf(results, dir) {
		return results.flatMap((r) =>
			r.messages.map((m) => `${path.relative(dir, r.filePath).split(path.sep).join('/')}:${m.line ?? 0} ${m.ruleId ?? '(parser)'} ${m.message}${m.severity === 1 ? ' (warning)' : ''}`),
		);
	}

	async function scanLeg(name, dir, patterns, extraProblems = () => []) {
		await check(name, async () => {
			if (!scanner) throw new Error(scannerMissing);
			const { verdict, results, logged } = await analyze(dir, patterns);
			const errors = results.reduce((n, r) => n + r.errorCount, 0);
			const warnings = results.reduce((n, r) => n + r.warningCount, 0);
			const linted = results.map((r) => path.relative(dir, r.filePath).split(path.sep).join('/'));
			const problems = [...extraProblems(linted)];
			if (!verdict.passed && errors === 0) problems.push(`the scanner failed: ${verdict.message}`, ...logged);
			if (verdict.passed && errors > 0) problems.push('the scanner passed although ESLint reported errors (the scanner changed?)');
			if (linted.length === 0) problems.push(`no files to lint (${verdict.message ?? 'none found'})`);
			const ok = verdict.passed && errors === 0 && problems.length === 0;
			report(name, ok, `${linted.length} files linted (${patterns.join(', ')}), ${errors} errors, ${warnings} warnings`, [...problems, ...messagesOf(results, dir)]);
		});
	}

	if (packed) {
		await scanLeg('scan tarball', unpacked, ['**/*.js', 'package.json'], (linted) =>
			listed.filter((f) => !linted.includes(f)).map((f) => `not linted: ${f} (a path of the "n8n" field)`),
		);
	} else {
		report('scan tarball', false, 'no tarball to scan');
	}

	await scanLeg('scan source', PKG_DIR, scanner?.SOURCE_FILE_PATTERNS ?? [], (linted) => {
		const problems = [];
		if (!linted.some((f) => f !== 'package.json')) problems.push('only package.json was linted: the node and credential sources were not found');
		for (const f of listed.map(sourceOf)) if (!linted.includes(f)) problems.push(`not linted: ${f} (source of a path of the "n8n" field)`);
		return problems;
	});

	// --- descriptions ---------------------------------------------------------------

	await check('descriptions', async () => {
		// Loading the built classes runs their modules: keep what they log out of the output.
		const { value: result, logged } = await quietly(() => lintPackageDescriptions(PKG_DIR));
		report(
			'descriptions',
			result.problems.length === 0,
			`${result.files.length} files (n8n's node and credential rules over the built descriptions), ${result.errorCount} errors, ${result.warningCount} warnings`,
			[...result.problems.map(formatProblem), ...logged.map((l) => `logged while loading the built classes: ${l}`)],
		);
	});
} finally {
	fs.rmSync(tmp, { recursive: true, force: true });
}

const passed = checks.filter(Boolean).length;
const failed = checks.length - passed;
process.stdout.write(`verify-n8n: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;
