/**
 * `npm run test:zapier-cli`: the Zapier app under Zapier's own CLI and runtime version.
 *
 *   1. Node 22 and zapier-platform-cli@19.1.0, from the cache or installed there (scripts/lib/node-binary.ts);
 *   2. the app built (tsc) and `zapier-platform validate --without-style` (must pass);
 *   3. the sandbox started on 127.0.0.1, a random port; zapier/.env written with
 *      authData_apiKey and authData_baseUrl (an existing .env is put back afterwards);
 *   4. `zapier-platform invoke`: auth test, auth label, trigger newPublishedPost,
 *      create generatePost, and the auth test with a revoked key; outputs asserted;
 *   5. the Zapier jest tests (test/zapier) run with Node 22, Zapier's runtime: one
 *      test for the whole run (0 failed, the counts in its figures) and one per test file.
 * This runner runs on the repository's Node 20; every Zapier step runs on Node 22
 * in a child process, bounded in time. Nothing reaches beyond 127.0.0.1.
 * Each step runs once, when the first test that needs it runs: `-- -t invoke`
 * runs the invoke tests alone, `-- -t 'Zapier CLI 19'` leaves step 5 out (the former --skip-jest).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BRAND } from '../../../shared/base';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { childEnv, expectEqual, onInterrupt, sayer, step } from '../queue/steps';
import { ensureNode22, ensureZapierCli } from '../../../scripts/lib/node-binary';
import { exec, jsonOf, tail } from './run';

const ROOT = path.resolve(__dirname, '../../..');
const APP_DIR = path.join(ROOT, 'zapier');
const ENV_FILE = path.join(APP_DIR, '.env');
/** The report of the Zapier jest tests run under Node 22. */
const REPORT = path.join(ROOT, '.e2e', 'zapier-jest-node22.json');
/** The Zapier jest test files, each one test below. */
const ZAPIER_TEST_FILES = fs
	.readdirSync(path.join(ROOT, 'test', 'zapier'))
	.filter((f) => f.endsWith('.test.ts'))
	.sort();
const say = sayer();

