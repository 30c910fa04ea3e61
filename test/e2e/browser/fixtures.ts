/**
 * The suite's fixtures, both worker-scoped (started once for the worker, as
 * n8n's own Playwright harness does with its n8n instances): with one worker
 * and the checks in one serial group, n8n starts once per run (once more for a
 * retry, on a fresh user folder).
 *   - `n8n`: the n8n `npm start` gives (scripts/lib/local-n8n.js: 2.41.0 on
 *     Node 24 by default, 2.8.4 with POST_WRITER_N8N=oldest) on a fresh user
 *     folder and free ports, with the packed node and the sandbox (in this
 *     process: the checks read its state), and what the editor must show, read
 *     from the package's own descriptions;
 *   - `editor`: one page in a context of the `browser` fixture (Debian's
 *     Chromium, see playwright.config.ts), kept from check to check; its console
 *     goes to <logs>/browser-console.log.
 * The built-in trace and failure screenshot cover this context too: Playwright
 * records every context of the worker during each test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
// Loaded here, through Playwright's require hook: scripts/lib/n8n-workflows.ts loads the sandbox with a
// dynamic import(), which Playwright leaves to Node's ESM loader, and that cannot read TypeScript; a
// module in require's cache is what that import then gets.
import '../../../sandbox';
import { startLocalN8n, type LocalN8n } from '../../../scripts/lib/local-n8n';
import { PACKAGE_DIR } from '../../../scripts/lib/n8n-runtime';
import { RUNTIME, runDirs, say } from './suite';

/** What the editor must show, from the build that was just packed and installed. */
export interface Expected {
	displayName: string;
	actions: string[];
	events: string[];
	rule401: string;
	usableAsTool: boolean;
}

export interface N8nFixture {
	local: LocalN8n;
	expected: Expected;
	/** The worker's logs folder (<logs>, or <logs>/worker-<n> for a retry's worker). */
	logs: string;
}

export interface EditorFixture {
	page: Page;
	/** The page's console so far (the last 1000 to 2000 lines). */
	console(): string[];
}

interface Property {
	name: string;
	options?: Array<{ name: string; action?: string; value?: unknown }>;
}

/**
 * The package's own descriptions, from n8n/dist (the installed copy cannot load
 * n8n-workflow outside n8n): what the editor must show.
 */
function expectedFromPackage(packageDir: string): Expected {
	const load = (rel: string) => {
		// The compiled node and credential classes, as n8n loads them.
		const mod = module.require(path.join(packageDir, rel)) as Record<string, unknown>;
		const Klass = Object.values(mod).find((v) => typeof v === 'function') as new () => any;
		return new Klass();
	};
	const node = load('dist/nodes/PostWriter/PostWriter.node.js').description as { displayName: string; usableAsTool?: boolean; properties: Property[] };
	const trigger = load('dist/nodes/PostWriterTrigger/PostWriterTrigger.node.js').description as { properties: Property[] };
	const credential = load('dist/credentials/PostWriterApi.credentials.js') as { test: { rules: Array<{ properties: { value: number; message: string } }> } };
	const actions = node.properties.filter((p) => p.name === 'operation').flatMap((p) => (p.options ?? []).map((o) => o.action ?? o.name));
	const events = (trigger.properties.find((p) => p.name === 'event')?.options ?? []).map((o) => `On ${o.name.toLowerCase()}`);
	const rule401 = credential.test.rules.find((r) => r.properties.value === 401)?.properties.message ?? '';
	return { displayName: node.displayName, actions, events, rule401, usableAsTool: node.usableAsTool === true };
}

export const test = base.extend<object, { n8n: N8nFixture; editor: EditorFixture }>({
	n8n: [
		async ({}, use, workerInfo) => {
			const { work, logs: runLogs } = runDirs();
			// A retry runs in a new worker: its own user folder and logs, the first attempt's kept.
			const suffix = workerInfo.workerIndex === 0 ? '' : `-${workerInfo.workerIndex}`;
			const logs = suffix ? path.join(runLogs, `worker${suffix}`) : runLogs;
			const local = await startLocalN8n({
				runtime: RUNTIME,
				userFolder: path.join(work, `user${suffix}`),
				workDir: path.join(work, `work${suffix}`),
				logDir: logs,
				port: 0,
				keySeed: `e2e-browser-${process.pid}-${Date.now()}`,
				log: (m) => say(`  ${m}`),
			});
			say(`  n8n ${local.n8n.version} at ${local.editorUrl}, sandbox at ${local.sandbox.baseUrl}`);
			try {
				await use({ local, expected: expectedFromPackage(PACKAGE_DIR), logs });
			} finally {
				await local.stop();
			}
		},
		// ensureN8n may install n8n (5 to 8 minutes) before the start (up to 4 minutes under load).
		{ scope: 'worker', timeout: 15 * 60_000 },
	],
	editor: [
		async ({ browser }, use) => {
			const { consoleLog } = runDirs();
			let lines: string[] = [];
			const logConsole = (line: string) => {
				lines.push(line);
				if (lines.length > 2000) lines = lines.slice(-1000);
				fs.appendFileSync(consoleLog, `${line}\n`);
			};
			const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
			const page = await context.newPage();
			page.setDefaultTimeout(30_000);
			page.on('console', (m) => logConsole(`[${new Date().toISOString()}] ${m.type()}: ${m.text()}`));
			page.on('pageerror', (e) => logConsole(`[${new Date().toISOString()}] pageerror: ${e.message}`));
			try {
				await use({ page, console: () => lines });
			} finally {
				await context.close();
			}
		},
		{ scope: 'worker', timeout: 60_000 },
	],
});

export { expect } from '@playwright/test';
