#!/usr/bin/env node
/**
 * End to end in a real n8n, installed in the cache on first use
 * (scripts/lib/n8n-runtime.js): --runtime=oldest (n8n 2.8.4 on Node 20, the
 * default) or --runtime=newest (n8n 2.41.0 on Node 24); --durable turns on
 * n8n's durable poller (2.41's four opt-in flags); --only=trigger runs only [5].
 *   1. build and `npm pack` the package; check the tarball holds only dist,
 *      README, LICENSE and package.json, and every path of its "n8n" field;
 *   2. load the packed node from a custom extensions folder (types CUSTOM.*);
 *   3. start the sandbox on 127.0.0.1 (random port), import credentials and
 *      workflows with `n8n import:*` (the examples too);
 *   4. `n8n execute --id … --rawOutput`, output to files, JSON parsed out of
 *      the log lines; assert Generate, Create Draft, Activate Writing Profile,
 *      Create Guided Post and more, in n8n's output and in the sandbox;
 *   5. `n8n start` with three active workflows on Post Writer Trigger, in one
 *      session: New Published Post fires once for a post published in the
 *      sandbox, Post Metric Milestone once for a post whose likes cross the
 *      threshold, Upcoming Scheduled Draft once for a draft scheduled 30
 *      minutes ahead and once more when it is rescheduled (skip with E2E_SKIP_TRIGGER=1).
 * Ends with "n8n <version>[ durable poller]: N passed, M failed"; exits 1 on any failure.
 * `npm run test:e2e` (scripts/e2e.js) runs it on both runtimes and on the durable poller.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const rt = require('./lib/n8n-runtime');
const { say, createChecks, expect, equal, waitFor } = require('./lib/checks');

const ROOT = rt.ROOT;
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** Which n8n: "oldest" (2.8.4 on Node 20) or "newest" (2.41.0 on Node 24). */
const RUNTIME = arg('runtime') || 'oldest';
/** `--durable`: n8n's durable poller (2.36+, opt-in in 2.41): poll triggers on the scheduler, their state a cursor committed with the execution. */
const DURABLE = process.argv.includes('--durable');
/** `--only=trigger`: only the trigger scenario under `n8n start` (the imports included). */
const ONLY = arg('only');
/** The result line's name, e.g. "n8n 2.41.0 durable poller". */
const LABEL = `n8n ${rt.runtime(RUNTIME).version}${DURABLE ? ' durable poller' : ''}${ONLY ? ` (${ONLY} only)` : ''}`;
const DURABLE_POLLER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
const STARTED = Date.now();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-e2e-'));
const LOGS = path.join(WORK, 'logs');
const { check, counts } = createChecks();
const cleanups = [];
/** The workflows of test/n8n/e2e/ (the examples of n8n/examples/ are imported too). */
const E2E_WORKFLOWS = ['actions', 'errors', 'trigger', 'trigger-milestone', 'trigger-upcoming'];
/** The milestone the e2e workflow watches: far above any seeded post's likes. */
const MILESTONE_LIKES = 100000;

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The output items of a node in the run data of `n8n execute`. */
function outputOf(run, nodeName) {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs || runs.length === 0) throw new Error(`node "${nodeName}" did not run`);
	if (runs[0].error) throw new Error(`node "${nodeName}" failed: ${runs[0].error.message}`);
	return runs[0].data.main[0];
}

