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
 *                 built classes produce (lint-descriptions.ts): the node's
 *                 parameters are generated, so no source lint sees them.
 *
 * Not covered: the scanner's provenance check and its download of the source
 * at the attested commit (both need a publish from GitHub Actions).
 * The scanner is an ES module: this runs under plain Node (ts-node), not inside
 * jest, which cannot load it; test/verify/n8n.test.ts runs scripts/verify-n8n.ts
 * in a child process and reports each check as one test.
 */
import { spawnSync } from 'node:child_process';
import type { SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatProblem, lintPackageDescriptions } from './lint-descriptions';
import { withBuildLock } from './n8n-package';
import { PACKAGE_DIR, ROOT } from './paths';

/** The checks, in the order they run. */
export const VERIFY_CHECKS = ['pack', 'package root', 'scan tarball', 'scan source', 'descriptions'] as const;
export type VerifyCheckName = (typeof VERIFY_CHECKS)[number];

/** How one check ended. */
export interface VerifyCheck {
	name: VerifyCheckName;
	ok: boolean;
	summary: string;
	/** The problems (and, for the scans, every lint message). */
	details: string[];
}

interface LintMessage {
	line?: number;
	ruleId: string | null;
	message: string;
	severity: number;
}
interface LintResult {
	filePath: string;
	errorCount: number;
	warningCount: number;
	messages: LintMessage[];
}
interface Scanner {
	findPackageRoot(dir: string, name: string): string | null;
	analyzePackage(dir: string, patterns: string[]): Promise<{ passed: boolean; message?: string }>;
	SOURCE_FILE_PATTERNS: string[];
}
interface EslintPrototype {
	lintFiles(...args: unknown[]): Promise<LintResult[]>;
}

