#!/usr/bin/env node
/** `npm test` runs the Zapier app's tests too: install zapier/'s own dependencies when they are missing. */
const { existsSync } = require('fs');
const { spawnSync } = require('child_process');
const path = require('path');

const zapier = path.join(__dirname, '..', 'zapier');
if (!existsSync(path.join(zapier, 'node_modules', 'zapier-platform-core', 'package.json'))) {
	console.log('Installing the Zapier app dependencies (zapier/, once)…');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	// zapier/ declares Node 22 (Zapier's runtime); its packages also run on Node 20 for these tests, so the
	// EBADENGINE notices of that mismatch are expected: only real errors are shown.
	const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: zapier, stdio: 'inherit' });
	if (r.status === 0) console.log('Zapier app dependencies installed.');
	process.exit(r.status ?? 1);
}
