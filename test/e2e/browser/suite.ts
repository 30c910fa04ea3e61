/**
 * What the browser suite's files share: the run's folders (made by
 * global-setup.ts, handed to the workers and the reporter through the
 * environment), the progress log, the screenshots the READMEs show.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
/** Debian's Chromium (scripts/lib/debian.js installs it): Playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';
/** The n8n runtime: "newest" (2.41.0, the default) or "oldest" (2.8.4); `--n8n=<name>` through run.ts. */
export const RUNTIME = process.env.POST_WRITER_N8N === 'oldest' ? 'oldest' : 'newest';
/** The screenshots shown in README.md and n8n/README.md (docs/images/<name>.png), copied by `--save-docs-images` (SAVE_DOCS_IMAGES=1) after a green run. */
export const DOCS_IMAGES: Record<string, string> = {
	'02-node-creator': 'n8n-node-creator',
	'04-generate-output': 'n8n-generate-output',
	'05-activate-profile-list': 'n8n-activate-profile-list',
	'06-credential-test-ok': 'n8n-credential-test-ok',
	'08-ai-agent-tools-picker': 'n8n-ai-agent-tool',
};
export const KEY_PATTERN = /pw_live_[0-9a-f]{32}/;

/** The run's work folder and what is in it; E2E_BROWSER_WORK is set by global-setup.ts. */
export function runDirs(): { work: string; logs: string; shots: string; consoleLog: string } {
	const work = process.env.E2E_BROWSER_WORK;
	if (!work) throw new Error('E2E_BROWSER_WORK is not set: run the suite with `npm run test:browser` (its global setup makes the work folder)');
	const logs = path.join(work, 'logs');
	return { work, logs, shots: path.join(logs, 'screenshots'), consoleLog: path.join(logs, 'browser-console.log') };
}

/** One line of progress: on stdout and in <logs>/e2e-browser.out.log. */
export function say(message = ''): void {
	process.stdout.write(`${message}\n`);
	const { logs } = runDirs();
	fs.mkdirSync(logs, { recursive: true });
	fs.appendFileSync(path.join(logs, 'e2e-browser.out.log'), `${message}\n`);
}

/** Every file under `dir` but the screenshots. */
export function textFiles(dir: string): string[] {
	const out: string[] = [];
	if (!fs.existsSync(dir)) return out;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...textFiles(full));
		else if (!entry.name.endsWith('.png')) out.push(full);
	}
	return out;
}
