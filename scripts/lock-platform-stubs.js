#!/usr/bin/env node
/**
 * Keeps package-lock.json usable by `npm ci` when the registry mirror lacks
 * some platform-specific optional packages (e.g. @unrs/resolver-binding-darwin-x64).
 * `npm install` silently skips an optional package it cannot fetch and leaves it
 * out of the lock; `npm ci` then calls the lock out of sync. This adds, for each
 * such package, a lock entry carrying only its version and its os/cpu/libc, taken
 * from its name, so that npm skips it on this platform as it would anyway.
 * Run it after any `npm install` that changes the lock: node scripts/lock-platform-stubs.js
 */
const fs = require('fs');
const path = require('path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;

const OS = { android: 'android', darwin: 'darwin', freebsd: 'freebsd', linux: 'linux', openharmony: 'openharmony', win32: 'win32' };
const CPU = { arm: 'arm', 'arm-eabi': 'arm', arm64: 'arm64', x64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };

function platformOf(name) {
	const m = /-(android|darwin|freebsd|linux|openharmony|win32)-(arm-eabi|arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnueabihf|musleabihf|gnu|musl|msvc))?$/.exec(name);
	if (!m) return undefined;
	const out = { os: [OS[m[1]]], cpu: [CPU[m[2]]] };
	if (m[3] && m[1] === 'linux') out.libc = [m[3].startsWith('musl') ? 'musl' : 'glibc'];
	return out;
}

let added = 0;
for (const [where, entry] of Object.entries(pk)) {
	for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
		if (pk[`${where}/node_modules/${dep}`] || pk[`node_modules/${dep}`]) continue;
		const platform = platformOf(dep);
		if (!platform) {
			console.warn(`left alone: ${dep} (no platform in its name)`);
			continue;
		}
		pk[`node_modules/${dep}`] = { version, dev: entry.dev, optional: true, ...platform };
		added++;
	}
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform stub entries added`);