async function api(sandbox, method, route, body) {
	const res = await fetch(`${sandbox.baseUrl}${route}`, {
		method,
		headers: { Authorization: `Bearer ${sandbox.keys.full}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return await res.json();
}

async function main() {
	say(`${LABEL} end to end (work folder ${WORK})`);
	const n8n = await rt.ensureN8n(RUNTIME);
	const env = (extra = {}) =>
		rt.n8nEnv(path.join(WORK, 'user'), { N8N_CUSTOM_EXTENSIONS: path.join(WORK, 'custom'), N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'info', ...extra }, n8n);

	say('\n[1] build and pack');
	const packed = rt.buildAndPack(path.join(WORK, 'pack'));
	const pkg = readJson(path.join(rt.PACKAGE_DIR, 'package.json'));
	check('the tarball holds only dist/, README.md, LICENSE and package.json', () => {
		const outside = packed.files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f));
		equal(outside, [], 'files outside dist');
		expect(packed.files.includes('README.md') && packed.files.includes('LICENSE'), 'README.md and LICENSE are packed');
	});
	const unpacked = path.join(WORK, 'custom', packed.name);
	rt.unpack(packed.tarball, unpacked);
	check('the packed package.json has no dependencies and every "n8n" path exists', () => {
		const inner = readJson(path.join(unpacked, 'package.json'));
		equal(Object.keys(inner.dependencies ?? {}), [], 'dependencies');
		equal(Object.keys(inner.peerDependencies ?? {}), ['n8n-workflow'], 'peerDependencies');
		for (const p of [...inner.n8n.credentials, ...inner.n8n.nodes]) expect(fs.existsSync(path.join(unpacked, p)), `${p} exists in the tarball`);
	});

	say('\n[2] sandbox');
	const sandbox = await rt.startSandbox({ port: 0, keySeed: 'e2e', clockTicks: true });
	cleanups.push(() => sandbox.close());
	say(`  sandbox at ${sandbox.baseUrl}`);

	say('\n[3] import credentials and workflows');
	const brokerPort = await rt.freePort();
	const baseEnv = env({ N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...(DURABLE ? DURABLE_POLLER_ENV : {}) });
	const credentialsFile = path.join(WORK, 'credentials.json');
	fs.writeFileSync(
		credentialsFile,
		JSON.stringify([
			{ id: 'pwSandboxCred001', name: 'Post Writer sandbox', type: 'postWriterApi', data: { apiKey: sandbox.keys.full, baseUrl: sandbox.baseUrl } },
			{ id: 'pwRevokedCred001', name: 'Post Writer revoked key', type: 'postWriterApi', data: { apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl } },
		]),
	);
	const importCreds = await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialsFile}`], { env: baseEnv, outDir: LOGS, label: 'import-credentials', timeoutMs: 120_000 });
	check('n8n import:credentials', () => expect(importCreds.code === 0 && /imported 2 credential/i.test(importCreds.stdout + importCreds.stderr), `exit ${importCreds.code}; see ${importCreds.outFile}`));

	const adapt = (file) => rt.adaptWorkflow(readJson(file), { packageName: pkg.name, typePrefix: 'CUSTOM' });
	const workflows = [
		...E2E_WORKFLOWS.map((n) => adapt(path.join(ROOT, 'test', 'n8n', 'e2e', `${n}.workflow.json`))),
		...fs
			.readdirSync(path.join(ROOT, 'n8n', 'examples'))
			.filter((f) => f.endsWith('.json'))
			.map((f) => adapt(path.join(ROOT, 'n8n', 'examples', f))),
	];
	const workflowsDir = path.join(WORK, 'workflows');
	fs.mkdirSync(workflowsDir, { recursive: true });
	workflows.forEach((w, i) => fs.writeFileSync(path.join(workflowsDir, `${i}.json`), JSON.stringify(w)));
	const importWf = await rt.runN8n(n8n.bin, ['import:workflow', '--separate', `--input=${workflowsDir}`], { env: baseEnv, outDir: LOGS, label: 'import-workflows', timeoutMs: 120_000 });
	check(`n8n import:workflow (${workflows.length} workflows, the ${workflows.length - E2E_WORKFLOWS.length} examples included)`, () =>
		expect(importWf.code === 0 && new RegExp(`imported ${workflows.length} workflow`, 'i').test(importWf.stdout + importWf.stderr), `exit ${importWf.code}; see ${importWf.outFile}`),
	);

	if (ONLY !== 'trigger') await executeScenario(n8n, sandbox, baseEnv);

	if (process.env.E2E_SKIP_TRIGGER === '1') {
		say('\n[5] trigger under n8n start: skipped (E2E_SKIP_TRIGGER=1)');
	} else {
		say(`\n[5] triggers under n8n start${DURABLE ? ', on the durable poller' : ''}`);
		await triggerScenario(n8n, sandbox, baseEnv);
	}
}

/** `n8n execute` of the actions, errors and "try it" workflows. */
async function executeScenario(n8n, sandbox, baseEnv) {
	say('\n[4] n8n execute');
	const draftsBefore = (await api(sandbox, 'GET', '/drafts?limit=100')).data.length;
	const exec = await rt.runN8n(n8n.bin, ['execute', '--id', 'pwE2eActions0001', '--rawOutput'], { env: baseEnv, outDir: LOGS, label: 'execute-actions', timeoutMs: 180_000 });
	const run = rt.parseRunOutput(exec.stdout);
	check('n8n execute ran the actions workflow to the end', () => {
		expect(!exec.timedOut, 'timed out');
		expect(run, `no run data in the output; see ${exec.outFile} and ${exec.errFile}`);
		expect(exec.code === 0 && !run.data.resultData.error, `failed: ${run?.data?.resultData?.error?.message}; see ${exec.errFile}`);
		expect(run.data.resultData.lastNodeExecuted === 'Published Posts', `last node: ${run.data.resultData.lastNodeExecuted}`);
	});
	if (run) {
		let generated;
		check('Generate: 2 proposals, no draft saved, creditsRemaining output, pairedItem', () => {
			const [item, ...rest] = outputOf(run, 'Generate');
			equal(rest.length, 0, 'extra items');
			generated = item.json;
			equal(item.json.proposals.length, 2, 'proposals');
			equal(item.json.draftId, null, 'draftId');
			expect(typeof item.json.creditsRemaining === 'number', 'creditsRemaining is a number');
			equal(item.pairedItem, { item: 0 }, 'pairedItem');
		});
		const drafts = (await api(sandbox, 'GET', '/drafts?limit=100')).data;
		check('Create Draft: scheduled, the zone-less time read in the workflow timezone (Asia/Kolkata), stored in the sandbox', () => {
			const [item] = outputOf(run, 'Create Draft');
			const day = new Date(Date.parse(run.startedAt) + 3 * 86_400_000).toISOString().slice(0, 10);
			equal(item.json.status, 'scheduled', 'status');
			equal(item.json.scheduledAt, `${day}T03:30:00.000Z`, 'scheduledAt (09:00 in Kolkata)');
			equal(item.json.text, generated?.proposals[1], 'text from Generate');
			const stored = drafts.find((d) => d.id === item.json.id);
			expect(stored && stored.scheduledAt === item.json.scheduledAt, 'the sandbox holds the draft with that time');
			equal(drafts.length, draftsBefore + 1, 'drafts created in the run (Generate saved none, Guided none)');
		});
		const profiles = (await api(sandbox, 'GET', '/writing-profiles')).data;
		check('Activate Writing Profile: the profile from the list is active in the sandbox', () => {
			const [item] = outputOf(run, 'Activate Writing Profile');
			equal([item.json.id, item.json.active], ['wp_storyteller', true], 'output');
			equal(profiles.filter((p) => p.active).map((p) => p.id), ['wp_storyteller'], 'active profiles in the sandbox');
		});
		check('Create Guided Post: text, verdict, ready and workflowId; idea 2; nothing saved', () => {
			const [item] = outputOf(run, 'Create Guided Post');
			expect(typeof item.json.text === 'string' && item.json.text.length > 20, 'text');
			equal(item.json.ready, true, 'ready');
			expect(item.json.verdict && typeof item.json.verdict === 'object', 'verdict');
			expect(/^wf_/.test(item.json.workflowId), `workflowId ${item.json.workflowId}`);
			equal(item.json.idea.id, 'idea_2', 'idea chosen by index');
			equal(item.json.questions[0].answer, 'We paired every newcomer with a buddy for two weeks.', 'first answer');
			expect(sandbox.stats.byRoute['POST /creation/ideas'] >= 1 && sandbox.stats.byRoute['POST /creation/validate'] >= 1, 'creation steps reached the sandbox');
		});
		const credits = await api(sandbox, 'GET', '/credits');
		check('Get Credits and Get Many published posts (Limit, Simplify)', () => {
			equal(outputOf(run, 'Get Credits')[0].json.balance, credits.balance, 'balance');
			const posts = outputOf(run, 'Published Posts');
			equal(posts.length, 3, 'posts');
			expect(typeof posts[0].json.likes === 'number' && !('metrics' in posts[0].json), 'simplified');
			equal(posts.map((p) => p.pairedItem), [{ item: 0 }, { item: 0 }, { item: 0 }], 'pairedItem');
		});
	}

	const errorsRun = await rt.runN8n(n8n.bin, ['execute', '--id', 'pwE2eErrors00001', '--rawOutput'], { env: baseEnv, outDir: LOGS, label: 'execute-errors', timeoutMs: 180_000 });
	const errors = rt.parseRunOutput(errorsRun.stdout);
	check('errors under Continue on Fail: the field is named, the revoked key says what to do', () => {
		expect(errors, `no run data; see ${errorsRun.outFile}`);
		equal(outputOf(errors, 'Bad Generate')[0].json, { error: 'Number of Proposals: must be between 1 and 10, got 12.' }, 'Bad Generate');
		const revoked = outputOf(errors, 'Revoked Key')[0].json.error;
		expect(/^API key has been revoked\. Create a new key in Post Writer under Settings › API keys/.test(revoked), `Revoked Key: ${revoked}`);
		expect(!revoked.includes(sandbox.keys.revoked), 'the key is not in the message');
	});

	const tryRun = await rt.runN8n(n8n.bin, ['execute', '--id', 'pwExampleTry0001', '--rawOutput'], { env: baseEnv, outDir: LOGS, label: 'execute-example', timeoutMs: 180_000 });
	const tryData = rt.parseRunOutput(tryRun.stdout);
	check('the "try it" example runs: guided post → virality → scheduled draft', () => {
		expect(tryData && !tryData.data.resultData.error, `failed; see ${tryRun.outFile}`);
		const [draft] = outputOf(tryData, 'Create Draft');
		equal(draft.json.status, 'scheduled', 'status');
		expect(typeof outputOf(tryData, 'Predict Post Virality')[0].json.score === 'number', 'virality score');
	});
}

/**
 * Three active workflows under one `n8n start`, each trigger → Create Draft
 * recording what fired: New Published Post ("Seen <post id>"), Post Metric
 * Milestone, likes ≥ MILESTONE_LIKES ("Milestone <id>…"), and Upcoming
 * Scheduled Draft, 2 hours' notice ("Upcoming <draft id> at <time>").
 * A post published in the sandbox fires the first once; a seeded post whose
 * likes cross the threshold fires the second once; a draft scheduled 30
 * minutes ahead fires the third once, and once more when it is rescheduled
 * (a new time is a new event); further polls fire nothing.
 */
async function triggerScenario(n8n, sandbox, baseEnv) {
	const ids = ['pwE2eTrigger0001', 'pwE2eMilestone01', 'pwE2eUpcoming001'];
	for (const id of ids) {
		const publish = await rt.runN8n(n8n.bin, ['publish:workflow', `--id=${id}`], { env: baseEnv, outDir: LOGS, label: `publish-${id}`, timeoutMs: 120_000 });
		check(`n8n publish:workflow activates ${id}`, () => expect(publish.code === 0, `exit ${publish.code}; see ${publish.errFile}`));
	}
	sandbox.resetStats();
	const port = await rt.freePort();
	const out = fs.openSync(path.join(LOGS, 'n8n-start.out.log'), 'w');
	const child = spawn(n8n.bin, ['start'], { env: { ...baseEnv, N8N_PORT: String(port) }, stdio: ['ignore', out, out], detached: true });
	cleanups.push(() => rt.killGroup(child, 'SIGKILL'));
	const drafts = (prefix) => sandbox.state.account('acc_1').drafts.filter((d) => d.text.startsWith(prefix));
	const postsPolls = () => sandbox.stats.byRoute['GET /posts'] ?? 0;
	const calendarPolls = () => sandbox.stats.byRoute['GET /calendar'] ?? 0;
	// Each first poll reads the API: New Published Post sets its watermark, the milestone records the posts already over the threshold, Upcoming reads the calendar.
	const activated = await waitFor(() => postsPolls() >= 2 && calendarPolls() >= 1, 150_000);
	check('n8n start activates the three trigger workflows and their first polls read /posts and /calendar', () =>
		expect(activated, `not activated (${postsPolls()} polls of /posts, ${calendarPolls()} of /calendar); see ${path.join(LOGS, 'n8n-start.out.log')}`),
	);
	if (!activated) return;
	const upcomingBefore = drafts('Upcoming ').length;
	const post = rt.publishNow(sandbox, 'A post published while the workflow is active.');
	const week = sandbox.state.account('acc_1').posts.filter((p) => Date.parse(p.publishedAt) > sandbox.clock.now() - 6 * 86_400_000 && p.id !== post.id);
	const crossing = week[0];
	const value = MILESTONE_LIKES + 7;
	sandbox.state.setMetrics('acc_1', crossing.id, { likes: value });
	const soon = sandbox.state.createDraft('acc_1', 'A draft scheduled while the workflow is active.', new Date(Date.now() + 30 * 60_000).toISOString());
	const firstTime = soon.scheduledAt;
	say(`  published ${post.id}, raised the likes of ${crossing.id} to ${value}, scheduled ${soon.id} at ${firstTime}; waiting for the next polls (every minute)…`);
	const fired = await waitFor(() => drafts('Seen ').length >= 1 && drafts('Milestone ').length >= 1 && drafts('Upcoming ').length >= upcomingBefore + 1, 150_000);
	// Rescheduled: a new time is a new event, announced once.
	soon.scheduledAt = new Date(Date.now() + 45 * 60_000).toISOString();
	soon.updatedAt = new Date().toISOString();
	const rescheduled = await waitFor(() => drafts('Upcoming ').length >= upcomingBefore + 2, 150_000);
	if (fired && rescheduled) {
		// One more poll of each must not fire again.
		const polls = postsPolls();
		const calendar = calendarPolls();
		await waitFor(() => postsPolls() >= polls + 2 && calendarPolls() >= calendar + 1, 90_000);
		await new Promise((r) => setTimeout(r, 3000));
	}
	check('New Published Post fired once for the published post, and not again', () => {
		equal(drafts('Seen ').map((d) => d.text), [`Seen ${post.id}`], 'drafts written by the triggered workflow');
	});
	check('Post Metric Milestone fired once for the post that crossed the threshold, and not again', () => {
		equal(drafts('Milestone ').map((d) => d.text), [`Milestone ${crossing.id}:likes:${MILESTONE_LIKES} at ${value}`], 'drafts written by the milestone workflow');
	});
	check('Upcoming Scheduled Draft fired once for the scheduled draft, once more for its new time, and not again', () => {
		equal(
			drafts('Upcoming ').slice(upcomingBefore).map((d) => d.text),
			[`Upcoming ${soon.id} at ${firstTime}`, `Upcoming ${soon.id} at ${soon.scheduledAt}`],
			'drafts written by the upcoming-draft workflow',
		);
	});
	rt.killGroup(child, 'SIGTERM');
	await waitFor(() => child.exitCode !== null || child.signalCode !== null, 20_000);
}

async function finish(code) {
	for (const cleanup of cleanups.reverse()) {
		try {
			await cleanup();
		} catch {
			// best effort
		}
	}
	const { passed, failed } = counts(code);
	// CI's secret scan reads every log n8n wrote (SECRET_SCAN_DIR): no API key may appear in them.
	if (process.env.SECRET_SCAN_DIR && fs.existsSync(LOGS)) {
		fs.cpSync(LOGS, path.join(process.env.SECRET_SCAN_DIR, `e2e-${LABEL.replace(/[^\w.]+/g, '-')}`), { recursive: true });
	}
	if (failed === 0) {
		// Keep the logs; drop the n8n database and the unpacked package.
		for (const dir of ['user', 'custom', 'pack', 'workflows']) fs.rmSync(path.join(WORK, dir), { recursive: true, force: true });
	}
	say(`\nlogs: ${LOGS} (${Math.round((Date.now() - STARTED) / 1000)} s)`);
	say(`${LABEL}: ${passed} passed, ${failed} failed`);
	process.exit(failed > 0 ? 1 : 0);
}

process.on('SIGINT', () => finish(130));
process.on('SIGTERM', () => finish(143));
main().then(
	() => finish(0),
	(error) => {
		say(`\nE2E aborted: ${(error && error.stack) || error}`);
		finish(1);
	},
);
