/**
 * Ctrl-C (or a SIGTERM from CI's time limit) during the rehearsal: the process
 * groups it started (verdaccio, n8n; detached, so the terminal's signal never
 * reaches them) are stopped here. A test file cannot do it: jest gives it a
 * copy of `process` whose signal listeners Node never calls. This runs in
 * jest's own process, which runs the tests too (one worker, in band); the test
 * file writes each group it starts into the file E2E_REGISTRY_GROUPS names
 * (see track() in registry.test.ts), one JSON line each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function globalSetup(): void {
	const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-registry-groups-')), 'groups.jsonl');
	fs.writeFileSync(file, '');
	process.env.E2E_REGISTRY_GROUPS = file;
	const stop = (signal: NodeJS.Signals) => {
		process.stdout.write(`\n${signal === 'SIGINT' ? 'interrupted' : 'terminated'} (${signal}): stopping n8n and the registry\n`);
		const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
		for (const line of lines) {
			const entry = JSON.parse(line) as { pid?: number; logs?: string; what?: string };
			if (entry.logs) process.stdout.write(`logs: ${entry.logs}\n`);
			if (!entry.pid) continue;
			try {
				process.kill(-entry.pid, 'SIGTERM');
			} catch {
				// gone already
			}
		}
		fs.rmSync(path.dirname(file), { recursive: true, force: true });
		process.exit(signal === 'SIGINT' ? 130 : 143);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}
