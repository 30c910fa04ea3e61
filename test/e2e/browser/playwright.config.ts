/**
 * The browser suite (`npm run test:browser`, through run.ts): @playwright/test
 * with Debian's Chromium, one worker, n8n started once per worker (fixtures.ts).
 * Reports: list on the console, JSON (PLAYWRIGHT_JSON_OUTPUT_FILE, default
 * .e2e/playwright-browser.json) and HTML (PLAYWRIGHT_HTML_OUTPUT_DIR, default
 * .e2e/playwright-report), never opened; traces and screenshots of failed
 * tests in .e2e/playwright-results (PLAYWRIGHT_OUTPUT_DIR), which the HTML report shows.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, ROOT } from './suite';

const E2E = path.join(ROOT, '.e2e');

export default defineConfig({
	testDir: __dirname,
	testMatch: '*.spec.ts',
	outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? path.join(E2E, 'playwright-results'),
	globalSetup: './global-setup.ts',
	// Per check, as the old script's step limit; n8n's start has its own (fixtures.ts).
	timeout: 120_000,
	expect: { timeout: 10_000 },
	// The whole run: n8n's start under load, nine checks, a retry on CI.
	globalTimeout: 25 * 60_000,
	workers: 1,
	fullyParallel: false,
	forbidOnly: !!process.env.CI,
	// No retries but the editor group's on CI (editor.spec.ts).
	retries: 0,
	reporter: [
		['list'],
		['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? path.join(E2E, 'playwright-browser.json') }],
		['html', { outputFolder: process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? path.join(E2E, 'playwright-report'), open: 'never' }],
		['./reporter.ts'],
	],
	use: {
		browserName: 'chromium',
		headless: true,
		launchOptions: {
			executablePath: CHROMIUM,
			args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
			timeout: 60_000,
		},
		// n8n's editor marks its elements with data-test-id.
		testIdAttribute: 'data-test-id',
		actionTimeout: 30_000,
		navigationTimeout: 30_000,
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
	},
});
