/**
 * n8n's node and credential lint rules, run over the descriptions the classes
 * produce at runtime.
 *
 * The Post Writer node builds its parameters from the catalogue when it loads,
 * so `n8n-node lint` (which reads the source text) never sees most of them. This
 * module takes the description objects themselves, writes each one out as the
 * TypeScript source a node or credential file would hold (description-source.ts),
 * and lints those files with eslint-plugin-n8n-nodes-base's `nodes` and
 * `credentials` rule sets as @n8n/node-cli applies them (n8n-lint-rules.ts).
 *
 * Used by scripts/lint-descriptions.ts: the built classes, from n8n/package.json's
 * "n8n" field (verify:n8n), or their TypeScript sources (`npm run lint`).
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CredentialEntry, DescriptionEntry, NodeEntry, SourceWriter } from './description-source';
import { credentialSource, nodeSource } from './description-source';
import { runEslintChild } from './n8n-lint-rules';

export type { CredentialEntry, DescriptionEntry, NodeEntry } from './description-source';

/** A problem a rule reported, named by the parameter, option, section or field it is about. */
export interface DescriptionProblem {
	file: string;
	line: number;
	column: number;
	ruleId: string;
	severity: 'error' | 'warning';
	message: string;
	parameter: string;
}

/** What lintDescriptions found. */
export interface DescriptionLintResult {
	/** Where the files were written (removed unless `keep` or `dir`). */
	dir: string;
	files: string[];
	problems: DescriptionProblem[];
	errorCount: number;
	warningCount: number;
	/** "<file>: <where>" of each function left out. */
	omitted: string[];
}

/** Options of lintDescriptions. */
export interface LintDescriptionsOptions {
	/** Write into this folder (kept) instead of a fresh temporary one. */
	dir?: string;
	/** Keep the temporary folder. */
	keep?: boolean;
}

type ClassOf<T> = new () => T;

/** Loads a built (CommonJS) module of the package. */
const loadModule = createRequire(__filename);

/**
 * The part of `relPath` from its last `nodes/` or `credentials/` segment on,
 * as a .ts path: dist/nodes/PostWriter/PostWriter.node.js -> nodes/PostWriter/PostWriter.node.ts.
 * The node rules compare the file and folder names with the node's name.
 */
export function lintPath(relPath: string, kind: 'nodes' | 'credentials'): string {
	const parts = relPath.replace(/\\/g, '/').split('/');
	const at = parts.lastIndexOf(kind);
	const tail = at >= 0 ? parts.slice(at) : [kind, parts[parts.length - 1]];
	return tail.join('/').replace(/\.(js|ts)$/, '.ts');
}

/** A node class (built or source) and the path it is listed under, e.g. dist/nodes/X/X.node.js. */
export function nodeEntry(NodeClass: ClassOf<object>, relPath: string): NodeEntry {
	const instance = new NodeClass() as { nodeVersions?: unknown; description?: unknown };
	if (instance.nodeVersions) throw new Error(`${relPath}: versioned nodes (nodeVersions) are not supported`);
	return { kind: 'node', file: lintPath(relPath, 'nodes'), from: relPath, className: NodeClass.name, description: instance.description };
}

/** A credential class (built or source): its own fields (name, displayName, properties, test, authenticate...). */
export function credentialEntry(CredentialClass: ClassOf<object>, relPath: string): CredentialEntry {
	const instance = new CredentialClass() as Record<string, unknown>;
	const fields: Record<string, unknown> = {};
	for (const key of Object.keys(instance)) fields[key] = instance[key];
	return { kind: 'credential', file: lintPath(relPath, 'credentials'), from: relPath, className: CredentialClass.name, fields };
}

/** The exported class of a module: the one export that is a function (class). */
function classOf(moduleExports: Record<string, unknown>, relPath: string): ClassOf<object> {
	const classes = Object.values(moduleExports).filter((v) => typeof v === 'function');
	if (classes.length !== 1) throw new Error(`${relPath}: expected one exported class, found ${classes.length}`);
	return classes[0] as ClassOf<object>;
}

