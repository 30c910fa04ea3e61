/**
 * n8n's node and credential lint rules, run over the descriptions the classes
 * produce at runtime.
 *
 * The Post Writer node builds its parameters from the catalogue when it loads,
 * so `n8n-node lint` (which reads the source text) never sees most of them. This
 * module takes the description objects themselves, writes each one out as the
 * TypeScript source a node or credential file would hold:
 *
 *   <dir>/nodes/PostWriter/PostWriter.node.ts
 *     export class PostWriter implements INodeType { description: INodeTypeDescription = { ... } }
 *   <dir>/credentials/PostWriterApi.credentials.ts
 *     export class PostWriterApi implements ICredentialType { name = '...'; properties: INodeProperties[] = [...]; ... }
 *
 * and lints those files with eslint-plugin-n8n-nodes-base's `nodes` and
 * `credentials` rule sets, with the rule overrides of @n8n/node-cli's own ESLint
 * config (both read from that config, so they follow the installed node-cli).
 * Functions in the objects (preSend hooks, methods) cannot be written as data:
 * they are left out and listed in `omitted`.
 *
 * Used by scripts/lint-descriptions.mjs (built classes, from n8n/package.json's
 * "n8n" field) and by test/n8n/description-lint.test.ts (the TypeScript source
 * classes, through ts-jest).
 */
'use strict';

