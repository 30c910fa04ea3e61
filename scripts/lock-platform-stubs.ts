/**
 * Keeps package-lock.json usable by `npm ci` when the registry mirror lacks
 * some platform-specific optional packages (e.g. @unrs/resolver-binding-darwin-x64).
 * `npm install` silently skips an optional package it cannot fetch and leaves it
 * out of the lock; `npm ci` then calls the lock out of sync. This adds, for each
 * such package, a lock entry carrying only its version and its os/cpu/libc, taken
 * from its name, so that npm skips it on this platform as it would anyway.
 * Run it after any `npm install` that changes the lock: npm run lock:platform-stubs
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface LockEntry {
	version?: string;
	dev?: boolean;
	optional?: boolean;
	optionalDependencies?: Record<string, string>;
	os?: string[];
	cpu?: string[];
	libc?: string[];
}

/** The os, cpu and libc a platform package's name says (…-linux-x64-gnu), or undefined. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
	const m = /-(android|darwin|freebsd|linux|openharmony|win32)-(arm-eabi|arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnueabihf|musleabihf|gnu|musl|msvc))?$/.exec(name);
	if (!m) return undefined;
	const out: Pick<LockEntry, 'os' | 'cpu' | 'libc'> = { os: [m[1]], cpu: [m[2] === 'arm-eabi' ? 'arm' : m[2]] };
	if (m[3] && m[1] === 'linux') out.libc = [m[3].startsWith('musl') ? 'musl' : 'glibc'];
	return out;
}

function main(): void {
	const file = path.join(__dirname, '..', 'package-lock.json');
	const lock = JSON.parse(fs.readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
	const pk = lock.packages;
	let added = 0;
	for (const [where, entry] of Object.entries(pk)) {
		for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
			if (pk[`${where}/node_modules/${dep}`] || pk[`node_modules/${dep}`]) continue;
			const platform = platformOf(dep);
			if (!platform) {
				process.stderr.write(`left alone: ${dep} (no platform in its name)\n`);
				continue;
			}
			pk[`node_modules/${dep}`] = { version, dev: entry.dev, optional: true, ...platform };
			added++;
		}
	}
	fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
	process.stdout.write(`package-lock.json: ${added} platform stub entries added\n`);
}

if (require.main === module) main();
