/**
 * The n8n package as n8n receives it: built and packed (npm pack) under a
 * lock, so that suites running side by side never pack a build another one is
 * writing, and unpacked where n8n loads it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildN8n } from './n8n-build';
import { PACKAGE_DIR, ROOT } from './paths';

/** A packed n8n package. */
export interface PackedPackage {
	/** The .tgz file. */
	tarball: string;
	/** The paths in the tarball, as npm pack lists them. */
	files: string[];
	/** The package's npm name. */
	name: string;
}

/**
 * Runs `fn` holding a lock on n8n/dist (a folder created atomically under .e2e/),
 * so that suites running side by side never pack a build another one is writing.
 */
export function withBuildLock<T>(fn: () => T): T {
	const lock = path.join(ROOT, '.e2e', 'build.lock');
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const until = Date.now() + 10 * 60_000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			let age = 0;
			try {
				age = Date.now() - fs.statSync(lock).mtimeMs;
			} catch {
				continue; // released meanwhile
			}
			// A lock older than any build was left by a run that was killed.
			if (age > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
			else if (Date.now() > until) throw new Error(`n8n/dist stayed locked for 10 minutes (${lock}); remove it if no build runs`);
			else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
		}
	}
	try {
		return fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** Builds the package (n8n part) and packs it into `dest`, under the build lock. */
export function buildAndPack(dest: string): PackedPackage {
	return withBuildLock(() => {
		const built = buildN8n();
		process.stdout.write(`[build] n8n package built in ${built.milliseconds} ms: ${built.assets} assets copied, ${built.listed} n8n entries present.\n`);
		fs.mkdirSync(dest, { recursive: true });
		const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: PACKAGE_DIR, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
		if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
		const info = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; name: string; files: { path: string }[] }[])[0];
		return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path), name: info.name };
	});
}

/** Unpacks an npm tarball (package/…) into `dir` (emptied first). */
export function unpack(tarball: string, dir: string): void {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const tar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
}
