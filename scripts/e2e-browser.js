#!/usr/bin/env node
/**
 * The editor in a real browser: headless Chromium (Debian's /usr/bin/chromium,
 * driven by playwright-core, which never downloads a browser) against the n8n
 * `npm start` gives (scripts/lib/local-n8n.js: 2.41.0 on Node 24 by default,
 * `--n8n=oldest` for 2.8.4), on a fresh temporary user folder and free ports.
 * Each check is counted:
 *   - sign-in with the owner login form;
 *   - the node creator finds "Post Writer" with its triggers and actions (the
 *     names expected are read from the installed package's descriptions);
 *   - Post Writer Trigger's "Fetch Test Event" shows the sandbox's latest post;
 *   - Generate opens with its fields, runs with "Execute step", and shows a
 *     proposal and `creditsRemaining` (the sandbox's balance) in the output;
 *   - Writing Profile › Activate's list loads the sandbox's profiles; the one
 *     picked is activated in the sandbox by "Execute step";
 *   - the credential test turns green with the sandbox key (and the sandbox saw
 *     the test call), the key never in the page;
 *   - with a revoked key it shows a message, recorded in the output;
 *   - the AI Agent's Tools picker offers "Post Writer Tool", and it connects;
 *   - no sandbox key anywhere in the logs.
 * A screenshot per step goes to <logs>/screenshots/; on a failure, a screenshot
 * and the page's console so far. `--save-docs-images` copies the chosen ones to
 * docs/images/. With SECRET_SCAN_DIR set, the logs (not the PNGs) are copied to
 * $SECRET_SCAN_DIR/e2e-browser/.
 * Ends with "browser: N passed, M failed"; exits 1 on any failure.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const rt = require('./lib/n8n-runtime');
const { startLocalN8n } = require('./lib/local-n8n');
const { ensureDebianPackages } = require('./lib/debian');

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
const { chromium, selectors } = require('playwright-core');

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const RUNTIME = arg('n8n') || process.env.POST_WRITER_N8N || 'newest';
const SAVE_DOCS_IMAGES = process.argv.includes('--save-docs-images');
const CHROMIUM = '/usr/bin/chromium';
const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-browser-'));
const LOGS = path.join(WORK, 'logs');
const SHOTS = path.join(LOGS, 'screenshots');
const CONSOLE_LOG = path.join(LOGS, 'browser-console.log');
/** Per step; the whole run has its own limit below. */
const STEP_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 12 * 60_000;
/** The screenshots shown in README.md (docs/images/<name>.png). */
const DOCS_IMAGES = {
	'02-node-creator': 'n8n-node-creator',
	'04-generate-output': 'n8n-generate-output',
	'05-activate-profile-list': 'n8n-activate-profile-list',
	'06-credential-test-ok': 'n8n-credential-test-ok',
	'08-ai-agent-tools-picker': 'n8n-ai-agent-tool',
};
const KEY_PATTERN = /pw_live_[0-9a-f]{32}/;
fs.mkdirSync(SHOTS, { recursive: true });

const results = [];
const cleanups = [];
const notes = [];
let consoleLines = [];
let stepNo = 0;

function say(message = '') {
	process.stdout.write(`${message}\n`);
	fs.appendFileSync(path.join(LOGS, 'e2e-browser.out.log'), `${message}\n`);
}

function expect(condition, message) {
	if (!condition) throw new Error(message);
}

function slug(name) {
	return name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 48);
}