/** The built node and credential classes of a package, from its package.json "n8n" field. */
export function entriesFromPackage(packageDir: string): DescriptionEntry[] {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { n8n?: { nodes?: string[]; credentials?: string[] } };
	const field = pkg.n8n ?? {};
	const load = (rel: string): ClassOf<object> => {
		const file = path.resolve(packageDir, rel);
		if (!fs.existsSync(file)) throw new Error(`${rel} (listed in package.json "n8n") does not exist: build first`);
		return classOf(loadModule(file) as Record<string, unknown>, rel);
	};
	return [...(field.nodes ?? []).map((rel) => nodeEntry(load(rel), rel)), ...(field.credentials ?? []).map((rel) => credentialEntry(load(rel), rel))];
}

/**
 * The node and credential classes of the package's TypeScript sources: the .ts file of each path its package.json
 * "n8n" field lists (dist/nodes/X/X.node.js -> nodes/X/X.node.ts), loaded by the running ts-node. No build needed.
 */
export function entriesFromSource(packageDir: string): DescriptionEntry[] {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { n8n?: { nodes?: string[]; credentials?: string[] } };
	const field = pkg.n8n ?? {};
	const load = (rel: string, kind: 'nodes' | 'credentials'): ClassOf<object> => {
		const file = path.resolve(packageDir, lintPath(rel, kind));
		if (!fs.existsSync(file)) throw new Error(`${rel} (listed in package.json "n8n") has no source at ${path.relative(packageDir, file)}`);
		return classOf(loadModule(file) as Record<string, unknown>, rel);
	};
	return [...(field.nodes ?? []).map((rel) => nodeEntry(load(rel, 'nodes'), rel)), ...(field.credentials ?? []).map((rel) => credentialEntry(load(rel, 'credentials'), rel))];
}

/**
 * Writes the entries as TypeScript under `dir` (a fresh temporary folder unless
 * given) and lints them. The folder is removed unless `keep` or `dir` is given.
 */
export async function lintDescriptions(entries: DescriptionEntry[], { dir, keep = false }: LintDescriptionsOptions = {}): Promise<DescriptionLintResult> {
	const outDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-descriptions-'));
	const written = new Map<string, SourceWriter>();
	const omitted: string[] = [];
	try {
		for (const entry of entries) {
			if (written.has(entry.file)) throw new Error(`two entries write ${entry.file}`);
			const w = entry.kind === 'node' ? nodeSource(entry) : credentialSource(entry);
			const file = path.join(outDir, entry.file);
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, `${w.lines.join('\n')}\n`);
			written.set(entry.file, w);
			omitted.push(...w.omitted.map((where) => `${entry.file}: ${where}`));
		}
		const results = await runEslintChild(outDir, [...written.keys()]);
		const problems: DescriptionProblem[] = [];
		for (const result of results) {
			const w = written.get(result.file);
			for (const m of result.messages) {
				problems.push({
					file: result.file,
					line: m.line,
					column: m.column,
					ruleId: m.ruleId ?? '(parser)',
					severity: m.severity === 2 ? 'error' : 'warning',
					message: m.message,
					parameter: w?.labelAt(m.line) ?? (m.line <= 1 ? '(file)' : '(description)'),
				});
			}
		}
		problems.sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line || x.column - y.column);
		return {
			dir: outDir,
			files: [...written.keys()],
			problems,
			errorCount: problems.filter((p) => p.severity === 'error').length,
			warningCount: problems.filter((p) => p.severity === 'warning').length,
			omitted,
		};
	} finally {
		if (!keep && !dir) fs.rmSync(outDir, { recursive: true, force: true });
	}
}

/** The n8n package of this repository. */
export const DEFAULT_PACKAGE_DIR = path.resolve(__dirname, '..', '..', 'n8n');

/** Lints the built classes listed in `packageDir`/package.json (default n8n/). */
export async function lintPackageDescriptions(packageDir: string = DEFAULT_PACKAGE_DIR, options: LintDescriptionsOptions = {}): Promise<DescriptionLintResult> {
	return await lintDescriptions(entriesFromPackage(packageDir), options);
}

/** One line per problem: `file:line ruleId parameter: message`. */
export function formatProblem(p: DescriptionProblem): string {
	return `${p.file}:${p.line} ${p.ruleId} ${p.parameter}: ${p.message}${p.severity === 'warning' ? ' (warning)' : ''}`;
}
