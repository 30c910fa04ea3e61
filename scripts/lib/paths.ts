/**
 * Where things are: the repository, the n8n package, and the cache of the big
 * installs outside the project's dependency tree
 * (${POST_WRITER_CACHE:-~/.cache/post-writer}).
 */
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository's root folder. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** The n8n community package: its own folder, package.json and dist/. */
export const PACKAGE_DIR = path.join(ROOT, 'n8n');

/** The cache of n8n runtimes, Node binaries, Zapier's CLI, verdaccio and .debs. */
export function cacheRoot(): string {
	return process.env.POST_WRITER_CACHE || path.join(os.homedir(), '.cache', 'post-writer');
}

/** One line on stdout. */
export function say(message = ''): void {
	process.stdout.write(`${message}\n`);
}

/** One line of progress. */
export type Log = (message: string) => void;
