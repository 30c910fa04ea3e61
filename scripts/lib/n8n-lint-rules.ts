/**
 * eslint-plugin-n8n-nodes-base's `nodes` and `credentials` rule sets, with the
 * rule overrides of @n8n/node-cli's own ESLint config (both read from that
 * config, so they follow the installed node-cli), run over a folder of
 * generated node and credential files.
 *
 * ESLint runs in a child Node process (runEslintChild), which runs this file.
 * Two reasons: @n8n/node-cli's config requires an ES module
 * (@n8n/eslint-plugin-community-nodes), which Node 20.19+ loads but Jest's
 * module registry refuses (and Jest wraps createRequire too); and Jest sets
 * NODE_ENV=test, which the plugin reads when it loads. The child gets neither.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const PLUGIN = 'n8n-nodes-base';

/** One lint message, as the child reports it. */
export interface LintMessage {
	line: number;
	column: number;
	ruleId: string | null;
	severity: number;
	message: string;
}

/** The messages of one linted file (`file` relative to the folder, with forward slashes). */
export interface LintFileResult {
	file: string;
	messages: LintMessage[];
}

type Rules = Record<string, unknown>;
interface ConfigBlock {
	files?: unknown[];
	rules?: Rules;
	plugins?: Record<string, { configs: Record<string, { rules: Rules }> }>;
}
interface EslintResult {
	filePath: string;
	messages: LintMessage[];
}
interface EslintClass {
	new (options: object): { lintFiles(files: string[]): Promise<EslintResult[]> };
}

/**
 * Reads the plugin, the TypeScript parser, ESLint and the node/credential rule
 * sets (with node-cli's overrides) out of @n8n/node-cli's ESLint config.
 * Runs in the child process of runEslintChild only (see above why).
 */
function loadRuleSets(): { plugin: object; parser: unknown; ESLint: EslintClass; nodes: Rules; credentials: Rules } {
	const cliConfigPath = require.resolve('@n8n/node-cli/eslint');
	const cliRequire = createRequire(cliConfigPath);
	const cliConfig = (cliRequire(cliConfigPath) as { config?: unknown }).config;
	if (!Array.isArray(cliConfig)) throw new Error('@n8n/node-cli/eslint exports no `config` array');
	const blocks = cliConfig as ConfigBlock[];

	// Under NODE_ENV=test the plugin takes every file for "Test.node.ts", at once
	// a node, a trigger and a credential file, and its file-name rules go wrong.
	const filenameUtils = cliRequire(path.join(path.dirname(cliRequire.resolve('eslint-plugin-n8n-nodes-base')), 'lib/ast/utils/filename.js')) as {
		getNodeFilename(file: string): string;
	};
	if (filenameUtils.getNodeFilename('/x/Probe.credentials.ts') !== 'Probe.credentials.ts') {
		throw new Error('eslint-plugin-n8n-nodes-base ignores file names (NODE_ENV=test?)');
	}

	const plugin = blocks.map((block) => block.plugins?.[PLUGIN]).find(Boolean);
	if (!plugin) throw new Error(`@n8n/node-cli's ESLint config registers no ${PLUGIN} plugin`);
	const rulesFor = (dir: 'nodes' | 'credentials'): Rules => {
		const block = blocks.find((b) => b.rules && (b.files ?? []).some((f) => typeof f === 'string' && f.replace(/^\.\//, '') === `${dir}/**/*.ts`));
		if (!block?.rules) throw new Error(`@n8n/node-cli's ESLint config has no block for ./${dir}/**/*.ts`);
		const rules = block.rules;
		const missing = Object.keys(plugin.configs[dir].rules).filter((rule) => !(rule in rules));
		if (missing.length > 0) throw new Error(`node-cli's ./${dir} block lacks rules of the plugin's ${dir} set: ${missing.join(', ')}`);
		return rules;
	};
	return {
		plugin,
		parser: (cliRequire('typescript-eslint') as { parser: unknown }).parser,
		ESLint: (cliRequire('eslint') as { ESLint: EslintClass }).ESLint,
		nodes: rulesFor('nodes'),
		credentials: rulesFor('credentials'),
	};
}

/** Lints `files` (relative to `dir`, under nodes/ and credentials/) with the rule sets, in this process. */
async function runEslint(dir: string, files: string[]): Promise<LintFileResult[]> {
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
 * Lints `files` (relative to `dir`) in a child Node process that runs this
 * module through ts-node, without NODE_ENV (see the top of this file).
 */
export function runEslintChild(dir: string, files: string[]): Promise<LintFileResult[]> {
	const resultFile = path.join(dir, '.eslint-result.json');
	const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_PROJECT: path.resolve(__dirname, '..', '..', 'tsconfig.json') };
	delete env.NODE_ENV;
	const args = ['-r', require.resolve('ts-node/register/transpile-only'), __filename, '--eslint', dir, resultFile, ...files];
	return new Promise((resolve, reject) => {
		execFile(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) return reject(new Error(`ESLint run failed (exit ${error.code}): ${String(stderr || stdout || error.message).trim()}`));
			try {
				const results = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as LintFileResult[];
				fs.rmSync(resultFile, { force: true });
				resolve(results);
			} catch (e) {
				reject(new Error(`ESLint run left no result: ${e instanceof Error ? e.message : String(e)}`));
			}
		});
	});
}

// The child process of runEslintChild: node -r ts-node/register/transpile-only n8n-lint-rules.ts --eslint <dir> <result.json> <files...>
if (require.main === module && process.argv[2] === '--eslint') {
	const [dir, resultFile, ...files] = process.argv.slice(3);
	runEslint(dir, files).then(
		(results) => fs.writeFileSync(resultFile, JSON.stringify(results)),
		(error: unknown) => {
			process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
