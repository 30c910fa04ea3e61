#!/usr/bin/env node
/** `npm test` runs the Zapier app's tests too: install zapier/'s own dependencies when they are missing. */
const { existsSync } = require('fs');
const { spawnSync } = require('child_process');
const path = require('path');

const zapier = path.join(__dirname, '..', 'zapier');
if (!existsSync(path.join(zapier, 'node_modules', 'zapier-platform-core', 'package.json'))) {
	console.log('Installing the Zapier app dependencies (zapier/, once)…');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: zapier, stdio: 'inherit' });
	process.exit(r.status ?? 1);
}
