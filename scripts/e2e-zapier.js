#!/usr/bin/env node
/**
 * `npm run test:zapier-cli`: the Zapier app under Zapier's own CLI and runtime version.
 *
 *   1. Node 22 and zapier-platform-cli@19.1.0, from the cache or installed there (scripts/lib/node-binary.js);
 *   2. the app built (tsc) and `zapier-platform validate --without-style` (must pass);
 *   3. the sandbox started on 127.0.0.1, a random port; zapier/.env written with
 *      authData_apiKey and authData_baseUrl (an existing .env is put back afterwards);
 *   4. `zapier-platform invoke`: auth test, auth label, trigger newPublishedPost,
 *      create generatePost, and the auth test with a revoked key; outputs asserted;
 *   5. the Zapier jest tests (test/zapier) run with Node 22, Zapier's runtime.
 * Prints "zapier-cli: N passed, M failed" and exits non-zero on a failure.
 * Every child process is bounded in time; nothing reaches beyond 127.0.0.1.
 * Options: --skip-jest (leave step 5 out).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ensureNode22, ensureZapierCli } = require('./lib/node-binary');

const ROOT_TSCONFIG = path.resolve(__dirname, '..', 'tsconfig.json');
require('ts-node').register({ transpileOnly: true, project: ROOT_TSCONFIG });
const { BRAND } = require('../shared/brand.ts');

const ROOT = path.resolve(__dirname, '..');
const APP_DIR = path.join(ROOT, 'zapier');
const ENV_FILE = path.join(APP_DIR, '.env');
const SKIP_JEST = process.argv.includes('--skip-jest');
const started = Date.now();

const results = [];
function say(message) {
	process.stdout.write(`${message}\n`);
}
function check(name, ok, detail = '') {
	results.push({ name, ok });
	say(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` — ${detail}` : ''}`);
	return ok;
}

/** Runs a command asynchronously (the in-process sandbox must keep answering), bounded in time. */
function exec(cmd, args, { cwd = ROOT, env = process.env, timeoutMs = 120_000 } = {}) {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid, 'SIGKILL'); // the process group this call started
			} catch {
				child.kill('SIGKILL');
			}
		}, timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, timedOut: signal === 'SIGKILL' });
		});
	});
}

