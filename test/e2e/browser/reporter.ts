/**
 * The end of a run, once the workers (and so n8n, the sandbox and Chromium)
 * are stopped: after a green run, the docs images (SAVE_DOCS_IMAGES=1, which
 * `--save-docs-images` sets) and the removal of the n8n folders; with
 * SECRET_SCAN_DIR set, the logs (not the screenshots) copied into
 * $SECRET_SCAN_DIR/e2e-browser/; the logs folder printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter } from '@playwright/test/reporter';
import { DOCS_IMAGES, ROOT, runDirs, say, textFiles } from './suite';

export default class BrowserSuiteReporter implements Reporter {
	private started = Date.now();

	printsToStdio(): boolean {
		return false;
	}

	onEnd(result: FullResult): void {
		if (!process.env.E2E_BROWSER_WORK) return;
		const { work, logs, shots } = runDirs();
		if (result.status === 'passed') {
			if (process.env.SAVE_DOCS_IMAGES === '1') copyDocsImages(shots);
			for (const entry of fs.readdirSync(work)) if (entry !== 'logs') fs.rmSync(path.join(work, entry), { recursive: true, force: true });
		} else if (process.env.SAVE_DOCS_IMAGES === '1') {
			say(`  docs/images/ left as it was: the run ended ${result.status}`);
		}
		say(`\nlogs and screenshots: ${logs} (${Math.round((Date.now() - this.started) / 1000)} s)`);
		if (process.env.SECRET_SCAN_DIR) {
			const dest = path.join(process.env.SECRET_SCAN_DIR, 'e2e-browser');
			for (const file of textFiles(logs)) {
				const target = path.join(dest, path.relative(logs, file));
				fs.mkdirSync(path.dirname(target), { recursive: true });
				fs.copyFileSync(file, target);
			}
		}
	}
}

function copyDocsImages(shots: string): void {
	const dest = path.join(ROOT, 'docs', 'images');
	fs.mkdirSync(dest, { recursive: true });
	for (const [shot, name] of Object.entries(DOCS_IMAGES)) {
		const from = path.join(shots, `${shot}.png`);
		if (!fs.existsSync(from)) continue;
		fs.copyFileSync(from, path.join(dest, `${name}.png`));
		say(`  docs/images/${name}.png (${Math.round(fs.statSync(from).size / 1024)} KB)`);
	}
}