/** Node 22, Zapier's CLI on it, and the environment its commands run in. */
const toolchain = step(async () => {
	say('== Zapier CLI on Node 22');
	const node22 = ensureNode22({ log: say });
	const cli = ensureZapierCli(node22, { log: say });
	const env = {
		...childEnv(process.env),
		PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}`,
		DISABLE_ZAPIER_ANALYTICS: '1',
		NO_UPDATE_NOTIFIER: '1',
		npm_config_update_notifier: 'false',
		FORCE_COLOR: '0',
	};
	const zp = (args: string[], timeoutMs = 120_000) => exec(node22, [cli, ...args], { cwd: APP_DIR, env, timeoutMs });
	return { node22, env, zp };
});

/** zapier/'s dependencies (npm ci when missing) and the app built: what every CLI step loads. */
const build = step(async () => {
	if (!fs.existsSync(path.join(APP_DIR, 'node_modules', 'zapier-platform-core'))) {
		say('== npm ci in zapier/');
		const r = await exec('npm', ['ci', '--no-audit', '--no-fund'], { cwd: APP_DIR, timeoutMs: 300_000 });
		if (r.code !== 0) throw new Error(`npm ci in zapier/ failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
	}
	say('== build');
	return await exec(process.execPath, [path.join(APP_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', APP_DIR], { cwd: ROOT, timeoutMs: 180_000 });
});

/** The CLI's runs need the app built: they fail with the build's output when it is not. */
const built = async () => {
	const r = await build();
	if (r.code !== 0) throw new Error(`the app does not build (tsc -p zapier, exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
	return toolchain();
};

/** The sandbox, and zapier/.env pointing at it (the one found there first is put back in afterAll). */
let previousEnv: Buffer | undefined;
let envWritten = false;
let started: Sandbox | undefined;
const sandbox = step(async () => {
	say('== sandbox on 127.0.0.1');
	started = await startSandbox({ clockTicks: true });
	say(`sandbox at ${started.baseUrl}`);
	return started;
});
const writeEnv = async (key: 'full' | 'revoked') => {
	const s = await sandbox();
	if (!envWritten) {
		previousEnv = fs.existsSync(ENV_FILE) ? fs.readFileSync(ENV_FILE) : undefined;
		envWritten = true;
	}
	fs.writeFileSync(ENV_FILE, `authData_apiKey=${s.keys[key]}\nauthData_baseUrl=${s.baseUrl}\n`, { mode: 0o600 });
	return s;
};

/** The Zapier jest tests (test/zapier) on Node 22, with their JSON report. */
const zapierJest = step(async () => {
	const { node22, env } = await toolchain();
	say('== the Zapier jest tests on Node 22 (Zapier runtime)');
	fs.rmSync(REPORT, { force: true });
	fs.mkdirSync(path.dirname(REPORT), { recursive: true });
	const jestBin = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const run = await exec(node22, [jestBin, 'test/zapier', '--ci', '--json', `--outputFile=${REPORT}`], { cwd: ROOT, env, timeoutMs: 300_000 });
	const version = (await exec(node22, ['--version'], { cwd: ROOT })).stdout.trim();
	let report: JestReport | undefined;
	try {
		report = JSON.parse(fs.readFileSync(REPORT, 'utf8')) as JestReport;
	} catch {
		report = undefined;
	}
	say(report ? `test/zapier: ${report.numPassedTests} passed, ${report.numFailedTests} failed under Node ${version}` : `test/zapier: no report at ${REPORT}`);
	return { run, version, report };
});

/** What is read of a jest --json report. */
interface JestReport {
	numTotalTests: number;
	numPassedTests: number;
	numFailedTests: number;
	numPendingTests: number;
	testResults: { name: string; status: string; message: string; assertionResults: { status: string }[] }[];
}

/** zapier/.env as it was, and the sandbox closed. */
async function cleanup(): Promise<void> {
	if (envWritten) {
		envWritten = false;
		if (previousEnv === undefined) fs.rmSync(ENV_FILE, { force: true });
		else fs.writeFileSync(ENV_FILE, previousEnv);
	}
	await started?.close();
	started = undefined;
}

let removeInterruptHandlers: () => void = () => undefined;
beforeAll(() => {
	removeInterruptHandlers = onInterrupt(cleanup);
});
afterAll(async () => {
	removeInterruptHandlers();
	await cleanup();
});

describe('Zapier CLI 19 on Node 22', () => {
	test('the app builds (tsc -p zapier)', async () => {
		const r = await build();
		expectEqual({ exit: r.code }, { exit: 0 }, { output: r.code === 0 ? '' : tail(r.stdout + r.stderr) });
	});

	test('zapier-platform validate --without-style passes', async () => {
		const { zp } = await built();
		say('== zapier-platform validate --without-style');
		const r = await zp(['validate', '--without-style'], 180_000);
		const text = r.stdout + r.stderr;
		expectEqual({ exit: r.code, structurallySound: /structurally sound/.test(text) }, { exit: 0, structurallySound: true }, { output: tail(text, 6) });
	});

	describe('zapier-platform invoke against the sandbox', () => {
		test('invoke auth test: the profile of the sandbox account', async () => {
			const { zp } = await built();
			await writeEnv('full');
			say('== zapier-platform invoke auth test');
			const r = await zp(['invoke', 'auth', 'test']);
			const out = jsonOf(r.stdout) as { name?: string; email?: string } | undefined;
			expectEqual(
				{ exit: r.code, name: out?.name, email: out?.email },
				{ exit: 0, name: 'Sandbox User', email: 'sandbox.user@example.com' },
				{ output: r.code === 0 ? '' : tail(r.stdout + r.stderr) },
			);
		});

		test('invoke auth label: name and email, never the key', async () => {
			const { zp } = await built();
			const s = await writeEnv('full');
			const r = await zp(['invoke', 'auth', 'label']);
			expectEqual(
				{ exit: r.code, label: r.stdout.includes('Sandbox User (sandbox.user@example.com)'), keyShown: r.stdout.includes(s.keys.full) },
				{ exit: 0, label: true, keyShown: false },
				// The output only when it holds no key: a failure message must not carry one.
				{ output: r.stdout.includes(s.keys.full) ? '(holds the key)' : tail(r.stdout, 2) },
			);
		});

		test('invoke trigger newPublishedPost: the posts, newest first, id = post id', async () => {
			const { zp } = await built();
			await writeEnv('full');
			say('== zapier-platform invoke trigger newPublishedPost');
			const r = await zp(['invoke', 'trigger', 'newPublishedPost', '--non-interactive']);
			const out = jsonOf(r.stdout);
			const posts = Array.isArray(out) ? (out as { id: string; publishedAt: string }[]) : [];
			const times = posts.map((p) => Date.parse(p.publishedAt));
			say(`${posts.length} posts`);
			expectEqual(
				{
					exit: r.code,
					isList: Array.isArray(out),
					atLeast12: posts.length >= 12,
					idsArePostIds: posts.every((p) => /^pst_/.test(p.id)),
					newestFirst: times.every((t, i) => i === 0 || t <= times[i - 1]),
				},
				{ exit: 0, isList: true, atLeast12: true, idsArePostIds: true, newestFirst: true },
				{ posts: posts.length, output: r.code === 0 ? '' : tail(r.stdout + r.stderr) },
			);
		});

		test('invoke create generatePost: two proposals, a draft, the credits left', async () => {
			const { zp } = await built();
			const s = await writeEnv('full');
			say('== zapier-platform invoke create generatePost');
			const spentBefore = s.stats.creditsSpent;
			const r = await zp(['invoke', 'create', 'generatePost', '--inputData', JSON.stringify({ prompt: 'Why we moved our team to a four-day week', numProposals: 2 }), '--non-interactive']);
			const out = jsonOf(r.stdout) as { proposals?: unknown[]; firstProposal?: unknown; draftId?: string; creditsRemaining?: unknown } | undefined;
			say(`creditsRemaining ${String(out?.creditsRemaining)}`);
			expectEqual(
				{
					exit: r.code,
					proposals: Array.isArray(out?.proposals) ? out.proposals.length : undefined,
					firstProposalIsTheFirst: out?.firstProposal !== undefined && out.firstProposal === out.proposals?.[0],
					draftId: /^drf_/.test(out?.draftId ?? ''),
					creditsRemainingIsInteger: Number.isInteger(out?.creditsRemaining),
					creditsSpent: s.stats.creditsSpent - spentBefore,
				},
				{ exit: 0, proposals: 2, firstProposalIsTheFirst: true, draftId: true, creditsRemainingIsInteger: true, creditsSpent: 1 },
				{ output: r.code === 0 ? '' : tail(r.stdout + r.stderr) },
			);
		});

		test('a revoked key fails, saying to replace it', async () => {
			const { zp } = await built();
			const s = await writeEnv('revoked');
			say('== zapier-platform invoke auth test with a revoked key');
			const r = await zp(['invoke', 'auth', 'test']);
			// The CLI wraps the error and prefixes each line with "›": compare without them.
			const text = (r.stdout + r.stderr).replace(/›/g, ' ').replace(/\s+/g, ' ');
			const advice = `create a new key in ${BRAND.displayName} under ${BRAND.keysLocation.replace(/›/g, ' ').replace(/\s+/g, ' ')}, then reconnect`;
			const keyShown = text.includes(s.keys.revoked);
			expectEqual(
				{ failed: r.code !== 0, saysRevoked: /API key has been revoked/.test(text), saysHowToReplace: text.includes(advice), keyShown },
				{ failed: true, saysRevoked: true, saysHowToReplace: true, keyShown: false },
				{ output: keyShown ? '(holds the key)' : tail(text, 1).slice(0, 160) },
			);
		});
	});
});

describe("Zapier's jest tests (test/zapier) under Node 22", () => {
	test('test/zapier under Node 22: every test passes', async () => {
		const { run, version, report } = await zapierJest();
		expectEqual(
			{ exit: run.code, node22: /^v22\./.test(version), report: report !== undefined, failed: report?.numFailedTests, ran: (report?.numTotalTests ?? 0) > 0 },
			{ exit: 0, node22: true, report: true, failed: 0, ran: true },
			{ passed: report?.numPassedTests, total: report?.numTotalTests, skipped: report?.numPendingTests, node: version, output: report ? '' : tail(run.stdout + run.stderr) },
		);
	});

	test.each(ZAPIER_TEST_FILES)('test/zapier/%s passes under Node 22', async (file) => {
		const { report } = await zapierJest();
		if (!report) throw new Error(`no report of the Zapier jest run at ${REPORT}`);
		const result = report.testResults.find((r) => r.name === path.join(ROOT, 'test', 'zapier', file));
		const count = (status: string) => result?.assertionResults.filter((a) => a.status === status).length;
		expectEqual(
			{ inReport: result !== undefined, status: result?.status, failed: count('failed') },
			{ inReport: true, status: 'passed', failed: 0 },
			{ passed: count('passed'), message: result?.message.slice(0, 2000) },
		);
	});
});