const fs = require('node:fs');
const { execFile } = require('node:child_process');
const { createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');

const PLUGIN = 'n8n-nodes-base';

// ---------------------------------------------------------------------------
// The rule sets, as @n8n/node-cli applies them
// ---------------------------------------------------------------------------

/**
 * Reads the plugin, the TypeScript parser, ESLint and the node/credential rule
 * sets (with node-cli's overrides) out of @n8n/node-cli's ESLint config.
 * Runs in the child process of runEslintChild only (see there why).
 */
function loadRuleSets() {
	const cliConfigPath = require.resolve('@n8n/node-cli/eslint');
	const cliRequire = createRequire(cliConfigPath);
	const cliConfig = cliRequire(cliConfigPath).config;
	if (!Array.isArray(cliConfig)) throw new Error('@n8n/node-cli/eslint exports no `config` array');

	// Under NODE_ENV=test the plugin takes every file for "Test.node.ts", at once
	// a node, a trigger and a credential file, and its file-name rules go wrong.
	const filenameUtils = cliRequire(path.join(path.dirname(cliRequire.resolve('eslint-plugin-n8n-nodes-base')), 'lib/ast/utils/filename.js'));
	if (filenameUtils.getNodeFilename('/x/Probe.credentials.ts') !== 'Probe.credentials.ts') {
		throw new Error('eslint-plugin-n8n-nodes-base ignores file names (NODE_ENV=test?)');
	}

	const plugin = cliConfig.map((block) => block.plugins?.[PLUGIN]).find(Boolean);
	if (!plugin) throw new Error(`@n8n/node-cli's ESLint config registers no ${PLUGIN} plugin`);
	const rulesFor = (dir) => {
		const block = cliConfig.find((b) => b.rules && (b.files ?? []).some((f) => typeof f === 'string' && f.replace(/^\.\//, '') === `${dir}/**/*.ts`));
		if (!block) throw new Error(`@n8n/node-cli's ESLint config has no block for ./${dir}/**/*.ts`);
		const missing = Object.keys(plugin.configs[dir].rules).filter((rule) => !(rule in block.rules));
		if (missing.length > 0) throw new Error(`node-cli's ./${dir} block lacks rules of the plugin's ${dir} set: ${missing.join(', ')}`);
		return block.rules;
	};
	return {
		plugin,
		parser: cliRequire('typescript-eslint').parser,
		ESLint: cliRequire('eslint').ESLint,
		nodes: rulesFor('nodes'),
		credentials: rulesFor('credentials'),
	};
}

/**
 * Lints `files` (relative to `dir`, under nodes/ and credentials/) with the
 * rule sets; returns [{ file, messages: [{ line, column, ruleId, severity, message }] }].
 */
async function runEslint(dir, files) {
	const { plugin, parser, ESLint, nodes, credentials } = loadRuleSets();
	const eslint = new ESLint({
		cwd: dir,
		overrideConfigFile: true,
		allowInlineConfig: false,
		overrideConfig: [
			{ files: ['**/*.ts'], languageOptions: { parser } },
			{ files: ['nodes/**/*.ts'], plugins: { [PLUGIN]: plugin }, rules: nodes },
			{ files: ['credentials/**/*.ts'], plugins: { [PLUGIN]: plugin }, rules: credentials },
		],
	});
	const results = await eslint.lintFiles(files);
	return results.map((r) => ({
		file: path.relative(dir, r.filePath).split(path.sep).join('/'),
		messages: r.messages.map(({ line, column, ruleId, severity, message }) => ({ line, column, ruleId, severity, message })),
	}));
}

/**
 * Runs runEslint in a child Node process. Two reasons: @n8n/node-cli's config
 * requires an ES module (@n8n/eslint-plugin-community-nodes), which Node 20.19+
 * loads but Jest's module registry refuses (and Jest wraps createRequire too);
 * and Jest sets NODE_ENV=test, which the plugin reads when it loads. The child
 * gets neither.
 */
function runEslintChild(dir, files) {
	const resultFile = path.join(dir, '.eslint-result.json');
	const env = { ...process.env };
	delete env.NODE_ENV;
	return new Promise((resolve, reject) => {
		execFile(process.execPath, [__filename, '--eslint', dir, resultFile, ...files], { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) return reject(new Error(`ESLint run failed (exit ${error.code}): ${String(stderr || stdout || error.message).trim()}`));
			try {
				const results = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
				fs.rmSync(resultFile, { force: true });
				resolve(results);
			} catch (e) {
				reject(new Error(`ESLint run left no result: ${e instanceof Error ? e.message : String(e)}`));
			}
		});
	});
}

// ---------------------------------------------------------------------------
// Objects to TypeScript source
// ---------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyText(key) {
	return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function isParameter(v) {
	return typeof v.displayName === 'string' && typeof v.name === 'string' && typeof v.type === 'string';
}

function isOption(v) {
	return typeof v.name === 'string' && 'value' in v && !('type' in v);
}

function isSection(v) {
	return typeof v.displayName === 'string' && typeof v.name === 'string' && Array.isArray(v.values);
}

/** "resource=post, operation=getMany" from a parameter's displayOptions.show. */
function shownFor(v) {
	const show = v.displayOptions?.show;
	if (!show || typeof show !== 'object') return '';
	const parts = Object.entries(show)
		.filter(([key]) => !key.startsWith('@'))
		.map(([key, values]) => `${key}=${Array.isArray(values) ? values.join('|') : String(values)}`);
	return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}

/** A name for an object that the rules treat as a parameter, an option or a section. */
function labelOf(v, parentLabel) {
	const within = parentLabel ? `${parentLabel} > ` : '';
	if (isParameter(v)) return `${within}parameter "${v.name}" (${v.displayName})${parentLabel ? '' : shownFor(v)}`;
	if (isSection(v)) return `${within}section "${v.name}" (${v.displayName})`;
	if (isOption(v)) return `${within}option "${v.name}" = ${JSON.stringify(v.value)}`;
	return undefined;
}

/**
 * Writes `value` as TypeScript, one property per line, and records for each
 * parameter, option or section (and each top-level field) the lines it spans,
 * so a lint message can name the parameter it is about.
 */
class Writer {
	constructor() {
		this.lines = [];
		this.ranges = [];
		this.omitted = [];
	}

	get next() {
		return this.lines.length + 1;
	}

	line(indent, text) {
		this.lines.push(`${'\t'.repeat(indent)}${text}`);
	}

	/** Writes `<head><value><tail>`; `head` is e.g. "key: " or "description: T = ". */
	value(value, head, tail, indent, where, label, seen) {
		if (value === null) return this.line(indent, `${head}null${tail}`);
		switch (typeof value) {
			case 'string':
				return this.line(indent, `${head}${JSON.stringify(value)}${tail}`);
			case 'number':
			case 'boolean':
				return this.line(indent, `${head}${String(value)}${tail}`);
			case 'bigint':
				return this.line(indent, `${head}${String(value)}n${tail}`);
			case 'object':
				break;
			default:
				throw new Error(`cannot write ${typeof value} at ${where}`);
		}
		if (value instanceof Date) return this.line(indent, `${head}${JSON.stringify(value.toISOString())}${tail}`);
		if (value instanceof RegExp) return this.line(indent, `${head}${String(value)}${tail}`);
		if (seen.has(value)) throw new Error(`circular reference at ${where}`);
		seen.add(value);
		try {
			if (Array.isArray(value)) {
				const items = value.map((item, i) => [item, i]).filter(([item, i]) => this.keep(item, `${where}[${i}]`));
				if (items.length === 0) return this.line(indent, `${head}[]${tail}`);
				this.line(indent, `${head}[`);
				for (const [item, i] of items) this.value(item, '', ',', indent + 1, `${where}[${i}]`, label, seen);
				return this.line(indent, `]${tail}`);
			}
			const own = labelOf(value, label);
			const start = this.next;
			const entries = Object.entries(value).filter(([key, item]) => this.keep(item, `${where}.${key}`));
			if (entries.length === 0) {
				this.line(indent, `${head}{}${tail}`);
			} else {
				this.line(indent, `${head}{`);
				for (const [key, item] of entries) this.value(item, `${keyText(key)}: `, ',', indent + 1, `${where}.${key}`, own ?? label, seen);
				this.line(indent, `}${tail}`);
			}
			if (own) this.ranges.push({ start, end: this.next - 1, label: own });
		} finally {
			seen.delete(value);
		}
	}

	/** Functions, undefined and symbols have no data form: they are left out. */
	keep(item, where) {
		if (typeof item === 'function') {
			this.omitted.push(where);
			return false;
		}
		return item !== undefined && typeof item !== 'symbol';
	}

	/** A top-level field (class field, or key of the node description), named by itself. */
	field(value, head, tail, indent, name) {
		const start = this.next;
		this.value(value, head, tail, indent, name, undefined, new Set());
		this.ranges.push({ start, end: this.next - 1, label: name });
	}

	/** The innermost recorded parameter, option, section or field spanning `line`. */
	labelAt(line) {
		let best;
		for (const r of this.ranges) {
			if (r.start <= line && line <= r.end && (!best || r.end - r.start < best.end - best.start)) best = r;
		}
		return best?.label;
	}
}

const HEADER = (from) => [`// Written by scripts/lib/lint-descriptions.js from ${from}: the description as n8n receives it.`];

function nodeSource(entry) {
	const w = new Writer();
	for (const l of HEADER(entry.from)) w.line(0, l);
	w.line(0, "import type { INodeType, INodeTypeDescription } from 'n8n-workflow';");
	w.line(0, '');
	w.line(0, `export class ${entry.className} implements INodeType {`);
	const d = entry.description;
	if (!d || typeof d !== 'object') throw new Error(`${entry.from}: no description object`);
	w.line(1, 'description: INodeTypeDescription = {');
	for (const [key, item] of Object.entries(d)) {
		if (w.keep(item, `description.${key}`)) w.field(item, `${keyText(key)}: `, ',', 2, `description.${key}`);
	}
	w.line(1, '};');
	w.line(0, '}');
	return w;
}

/** Credential classes keep their description in class fields: each becomes `name = <value>;`. */
const CREDENTIAL_TYPES = { properties: 'INodeProperties[]' };

function credentialSource(entry) {
	const w = new Writer();
	for (const l of HEADER(entry.from)) w.line(0, l);
	w.line(0, "import type { ICredentialType, INodeProperties } from 'n8n-workflow';");
	w.line(0, '');
	w.line(0, `export class ${entry.className} implements ICredentialType {`);
	for (const [key, item] of Object.entries(entry.fields)) {
		if (!IDENTIFIER.test(key)) throw new Error(`${entry.from}: credential field ${JSON.stringify(key)} is not an identifier`);
		if (!w.keep(item, key)) continue;
		const type = CREDENTIAL_TYPES[key] ? `: ${CREDENTIAL_TYPES[key]}` : '';
		w.field(item, `${key}${type} = `, ';', 1, key);
		w.line(0, '');
	}
	w.lines.pop();
	w.line(0, '}');
	return w;
}

// ---------------------------------------------------------------------------
// Entries: what to lint
// ---------------------------------------------------------------------------

/**
 * The part of `relPath` from its last `nodes/` or `credentials/` segment on,
 * as a .ts path: dist/nodes/PostWriter/PostWriter.node.js -> nodes/PostWriter/PostWriter.node.ts.
 * The node rules compare the file and folder names with the node's name.
 */
function lintPath(relPath, kind) {
	const parts = relPath.replace(/\\/g, '/').split('/');
	const at = parts.lastIndexOf(kind);
	const tail = at >= 0 ? parts.slice(at) : [kind, parts[parts.length - 1]];
	return tail.join('/').replace(/\.(js|ts)$/, '.ts');
}

/** A node class (built or source) and the path it is listed under, e.g. dist/nodes/X/X.node.js. */
function nodeEntry(NodeClass, relPath) {
	const instance = new NodeClass();
	if (instance.nodeVersions) throw new Error(`${relPath}: versioned nodes (nodeVersions) are not supported`);
	return { kind: 'node', file: lintPath(relPath, 'nodes'), from: relPath, className: NodeClass.name, description: instance.description };
}

/** A credential class (built or source): its own fields (name, displayName, properties, test, authenticate...). */
function credentialEntry(CredentialClass, relPath) {
	const instance = new CredentialClass();
	const fields = {};
	for (const key of Object.keys(instance)) fields[key] = instance[key];
	return { kind: 'credential', file: lintPath(relPath, 'credentials'), from: relPath, className: CredentialClass.name, fields };
}

/** The exported class of a module: the one export that is a function (class). */
function classOf(moduleExports, relPath) {
	const classes = Object.values(moduleExports).filter((v) => typeof v === 'function');
	if (classes.length !== 1) throw new Error(`${relPath}: expected one exported class, found ${classes.length}`);
	return classes[0];
}

/** The built node and credential classes of a package, from its package.json "n8n" field. */
function entriesFromPackage(packageDir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const field = pkg.n8n ?? {};
	const load = (rel) => {
		const file = path.resolve(packageDir, rel);
		if (!fs.existsSync(file)) throw new Error(`${rel} (listed in package.json "n8n") does not exist: build first`);
		return classOf(require(file), rel);
	};
	return [
		...(field.nodes ?? []).map((rel) => nodeEntry(load(rel), rel)),
		...(field.credentials ?? []).map((rel) => credentialEntry(load(rel), rel)),
	];
}

// ---------------------------------------------------------------------------
// Lint
// ---------------------------------------------------------------------------

/**
 * Writes the entries as TypeScript under `dir` (a fresh temporary folder unless
 * given) and lints them. Returns { dir, files, problems, errorCount,
 * warningCount, omitted }; each problem is { file, line, column, ruleId,
 * severity, message, parameter }. The folder is removed unless `keep` or `dir`
 * is given.
 */
async function lintDescriptions(entries, { dir, keep = false } = {}) {
	const outDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-descriptions-'));
	const written = new Map();
	const omitted = [];
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
		const problems = [];
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
					parameter: (w && w.labelAt(m.line)) ?? (m.line <= 1 ? '(file)' : '(description)'),
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

/** One line per problem: `file:line ruleId parameter: message`. */
function formatProblem(p) {
	return `${p.file}:${p.line} ${p.ruleId} ${p.parameter}: ${p.message}${p.severity === 'warning' ? ' (warning)' : ''}`;
}

module.exports = { lintDescriptions, entriesFromPackage, nodeEntry, credentialEntry, formatProblem, lintPath };

// The child process of runEslintChild: node lint-descriptions.js --eslint <dir> <result.json> <files...>
if (require.main === module && process.argv[2] === '--eslint') {
	const [dir, resultFile, ...files] = process.argv.slice(3);
	runEslint(dir, files).then(
		(results) => fs.writeFileSync(resultFile, JSON.stringify(results)),
		(error) => {
			process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