const ALLOWED_IN_TARBALL = [/^dist\//, /^README\.md$/, /^LICENSE$/, /^package\.json$/];
const REQUIRED_IN_TARBALL = ['package.json', 'README.md', 'LICENSE'];
const loadFrom = createRequire(path.join(ROOT, 'package.json'));

const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/') || '.';

function run(cmd: string, args: string[], options: SpawnSyncOptions = {}): string {
	const result = spawnSync(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options, encoding: 'utf8' });
	if (result.error) throw result.error;
	if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ')}`);
	return result.stdout;
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** Runs `fn` with console output caught. */
async function quietly<T>(fn: () => Promise<T>): Promise<{ value: T; logged: string[] }> {
	const methods: ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug'];
	const saved = methods.map((m) => console[m]);
	const logged: string[] = [];
	for (const m of methods) console[m] = (...args: unknown[]) => logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
	try {
		return { value: await fn(), logged };
	} finally {
		methods.forEach((m, i) => (console[m] = saved[i]));
	}
}

function walk(dir: string, out: string[] = []): string[] {
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
function sourceOf(builtPath: string): string {
	const parts = builtPath.split('/');
	const at = Math.max(parts.lastIndexOf('nodes'), parts.lastIndexOf('credentials'));
	return parts.slice(at).join('/').replace(/\.js$/, '.ts');
}

function messagesOf(results: LintResult[], dir: string): string[] {
	return results.flatMap((r) =>
		r.messages.map((m) => `${path.relative(dir, r.filePath).split(path.sep).join('/')}:${m.line ?? 0} ${m.ruleId ?? '(parser)'} ${m.message}${m.severity === 1 ? ' (warning)' : ''}`),
	);
}

/**
 * Runs the five checks on n8n/ (built already); `onCheck` sees each as it ends.
 * Resolves them in VERIFY_CHECKS order; a check that throws counts as failed.
 */
export async function verifyN8n(onCheck: (check: VerifyCheck) => void = () => undefined): Promise<VerifyCheck[]> {
	const checks: VerifyCheck[] = [];
	const report = (name: VerifyCheckName, ok: boolean, summary: string, details: string[] = []): void => {
		const c = { name, ok, summary, details };
		checks.push(c);
		onCheck(c);
	};
	/** Runs `fn`, reporting a thrown error as a failed check. */
	const check = async (name: VerifyCheckName, fn: () => Promise<void>): Promise<void> => {
		try {
			await fn();
		} catch (error) {
			report(name, false, error instanceof Error ? error.message : String(error));
		}
	};

	const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; n8n?: { nodes?: string[]; credentials?: string[] } };
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-n8n-'));
	const unpacked = path.join(tmp, 'package');

	try {
		let packed = false;
		await check('pack', async () => {
			// Under the build lock of the e2e suites, so that a build running beside this never half-writes what is packed.
			const out = withBuildLock(() => run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: PACKAGE_DIR }));
			const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
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
			const builtTimes = listed.filter((f) => fs.existsSync(path.join(PACKAGE_DIR, f))).map((f) => fs.statSync(path.join(PACKAGE_DIR, f)).mtimeMs);
			const sources = ['nodes', 'credentials', 'shared'].flatMap((d) => walk(path.join(PACKAGE_DIR, d))).filter((f) => f.endsWith('.ts'));
			const newer = builtTimes.length > 0 ? sources.filter((f) => fs.statSync(f).mtimeMs > Math.min(...builtTimes)) : [];
			if (newer.length > 0) problems.push(`n8n/dist is older than ${newer.length} source file(s), e.g. ${rel(newer[0])}: npm run build`);
			const dist = files.filter((f) => f.startsWith('dist/')).length;
			const others = files.filter((f) => !f.startsWith('dist/'));
			report('pack', problems.length === 0, `${filename}, ${files.length} files (dist/** ${dist}, ${others.join(', ')})`, problems);
		});

		// --- package root ------------------------------------------------------------

		let scanner: Scanner | undefined;
		let scannerRequire: NodeJS.Require | undefined;
		let scannerMissing = '';
		try {
			const scannerPath = loadFrom.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
			// An ES module without top-level await: Node 20.19+ requires it.
			scanner = createRequire(scannerPath)(scannerPath) as Scanner;
			scannerRequire = createRequire(scannerPath);
		} catch (error) {
			scannerMissing = `cannot load @n8n/scan-community-package (a root devDependency; npm install): ${String(error instanceof Error ? error.message : error).split('\n')[0]}`;
		}

		await check('package root', async () => {
			if (!scanner || !scannerRequire) throw new Error(scannerMissing);
			const found = scanner.findPackageRoot(ROOT, pkg.name);
			const glob = scannerRequire('fast-glob') as { sync(pattern: string, options: object): string[] };
			const named = glob.sync('**/package.json', { cwd: ROOT, absolute: true, ignore: ['**/node_modules/**'] }).filter((f) => {
				try {
					return (JSON.parse(fs.readFileSync(f, 'utf8')) as { name?: string }).name === pkg.name;
				} catch {
					return false;
				}
			});
			const problems: string[] = [];
			if (found === null || path.resolve(found) !== PACKAGE_DIR) problems.push(`expected ${rel(PACKAGE_DIR)}/, the scanner would lint ${found === null ? 'nothing' : `${rel(found)}/`}`);
			if (named.length > 1) problems.push(`${named.length} package.json files are named ${pkg.name}: ${named.map(rel).join(', ')}; the scanner takes whichever it finds first`);
			// The scanner reads the GitHub checkout: a git-ignored package.json would not be there.
			const ignored = spawnSync('git', ['check-ignore', '-q', path.join(PACKAGE_DIR, 'package.json')], { cwd: ROOT });
			if (ignored.status === 0) problems.push(`${rel(PACKAGE_DIR)}/package.json is git-ignored, so the source checkout would lack it`);
			report('package root', problems.length === 0, `findPackageRoot(<repo>, "${pkg.name}") = ${found === null ? 'null' : `${rel(found)}/`}`, problems);
		});

		// --- the scanner's two lint legs ----------------------------------------------

		/**
		 * Runs the scanner's analyzePackage, catching the ESLint results it computes
		 * (it returns only pass/fail and formatted text) and whatever it logs.
		 */
		const analyze = async (found: Scanner, req: NodeJS.Require, dir: string, patterns: string[]) => {
			const proto = (req('eslint') as { ESLint: { prototype: EslintPrototype } }).ESLint.prototype;
			const originalLintFiles = proto.lintFiles;
			const captured: LintResult[] = [];
			proto.lintFiles = async function (this: unknown, ...args: unknown[]) {
				const results = await originalLintFiles.apply(this, args);
				captured.push(...results);
				return results;
			};
			try {
				const { value: verdict, logged } = await quietly(() => found.analyzePackage(dir, patterns));
				return { verdict, results: captured, logged };
			} finally {
				proto.lintFiles = originalLintFiles;
			}
		};

		const scanLeg = async (name: VerifyCheckName, dir: string, patterns: string[], extraProblems: (linted: string[]) => string[]): Promise<void> => {
			await check(name, async () => {
				if (!scanner || !scannerRequire) throw new Error(scannerMissing);
				const { verdict, results, logged } = await analyze(scanner, scannerRequire, dir, patterns);
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
		};

		if (packed) {
			await scanLeg('scan tarball', unpacked, ['**/*.js', 'package.json'], (linted) =>
				listed.filter((f) => !linted.includes(f)).map((f) => `not linted: ${f} (a path of the "n8n" field)`),
			);
		} else {
			report('scan tarball', false, 'no tarball to scan');
		}

		await scanLeg('scan source', PACKAGE_DIR, scanner?.SOURCE_FILE_PATTERNS ?? [], (linted) => {
			const problems: string[] = [];
			if (!linted.some((f) => f !== 'package.json')) problems.push('only package.json was linted: the node and credential sources were not found');
			for (const f of listed.map(sourceOf)) if (!linted.includes(f)) problems.push(`not linted: ${f} (source of a path of the "n8n" field)`);
			return problems;
		});

		// --- descriptions ---------------------------------------------------------------

		await check('descriptions', async () => {
			// Loading the built classes runs their modules: keep what they log out of the output.
			const { value: result, logged } = await quietly(() => lintPackageDescriptions(PACKAGE_DIR));
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
	return VERIFY_CHECKS.map((name) => checks.find((c) => c.name === name) ?? { name, ok: false, summary: 'did not run', details: [] });
}

/** One check as printed: `ok   name: summary` (or FAIL), its details indented below. */
export function formatCheck(c: VerifyCheck): string {
	return [`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.summary}`, ...c.details.map((d) => `     ${d}`)].join('\n');
}
