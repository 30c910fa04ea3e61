#!/usr/bin/env node
/**
 * `npm run test:e2e`: the end-to-end workflows in real n8n, on both supported ends:
 *   - n8n 2.8.4 on Node 20, the oldest n8n the package supports;
 *   - n8n 2.41.0 on Node 24, the newest 2.x that installs from the registry here;
 *   - the trigger check once more on 2.41.0 with n8n's durable poller on.
 * Each is scripts/e2e-n8n.js with its own n8n, sandbox and ports; they run side
 * by side (E2E_CONCURRENCY, default 3), their logs in .e2e/runs/ and printed whole,
 * each ending with "n8n <version>…: N passed, M failed".
 * Arguments: --only=<name>[,<name>] to run some of them (oldest, newest, durable).
 */
'use strict';
const path = require('node:path');
const rt = require('./lib/n8n-runtime');
const { runSuites, report } = require('./lib/suites');

const SCRIPT = path.join(__dirname, 'e2e-n8n.js');
const RUNS = [
	{ name: 'oldest', args: ['--runtime=oldest'] },
	{ name: 'newest', args: ['--runtime=newest'] },
	{ name: 'durable', args: ['--runtime=newest', '--durable', '--only=trigger'] },
];

async function main() {
	const started = Date.now();
	const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
	const runs = RUNS.filter((r) => !only || only.includes(r.name));
	// Install both runtimes first, one at a time (each install uses both cores), so that the runs only start n8n.
	for (const name of new Set(runs.map((r) => (r.name === 'oldest' ? 'oldest' : 'newest')))) await rt.ensureN8n(name);
	const results = await runSuites(
		runs.map((r) => ({ name: `e2e-${r.name}`, command: process.execPath, args: ['-r', 'ts-node/register/transpile-only', SCRIPT, ...r.args], timeoutMs: 20 * 60_000 })),
		{ outDir: path.join(rt.ROOT, '.e2e', 'runs'), concurrency: Number(process.env.E2E_CONCURRENCY || 3), started },
	);
	const ok = report(results);
	process.stdout.write(`\nend to end: ${results.length} n8n runs in ${Math.round((Date.now() - started) / 1000)} s\n`);
	process.exit(ok ? 0 : 1);
}

main().catch((error) => {
	process.stdout.write(`E2E aborted: ${(error && error.stack) || error}\n`);
	process.exit(1);
});
