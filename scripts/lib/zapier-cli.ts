/**
 * Zapier's CLI 19 (zapier-platform-cli), outside the project's dependency tree.
 * It refuses to run below Node 22, and Zapier runs apps on Node 22, while this
 * project's machines run Node 20: it is installed once with Node 22 (node-binary.ts)
 * into ${POST_WRITER_CACHE:-~/.cache/post-writer}/zapier-cli-<version>, and reused.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runNpm } from './npm';
import type { Log } from './paths';
import { cacheRoot, say } from './paths';

export const ZAPIER_CLI_VERSION = '19.1.0';

export function zapierCliDir(): string {
	return path.join(cacheRoot(), `zapier-cli-${ZAPIER_CLI_VERSION}`);
}

/** The CLI's entry script (`zapier-platform`), installed with the Node 22 `nodeBin` when missing. */
export function ensureZapierCli(nodeBin: string, { log = say }: { log?: Log } = {}): string {
	const dir = zapierCliDir();
	const pkgFile = path.join(dir, 'node_modules', 'zapier-platform-cli', 'package.json');
	const entry = path.join(dir, 'node_modules', 'zapier-platform-cli', 'src', 'bin', 'run');
	let version: string | undefined;
	try {
		version = (JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version?: string }).version;
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
