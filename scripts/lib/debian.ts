/**
 * Debian packages the end-to-end suites need (PostgreSQL and Redis for queue
 * mode, Chromium for the browser test), installed with apt-get when missing.
 * The downloaded .deb files are kept in ${POST_WRITER_CACHE:-~/.cache/post-writer}/apt,
 * so a machine that has the cache installs them again without downloading.
 * apt-get runs as root (as on these machines) or through passwordless sudo
 * (as on GitHub's runners); without either, it says what to install by hand.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Log } from './paths';
import { cacheRoot, say } from './paths';

/** What ensureDebianPackages did. */
export interface DebianInstall {
	/** The packages it installed (none when all were there). */
	installed: string[];
	seconds: number;
}

/** True when the Debian package is installed. */
export function installed(pkg: string): boolean {
	const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
	return r.status === 0 && /install ok installed/.test(r.stdout);
}

/**
 * Installs the packages that are missing. `log` gets one line per step.
 * Throws with the command to run when it cannot install.
 */
export function ensureDebianPackages(packages: string[], { log = say }: { log?: Log } = {}): DebianInstall {
	const missing = packages.filter((p) => !installed(p));
	if (missing.length === 0) return { installed: [], seconds: 0 };
	// Root runs apt-get itself (as here); elsewhere, passwordless sudo (as on GitHub's runners), or the command to run by hand.
	const root = typeof process.getuid !== 'function' || process.getuid() === 0;
	const sudo = !root && spawnSync('sudo', ['-n', 'true']).status === 0;
	if (!root && !sudo) {
		throw new Error(`Debian packages missing: ${missing.join(', ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`);
	}
	const archives = path.join(cacheRoot(), 'apt', 'archives');
	fs.mkdirSync(path.join(archives, 'partial'), { recursive: true });
	const logFile = path.join(cacheRoot(), 'apt', 'apt.log');
	const started = Date.now();
	const apt = (args: string[], timeoutMs: number): SpawnSyncReturns<Buffer> => {
		const out = fs.openSync(logFile, 'a');
		try {
			const argv = ['-o', `Dir::Cache::archives=${archives}`, ...args];
			return spawnSync(sudo ? 'sudo' : 'apt-get', sudo ? ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...argv] : argv, {
				stdio: ['ignore', out, out],
				timeout: timeoutMs,
				env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			});
		} finally {
			fs.closeSync(out);
		}
	};
	log(`Debian packages: installing ${missing.join(', ')} with apt-get (downloads kept in ${archives})…`);
	// From the cached .debs first; apt-get update only when that is not enough.
	let r = apt(['install', '-y', '--no-install-recommends', ...missing], 600_000);
	if (r.status !== 0) {
		const update = apt(['update'], 300_000);
		if (update.status !== 0) throw new Error(`apt-get update failed; see ${logFile}`);
		r = apt(['install', '-y', '--no-install-recommends', ...missing], 900_000);
	}
	if (r.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed (exit ${r.status}); see ${logFile}`);
	const seconds = Math.round((Date.now() - started) / 1000);
	log(`Debian packages: ${missing.join(', ')} installed in ${seconds} s`);
	return { installed: missing, seconds };
}