function withTimeout(promise, ms, what) {
	let timer;
	return Promise.race([
		promise.finally(() => clearTimeout(timer)),
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms / 1000} s`)), ms);
		}),
	]);
}

/**
 * One counted check. `shot` names the screenshot taken after it (or on its
 * failure); a failure also saves the page's console so far. Returns whether it passed.
 */
async function check(ctx, name, shot, fn) {
	stepNo += 1;
	const base = shot ?? `${String(stepNo).padStart(2, '0')}-${slug(name)}`;
	if (ctx.blocked && !ctx.independent?.has(name)) {
		results.push({ name, ok: false });
		say(`  ✗ ${name}\n      not run: ${ctx.blocked}`);
		return false;
	}
	const started = Date.now();
	try {
		await withTimeout(fn(), STEP_TIMEOUT_MS, name);
		results.push({ name, ok: true });
		say(`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		await screenshot(ctx.page, base);
		return true;
	} catch (error) {
		results.push({ name, ok: false });
		say(`  ✗ ${name}\n      ${String((error && error.message) || error).split('\n').slice(0, 6).join('\n      ')}`);
		await screenshot(ctx.page, `${base}-FAILED`);
		fs.writeFileSync(path.join(SHOTS, `${base}-FAILED.console.log`), consoleLines.join('\n'));
		say(`      screenshot and console: ${path.join(SHOTS, `${base}-FAILED.*`)}`);
		return false;
	}
}

async function screenshot(page, name) {
	if (!page) return;
	try {
		await page.screenshot({ path: path.join(SHOTS, `${name}.png`), timeout: 15_000 });
	} catch (error) {
		say(`      (no screenshot ${name}: ${(error && error.message) || error})`);
	}
}

/**
 * The package's own descriptions, from the build that was just packed and
 * installed (n8n/dist; the installed copy cannot load n8n-workflow outside n8n): what the editor must show.
 */
function expectedFromPackage(packageDir) {
	const load = (rel) => {
		const mod = require(path.join(packageDir, rel));
		const Klass = Object.values(mod).find((v) => typeof v === 'function');
		return new Klass();
	};
	const node = load('dist/nodes/PostWriter/PostWriter.node.js').description;
	const trigger = load('dist/nodes/PostWriterTrigger/PostWriterTrigger.node.js').description;
	const credential = load('dist/credentials/PostWriterApi.credentials.js');
	const actions = node.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options.map((o) => o.action ?? o.name));
	const events = trigger.properties.find((p) => p.name === 'event').options.map((o) => `On ${o.name.toLowerCase()}`);
	const rule401 = credential.test.rules.find((r) => r.properties.value === 401).properties.message;
	return { displayName: node.displayName, actions, events, rule401, usableAsTool: node.usableAsTool === true };
}

/** The JSON an n8n output panel shows in its JSON view (read again until it renders, 15 s at most). */
async function outputJson(page) {
	const panel = page.getByTestId('output-panel');
	await panel.getByText(/^\d+ items?$/).first().waitFor({ timeout: 60_000 });
	await panel.getByTestId('radio-button-json').click();
	const until = Date.now() + 15_000;
	let text = '';
	while (Date.now() < until) {
		text = (await panel.getByTestId('ndv-data-container').innerText({ timeout: 5000 }).catch(() => '')).replace(/\u00a0/g, ' ');
		const start = text.indexOf('[');
		const end = text.lastIndexOf(']');
		if (start >= 0 && end > start) {
			try {
				return JSON.parse(text.slice(start, end + 1));
			} catch {
				// still rendering
			}
		}
		await page.waitForTimeout(250);
	}
	throw new Error(`no JSON in the output panel: ${text.slice(0, 300)}`);
}

/** Opens the node creator on the last node's "+" and picks one action of Post Writer. */
async function addPostWriterAction(page, action) {
	await page.getByTestId('canvas-handle-plus').last().click();
	await page.getByTestId('node-creator-search-bar').fill('Post Writer');
	await page.getByTestId('node-creator-item-name').filter({ hasText: /^Post Writer$/ }).first().click();
	const creator = page.getByTestId('node-creator');
	await expandSection(creator, /^Actions \(\d+\)$/, action);
	await creator.getByText(action, { exact: true }).click();
	await page.getByTestId('ndv').waitFor({ timeout: 30_000 });
}

/**
 * Opens a section of the node creator's node view (n8n remembers which are
 * open) until `item` shows: clicks its header only when the item stays hidden.
 */
