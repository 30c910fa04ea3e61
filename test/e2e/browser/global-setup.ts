/**
 * Once per run, before any worker: the run's work folder (E2E_BROWSER_WORK,
 * which the workers and the reporter inherit) and Debian's Chromium, installed
 * with apt-get when missing, before the `browser` fixture launches it.
 * n8n itself is a worker fixture (fixtures.ts): the sandbox runs in the
 * process of the tests, which read its state.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackages } from '../../../scripts/lib/debian';
import { RUNTIME, runDirs, say } from './suite';

export default async function globalSetup(): Promise<void> {
	process.env.E2E_BROWSER_WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-browser-'));
	const { work, shots } = runDirs();
	fs.mkdirSync(shots, { recursive: true });
	say(`Browser test: n8n "${RUNTIME}" with the packed node, headless Chromium; work dir ${work}`);
	ensureDebianPackages(['chromium'], { log: say });
}
