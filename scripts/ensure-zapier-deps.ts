/** `npm test` runs the Zapier app's tests too: install zapier/'s own dependencies when they are missing. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const zapier = path.join(__dirname, '..', 'zapier');
if (!existsSync(path.join(zapier, 'node_modules', 'zapier-platform-core', 'package.json'))) {
	process.stdout.write('Installing the Zapier app dependencies (zapier/, once)…\n');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	// zapier/ declares Node 22 (Zapier's runtime); its packages also run on Node 20 for these tests, so the
	// EBADENGINE notices of that mismatch are expected: only real errors are shown.
	const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: zapier, stdio: 'inherit' });
	if (r.status === 0) process.stdout.write('Zapier app dependencies installed.\n');
	process.exitCode = r.status ?? 1;
}