/** The JSON document a `zapier-platform invoke` printed (after its progress lines). */
function jsonOf(text) {
	const clean = text.replace(/\u001b\[[0-9;]*m/g, '');
	const start = clean.search(/^[[{]/m);
	if (start < 0) return undefined;
	try {
		return JSON.parse(clean.slice(start).trim());
	} catch {
		return undefined;
	}
}

function tail(text, lines = 15) {
	return text.replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n').slice(-lines).join('\n');
}

async function main() {
	say('== Zapier CLI on Node 22');
	const node22 = ensureNode22({ log: say });
	const cli = ensureZapierCli(node22, { log: say });
	const env = {
		...process.env,
		PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}`,
		DISABLE_ZAPIER_ANALYTICS: '1',
		NO_UPDATE_NOTIFIER: '1',
		npm_config_update_notifier: 'false',
		FORCE_COLOR: '0',
	};
	const zp = (args, timeoutMs = 120_000) => exec(node22, [cli, ...args], { cwd: APP_DIR, env, timeoutMs });

	if (!fs.existsSync(path.join(APP_DIR, 'node_modules', 'zapier-platform-core'))) {
		say('== npm ci in zapier/');
		const r = await exec('npm', ['ci', '--no-audit', '--no-fund'], { cwd: APP_DIR, timeoutMs: 300_000 });
		if (!check('zapier/ dependencies installed', r.code === 0, r.code === 0 ? '' : tail(r.stdout + r.stderr))) return;
	}

	say('== build');
	const build = await exec(process.execPath, [path.join(APP_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', APP_DIR], { timeoutMs: 180_000 });
	if (!check('the app builds (tsc -p zapier)', build.code === 0, build.code === 0 ? '' : tail(build.stdout + build.stderr))) return;

	say('== zapier-platform validate --without-style');
	const validate = await zp(['validate', '--without-style'], 180_000);
	const validateText = validate.stdout + validate.stderr;
	check('zapier-platform validate --without-style passes', validate.code === 0 && /structurally sound/.test(validateText), tail(validateText, 6));

	say('== sandbox on 127.0.0.1');
	const { startSandbox } = require(path.join(ROOT, 'sandbox', 'server.ts'));
	const sandbox = await startSandbox({ clockTicks: true });
	say(`sandbox at ${sandbox.baseUrl}`);
	const previousEnv = fs.existsSync(ENV_FILE) ? fs.readFileSync(ENV_FILE) : undefined;
	const writeEnv = (apiKey) => fs.writeFileSync(ENV_FILE, `authData_apiKey=${apiKey}\nauthData_baseUrl=${sandbox.baseUrl}\n`, { mode: 0o600 });
	try {
		writeEnv(sandbox.keys.full);

		say('== zapier-platform invoke auth test');
		let r = await zp(['invoke', 'auth', 'test']);
		let out = jsonOf(r.stdout);
		check('invoke auth test: the profile of the sandbox account', r.code === 0 && out?.name === 'Sandbox User' && out?.email === 'sandbox.user@example.com', r.code === 0 ? '' : tail(r.stdout + r.stderr));

		r = await zp(['invoke', 'auth', 'label']);
		check(
			'invoke auth label: name and email, never the key',
			r.code === 0 && r.stdout.includes('Sandbox User (sandbox.user@example.com)') && !r.stdout.includes(sandbox.keys.full),
			tail(r.stdout, 2),
		);

		say('== zapier-platform invoke trigger newPublishedPost');
		r = await zp(['invoke', 'trigger', 'newPublishedPost', '--non-interactive']);
		out = jsonOf(r.stdout);
		const times = Array.isArray(out) ? out.map((p) => Date.parse(p.publishedAt)) : [];
		check(
			'invoke trigger newPublishedPost: the posts, newest first, id = post id',
			r.code === 0 && Array.isArray(out) && out.length >= 12 && out.every((p) => /^pst_/.test(p.id)) && times.every((t, i) => i === 0 || t <= times[i - 1]),
			r.code === 0 ? `${Array.isArray(out) ? out.length : 0} posts` : tail(r.stdout + r.stderr),
		);

		say('== zapier-platform invoke create generatePost');
		const spentBefore = sandbox.stats.creditsSpent;
		r = await zp(['invoke', 'create', 'generatePost', '--inputData', JSON.stringify({ prompt: 'Why we moved our team to a four-day week', numProposals: 2 }), '--non-interactive']);
		out = jsonOf(r.stdout);
		check(
			'invoke create generatePost: two proposals, a draft, the credits left',
			r.code === 0 &&
				Array.isArray(out?.proposals) &&
				out.proposals.length === 2 &&
				out.firstProposal === out.proposals[0] &&
				/^drf_/.test(out.draftId) &&
				Number.isInteger(out.creditsRemaining) &&
				sandbox.stats.creditsSpent === spentBefore + 1,
			r.code === 0 ? `creditsRemaining ${out?.creditsRemaining}` : tail(r.stdout + r.stderr),
		);

		say('== zapier-platform invoke auth test with a revoked key');
		writeEnv(sandbox.keys.revoked);
		r = await zp(['invoke', 'auth', 'test']);
		// The CLI wraps the error and prefixes each line with "›": compare without them.
		const text = (r.stdout + r.stderr).replace(/›/g, ' ').replace(/\s+/g, ' ');
		check(
			'a revoked key fails, saying to replace it',
			r.code !== 0 && /API key has been revoked/.test(text) && text.includes(`create a new key in ${BRAND.displayName} under ${BRAND.keysLocation.replace(/›/g, ' ').replace(/\s+/g, ' ')}, then reconnect`) && !text.includes(sandbox.keys.revoked),
			tail(text, 1).slice(0, 160),
		);
	} finally {
		if (previousEnv === undefined) fs.rmSync(ENV_FILE, { force: true });
		else fs.writeFileSync(ENV_FILE, previousEnv);
		await sandbox.close();
	}

	if (!SKIP_JEST) {
		say('== the Zapier jest tests on Node 22 (Zapier runtime)');
		const report = path.join(ROOT, '.e2e', 'zapier-jest-node22.json');
		fs.mkdirSync(path.dirname(report), { recursive: true });
		const jestBin = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
		const r = await exec(node22, [jestBin, 'test/zapier', '--ci', '--json', `--outputFile=${report}`], { env, timeoutMs: 300_000 });
		let summary = '';
		try {
			const j = JSON.parse(fs.readFileSync(report, 'utf8'));
			summary = `${j.numPassedTests} passed, ${j.numFailedTests} failed under Node ${(await exec(node22, ['--version'])).stdout.trim()}`;
		} catch {
			summary = tail(r.stdout + r.stderr);
		}
		check('test/zapier under Node 22', r.code === 0, summary);
	}
}

main()
	.catch((e) => check('e2e run', false, e && e.stack ? e.stack : String(e)))
	.finally(() => {
		const passed = results.filter((r) => r.ok).length;
		const failed = results.length - passed;
		say(`(took ${Math.round((Date.now() - started) / 1000)} s)`);
		say(`zapier-cli: ${passed} passed, ${failed} failed`);
		process.exit(failed > 0 || results.length === 0 ? 1 : 0);
	});