async function expandSection(creator, header, item) {
	await creator.getByText(header).first().waitFor();
	const target = creator.getByText(item, { exact: true }).first();
	const visible = () => target.waitFor({ state: 'visible', timeout: 2000 }).then(() => true, () => false);
	if (await visible()) return;
	await creator.getByText(header).first().click();
	await target.waitFor({ state: 'visible', timeout: 10_000 });
}

/** Waits until the node's credential select shows `name`. */
async function credentialSelected(page, name) {
	const input = page.getByTestId('node-credentials-select').locator('input').first();
	const until = Date.now() + 15_000;
	let value = '';
	while (Date.now() < until) {
		value = await input.inputValue().catch(() => '');
		if (value === name) return;
		await page.waitForTimeout(250);
	}
	throw new Error(`the credential selected is "${value}", not "${name}"`);
}

async function closeNdv(page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: 15_000 });
}

async function main() {
	say(`Browser test: n8n "${RUNTIME}" with the packed node, headless Chromium; work dir ${WORK}`);
	ensureDebianPackages(['chromium'], { log: say });

	const n8n = await startLocalN8n({
		runtime: RUNTIME,
		userFolder: path.join(WORK, 'user'),
		workDir: path.join(WORK, 'work'),
		logDir: LOGS,
		port: 0,
		keySeed: `e2e-browser-${process.pid}-${Date.now()}`,
		log: (m) => say(`  ${m}`),
	});
	cleanups.push(() => n8n.stop());
	const { sandbox, editorUrl, owner } = n8n;
	say(`  n8n ${n8n.n8n.version} at ${editorUrl}, sandbox at ${sandbox.baseUrl}`);
	const expected = expectedFromPackage(rt.PACKAGE_DIR);
	const account = () => sandbox.state.account('acc_1');

	selectors.setTestIdAttribute('data-test-id');
	const context = await chromium.launchPersistentContext(path.join(WORK, 'chromium-profile'), {
		executablePath: CHROMIUM,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
		viewport: { width: 1280, height: 800 },
		timeout: 60_000,
	});
	cleanups.push(() => context.close());
	const page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(30_000);
	const logConsole = (line) => {
		consoleLines.push(line);
		if (consoleLines.length > 2000) consoleLines = consoleLines.slice(-1000);
		fs.appendFileSync(CONSOLE_LOG, `${line}\n`);
	};
	page.on('console', (m) => logConsole(`[${new Date().toISOString()}] ${m.type()}: ${m.text()}`));
	page.on('pageerror', (e) => logConsole(`[${new Date().toISOString()}] pageerror: ${e.message}`));
	const ctx = { page, blocked: undefined };

	say('\nChecks:');
	// 1. Sign-in.
	const signedIn = await check(ctx, 'sign-in with the owner login form', '01-signed-in', async () => {
		expect(owner, 'npm start created no owner account');
		await page.goto(`${editorUrl}/signin`);
		await page.getByTestId('signin-form').waitFor();
		await page.getByTestId('emailOrLdapLoginId').locator('input').fill(owner.email);
		await page.getByTestId('password').locator('input').fill(owner.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((u) => !/\/signin/.test(String(u)), { timeout: 30_000 });
		await page.getByTestId('project-home-menu-item').waitFor();
		// The example workflows npm start imports are listed.
		await page.getByTestId('resources-list-item-workflow').first().waitFor({ timeout: 30_000 });
		const names = await page.getByTestId('workflow-card-name').allInnerTexts();
		expect(names.some((n) => /Post Writer/.test(n)), `workflows listed: ${JSON.stringify(names)}`);
	});
	if (!signedIn) ctx.blocked = 'sign-in failed';

	// 2. The node creator.
	const found = await check(ctx, `the node creator finds "${expected.displayName}" with its ${expected.events.length} triggers and ${expected.actions.length} actions`, '02-node-creator', async () => {
		await page.goto(`${editorUrl}/workflow/new`);
		await page.getByTestId('canvas-plus-button').click();
		await page.getByTestId('node-creator-search-bar').fill(expected.displayName);
		const item = page.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${expected.displayName}$`) });
		await item.first().waitFor();
		await item.first().click();
		const creator = page.getByTestId('node-creator');
		await expandSection(creator, `Triggers (${expected.events.length})`, expected.events[0]);
		await expandSection(creator, `Actions (${expected.actions.length})`, expected.actions[0]);
		const missing = [];
		for (const name of [...expected.events, ...expected.actions]) {
			const shown = await creator
				.getByText(name, { exact: true })
				.first()
				.waitFor({ state: 'attached', timeout: 5000 })
				.then(() => true, () => false);
			if (!shown) missing.push(name);
		}
		expect(missing.length === 0, `not listed: ${missing.join(', ')}`);
		await creator.getByText(expected.events[0], { exact: true }).scrollIntoViewIfNeeded();
	});
	if (!found) ctx.blocked = 'the node creator did not list Post Writer';

	// 3. The trigger's Fetch Test Event.
	await check(ctx, 'Post Writer Trigger › New Published Post: "Fetch Test Event" shows the latest post', '03-trigger-fetch-test-event', async () => {
		await page.getByTestId('node-creator').getByText('On new published post', { exact: true }).click();
		await page.getByTestId('ndv').waitFor();
		await credentialSelected(page, n8n.credential.name);
		const fetchButton = page.getByTestId('node-execute-button');
		expect(/Fetch Test Event/i.test(await fetchButton.innerText()), `the button says "${await fetchButton.innerText()}"`);
		await fetchButton.click();
		const items = await outputJson(page);
		const latest = [...account().posts].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))[0];
		expect(items.length === 1, `${items.length} items`);
		expect(items[0].id === latest.id && typeof items[0].text === 'string' && items[0].metrics, `got ${JSON.stringify(items[0]).slice(0, 200)}, the sandbox's latest post is ${latest.id}`);
	});

	// 4. Generate.
	await check(ctx, 'Post › Generate opens with its fields', '04-generate-fields', async () => {
		await closeNdv(page);
		await addPostWriterAction(page, 'Generate post');
		for (const field of ['prompt', 'numProposals', 'saveDraft', 'scheduledAt']) await page.getByTestId(`parameter-input-${field}`).waitFor({ timeout: 10_000 });
		const params = await page.getByTestId('node-parameters').innerText();
		for (const label of ['Prompt', 'Number of Proposals', 'Save as Draft', 'Schedule At']) expect(params.includes(label), `no "${label}" field`);
	});
	await check(ctx, 'Generate runs with "Execute step" and shows a proposal and creditsRemaining', '04-generate-output', async () => {
		await page.getByTestId('parameter-input-prompt').locator('textarea').first().fill('Why we moved our team to a four-day week');
		const before = sandbox.stats.byRoute['POST /generate'] ?? 0;
		await page.getByTestId('node-execute-button').click();
		const items = await outputJson(page);
		expect(items.length === 1, `${items.length} items`);
		const [item] = items;
		expect(Array.isArray(item.proposals) && item.proposals.length === 1 && item.proposals[0].length > 20, `proposals: ${JSON.stringify(item.proposals)}`);
		expect(item.creditsRemaining === account().credits, `creditsRemaining ${item.creditsRemaining}, the sandbox has ${account().credits}`);
		expect((sandbox.stats.byRoute['POST /generate'] ?? 0) === before + 1, 'the sandbox did not get one generate call');
	});

	// 5. Activate's list.
	await check(ctx, "Writing Profile › Activate: the list loads the sandbox's profiles", '05-activate-profile-list', async () => {
		await closeNdv(page);
		await addPostWriterAction(page, 'Activate writing profile');
		await page.getByTestId('rlc-input').click();
		await page.getByTestId('rlc-item').first().waitFor({ timeout: 30_000 });
		const shown = (await page.getByTestId('rlc-item').allInnerTexts()).map((t) => t.trim());
		const wanted = account().writingProfiles.map((p) => p.name);
		expect(shown.length === wanted.length && wanted.every((name) => shown.some((s) => s.startsWith(name))), `shown ${JSON.stringify(shown)}, the sandbox has ${JSON.stringify(wanted)}`);
	});
	await check(ctx, 'Activate runs with the profile picked from the list', '05-activate-output', async () => {
		const target = account().writingProfiles.find((p) => !p.active);
		await page.getByTestId('rlc-item').filter({ hasText: target.name }).click();
		await page.getByTestId('node-execute-button').click();
		await outputJson(page);
		expect(account().writingProfiles.find((p) => p.id === target.id).active === true, `${target.id} is not active in the sandbox`);
	});

	// 6. The credential test, green.
	await check(ctx, 'the credential test turns green with the sandbox key, the key never in the page', '06-credential-test-ok', async () => {
		const before = sandbox.stats.byRoute['GET /account/profile'] ?? 0;
		await page.getByTestId('credential-edit-button').click();
		const modal = page.getByTestId('editCredential-modal').last();
		await modal.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		expect((sandbox.stats.byRoute['GET /account/profile'] ?? 0) > before, 'the sandbox saw no GET /account/profile');
		const keyInput = modal.getByTestId('parameter-input-apiKey').locator('input');
		expect((await keyInput.getAttribute('type')) === 'password', 'the API Key field is not a password field');
		expect(!(await keyInput.inputValue()).includes(sandbox.keys.full), 'the API Key field holds the key');
		expect(!(await page.content()).includes(sandbox.keys.full), 'the page holds the key');
	});

	// 7. The credential test with a revoked key.
	await check(ctx, 'the credential test with a revoked key shows a message', '07-credential-test-revoked', async () => {
		await page.getByTestId('editCredential-modal').last().getByRole('button', { name: 'Close this dialog' }).click();
		await page.getByTestId('node-credentials-select').click();
		await page.getByTestId('node-credentials-select-item-new').click();
		const modal = page.getByTestId('editCredential-modal').last();
		await modal.getByTestId('parameter-input-apiKey').locator('input').fill(sandbox.keys.revoked);
		await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(sandbox.baseUrl);
		await modal.getByTestId('credential-save-button').click();
		const failed = modal.getByText(/Couldn.t connect with these settings/);
		await failed.waitFor({ timeout: 30_000 });
		const details = modal.getByText('More details');
		if (await details.isVisible()) await details.click();
		const shown = modal.getByText(expected.rule401, { exact: true });
		const own = await shown.isVisible({ timeout: 5000 }).catch(() => false);
		// The banner as shown: from its title to the first field, without its buttons.
		const modalText = await modal.innerText();
		const from = modalText.search(/Couldn.t connect with these settings/);
		const to = modalText.indexOf('API Key', from);
		const banner = modalText
			.slice(from, to > from ? to : undefined)
			.split('\n')
			.map((l) => l.trim())
			.filter((l) => l && !/^(Retry|More details)$/.test(l))
			.join(' ');
		notes.push(`n8n ${n8n.n8n.version}, credential test with the revoked key shows: "${banner || (await failed.innerText())}"${own ? " (the credential's own 401 message)" : " (not the credential's own 401 message)"}`);
		expect((await modal.getByTestId('parameter-input-apiKey').locator('input').getAttribute('type')) === 'password', 'the API Key field is not a password field');
		// 2.8.x shows a generic text instead (NodeApiError drops the response, so the rules are never read); 2.41 shows the credential's own.
		if (RUNTIME === 'newest') expect(own, `the credential's own 401 message is not shown; the banner says "${banner}"`);
	});

	// 8. AI Agent's Tools picker.
	await check(ctx, 'the AI Agent\'s Tools picker offers "Post Writer Tool", and picking it puts it on the canvas', '08-ai-agent-canvas', async () => {
		expect(expected.usableAsTool, 'the node is not usableAsTool');
		await page.getByTestId('editCredential-modal').last().getByRole('button', { name: 'Close this dialog' }).click();
		await closeNdv(page);
		await page.getByTestId('canvas-handle-plus').last().click();
		await page.getByTestId('node-creator-search-bar').fill('AI Agent');
		await page.getByTestId('node-creator-item-name').filter({ hasText: /^AI Agent$/ }).first().click();
		await page.getByTestId('add-subnode-ai_tool-0').click();
		await page.getByTestId('node-creator-search-bar').fill(expected.displayName);
		const tool = page.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${expected.displayName} Tool$`) });
		await tool.waitFor();
		await screenshot(page, '08-ai-agent-tools-picker');
		await tool.click();
		await page.getByTestId('ndv').waitFor();
		await closeNdv(page);
		await page.getByTestId('zoom-to-fit').click();
		const names = await page.getByTestId('canvas-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-node-name') ?? ''));
		expect(names.some((n) => /Post Writer/.test(n)) && names.includes('AI Agent'), `canvas nodes: ${JSON.stringify(names)}`);
		await page.waitForTimeout(500);
	});

	// 9. No key in the logs (whatever happened before).
	ctx.independent = new Set(['no sandbox key in the logs']);
	await check(ctx, 'no sandbox key in the logs', '09-end', async () => {
		const hits = textFiles(LOGS).filter((f) => KEY_PATTERN.test(fs.readFileSync(f, 'utf8')));
		expect(hits.length === 0, `a key in ${hits.join(', ')}`);
	});
}

function textFiles(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...textFiles(full));
		else if (!entry.name.endsWith('.png')) out.push(full);
	}
	return out;
}

function copyDocsImages() {
	const dest = path.join(rt.ROOT, 'docs', 'images');
	fs.mkdirSync(dest, { recursive: true });
	for (const [shot, name] of Object.entries(DOCS_IMAGES)) {
		const from = path.join(SHOTS, `${shot}.png`);
		if (!fs.existsSync(from)) continue;
		fs.copyFileSync(from, path.join(dest, `${name}.png`));
		say(`  docs/images/${name}.png (${Math.round(fs.statSync(from).size / 1024)} KB)`);
	}
}

let finishing = false;
async function finish(code) {
	if (finishing) return;
	finishing = true;
	for (const cleanup of cleanups.reverse()) {
		try {
			await withTimeout(Promise.resolve().then(cleanup), 30_000, 'cleanup');
		} catch {
			// best effort
		}
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed + (code && results.every((r) => r.ok) ? 1 : 0);
	for (const note of notes) say(`note: ${note}`);
	if (failed === 0) {
		if (SAVE_DOCS_IMAGES) copyDocsImages();
		for (const dir of ['user', 'work', 'chromium-profile']) fs.rmSync(path.join(WORK, dir), { recursive: true, force: true });
	}
	say(`\nlogs and screenshots: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s)`);
	say(`browser: ${passed} passed, ${failed} failed`);
	if (process.env.SECRET_SCAN_DIR) {
		const dest = path.join(process.env.SECRET_SCAN_DIR, 'e2e-browser');
		for (const file of textFiles(LOGS)) {
			const target = path.join(dest, path.relative(LOGS, file));
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.copyFileSync(file, target);
		}
	}
	process.exit(failed > 0 ? 1 : 0);
}

process.on('SIGINT', () => finish(130));
process.on('SIGTERM', () => finish(143));
setTimeout(() => {
	say(`\nThe browser test did not end within ${RUN_TIMEOUT_MS / 60_000} minutes; stopping.`);
	finish(1);
}, RUN_TIMEOUT_MS).unref();
main().then(
	() => finish(0),
	(error) => {
		say(`\nBrowser test aborted: ${(error && error.stack) || error}`);
		finish(1);
	},
);
