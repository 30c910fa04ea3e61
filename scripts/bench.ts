/**
 * `npm run bench`: reproducible figures, printed as a table and written to
 * docs/benchmarks.md. Not a test: it measures and reports; it never tunes
 * itself to meet a target.
 *
 *   1. Batch under a quota: N items through Generate with the sandbox's
 *      /generate quota at Q per second, three ways:
 *        (a) the n8n node's execute(), N input items in one execution;
 *        (b) the Zapier create through appTester, one step per item, with
 *            Zapier's replay of throttled steps simulated (ThrottledError →
 *            wait its delay → replay the step);
 *        (c) a naive loop: raw axios, fixed 1 s wait, 3 tries per item (n8n's
 *            default Retry On Fail), no Retry-After handling.
 *   2. Poll cost: HTTP requests per steady-state poll of each trigger, and the
 *      JSON size of the n8n trigger's static data after 10,000 posts.
 *   3. Footprint: time to require the built Zapier app and the built n8n
 *      modules in fresh node processes (median of 5), and `npm pack` sizes.
 *
 * Run with ts-node --prefer-ts-exts: n8n/nodes/PostWriter/PostWriter.node.json
 * (the codex file) sits next to PostWriter.node.ts, and Node's own resolution
 * would load the .json for `./PostWriter.node`.
 *
 * Options: --n <items> (100), --q <per second> (10), --no-write (do not
 * touch docs/benchmarks.md), --build (rebuild first; otherwise builds only
 * when dist/ or zapier/dist/ is missing).
 */
import axios from 'axios';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { DEFAULT_ACCOUNT_ID } from '../sandbox/state';
import { poll, runNode } from '../test/n8n/helpers/context';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
	const i = args.indexOf(`--${name}`);
	return i >= 0 ? Number(args[i + 1]) : fallback;
};
const N = arg('n', 100);
const Q = arg('q', 10);
const WRITE = !args.includes('--no-write');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
type Obj = Record<string, unknown>;

/** The Zapier test helpers (test/zapier/helpers.ts), loaded in main(): they register a jest afterAll, a no-op here. */
type ZapierHelpers = typeof import('../test/zapier/helpers');
let App: ZapierHelpers['App'];
let bundle: ZapierHelpers['bundle'];
let details: ZapierHelpers['details'];
let appTester: (fn: unknown, b: unknown) => Promise<unknown>;

async function loadZapierHelpers(): Promise<void> {
	const g = globalThis as unknown as { afterAll?: (fn: () => void) => void };
	g.afterAll ??= () => undefined;
	// As under jest: zapier-platform-core then skips its per-invocation memory printout.
	process.env.NODE_ENV ??= 'test';
	const helpers = await import('../test/zapier/helpers');
	({ App, bundle, details } = helpers);
	appTester = helpers.appTester as unknown as typeof appTester;
}

function log(line: string) {
	process.stderr.write(`[bench] ${line}\n`);
}

// ---------------------------------------------------------------------------
// Machine

function machine() {
	const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
	const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
	let nproc = String(cpus().length);
	try {
		nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
	} catch {
		/* cpus().length */
	}
	return {
		nproc,
		memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
		node: process.version,
		cpu: model,
		platform: `${process.platform} ${process.arch}`,
		load: loadavg()
			.map((x) => x.toFixed(2))
			.join(' / '),
	};
}

// ---------------------------------------------------------------------------
// 1. Batch under a quota

interface BatchResult {
	way: string;
	wallMs: number;
	ratio: number;
	failed: number;
	credits: number;
	requests: number;
	rejected429: number;
	note?: string;
}

interface Scenario {
	label: string;
	limit: number;
	windowMs: number;
}

async function batchSandbox(scenario: Scenario): Promise<{ sb: Sandbox; answers: string[] }> {
	const answers: string[] = [];
	const sb = await startSandbox({
		keySeed: 'chaos-bench',
		credits: 10 * N,
		quota: { generate: { limit: scenario.limit, windowMs: scenario.windowMs }, default: { limit: 1_000_000, windowMs: 60_000 } },
		log: (line) => answers.push(line),
	});
	return { sb, answers };
}

async function measureBatch(scenario: Scenario, way: string, run: (sb: Sandbox) => Promise<number>, note?: string): Promise<BatchResult> {
	const { sb, answers } = await batchSandbox(scenario);
	try {
		sb.resetStats();
		const started = performance.now();
		const failed = await run(sb);
		const wallMs = performance.now() - started;
		const result: BatchResult = {
			way,
			wallMs,
			ratio: wallMs / ((N / Q) * 1000),
			failed,
			credits: sb.stats.creditsSpent,
			requests: sb.stats.byRoute['POST /generate'] ?? 0,
			rejected429: answers.filter((l) => l.startsWith('POST /api/v1/generate') && l.endsWith('-> 429')).length,
			note,
		};
		log(`${scenario.label}, ${way}: ${(wallMs / 1000).toFixed(2)} s, ${result.failed} failed, ${result.credits} credits, ${result.requests} requests (${result.rejected429} × 429)`);
		return result;
	} finally {
		await sb.close();
	}
}

const prompts = () => Array.from({ length: N }, (_, i) => `Benchmark prompt ${i + 1}: what we learned from shipping weekly`);

async function batchN8n(sb: Sandbox): Promise<number> {
	const items = prompts().map((prompt) => ({ json: { prompt } }));
	const { output } = await runNode({
		credentials: { apiKey: sb.keys.full, baseUrl: sb.baseUrl },
		params: { resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}' },
		items,
		continueOnFail: true,
	});
	if (output.length !== N) throw new Error(`n8n: ${output.length} output items for ${N} input items`);
	return output.filter((o) => typeof o.json.error === 'string').length;
}

async function batchZapier(sb: Sandbox): Promise<number> {
	let failed = 0;
	let replays = 0;
	let inStep = 0;
	// z.console.log lines ("retrying generate in … ms") are counted, not printed.
	const print = console.log;
	console.log = (...parts: unknown[]) => {
		if (/retrying/.test(parts.map(String).join(' '))) inStep++;
	};
	try {
		failed = await zapierSteps(sb, () => replays++);
	} finally {
		console.log = print;
	}
	log(`zapier: ${inStep} in-step wait(s) (core retry within the step), ${replays} throttled step(s) replayed`);
	return failed;
}

async function zapierSteps(sb: Sandbox, onReplay: () => void): Promise<number> {
	let failed = 0;
	for (const prompt of prompts()) {
		for (let replay = 0; ; replay++) {
			try {
				await appTester(App.creates.generatePost.operation.perform, bundle({ prompt }, {}, { apiKey: sb.keys.full, baseUrl: sb.baseUrl }));
				break;
			} catch (e) {
				const d = details(e);
				if (d.name === 'ThrottledError' && replay < 5) {
					onReplay();
					await sleep((d.delay ?? 60) * 1000);
					continue;
				}
				failed++;
				break;
			}
		}
	}
	return failed;
}

async function batchNaive(sb: Sandbox): Promise<number> {
	let failed = 0;
	const http = axios.create({ validateStatus: () => true, timeout: 30_000 });
	for (const prompt of prompts()) {
		let ok = false;
		for (let attempt = 1; attempt <= 3 && !ok; attempt++) {
			const res = await http.post(`${sb.baseUrl}/generate`, { prompt }, { headers: { Authorization: `Bearer ${sb.keys.full}` } });
			ok = res.status >= 200 && res.status < 300;
			if (!ok && attempt < 3) await sleep(1000);
		}
		if (!ok) failed++;
	}
	return failed;
}

// ---------------------------------------------------------------------------
// 2. Poll cost and trigger state

interface PollCost {
	trigger: string;
	polls: number;
	perPoll: { min: number; max: number; mean: number };
	fired: number;
	expected: number;
}

function stats(list: number[]) {
	return { min: Math.min(...list), max: Math.max(...list), mean: list.reduce((a, b) => a + b, 0) / list.length };
}

/** Publishes `count` posts at the sandbox clock's next second (drafts scheduled, clock advanced). */
function publish(sb: Sandbox, count: number): string[] {
	const at = new Date(sb.clock.now() + 1000).toISOString();
	const drafts = Array.from({ length: count }, (_, i) => sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Bench post ${i} at ${at}`, at));
	sb.clock.advance(1000);
	const ids = new Set(drafts.map((d) => d.id));
	return sb.state.account(DEFAULT_ACCOUNT_ID).posts.filter((p) => p.draftId && ids.has(p.draftId)).map((p) => p.id);
}

function schedule(sb: Sandbox, count: number): number {
	for (let i = 0; i < count; i++) {
		const at = new Date(Math.floor(sb.clock.now() / 1000) * 1000 + 20 * 60_000 + Math.random() * 30 * 60_000).toISOString();
		sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Bench scheduled ${i}`, at);
	}
	return count;
}

const POLLS = 30;
/** New items between two polls, cycling: quiet polls and busy ones. */
const PATTERN = [0, 1, 0, 2, 0, 0, 3, 1, 0, 1];

async function pollCostN8n(sb: Sandbox, event: 'newPublishedPost' | 'upcomingScheduledDraft'): Promise<PollCost> {
	const staticData: IDataObject = {};
	const params = event === 'newPublishedPost' ? { event } : { event, notifyAmount: 1, notifyUnit: 'hours' };
	const credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
	await poll({ credentials, params, staticData });
	const perPoll: number[] = [];
	let fired = 0;
	let expected = 0;
	for (let i = 0; i < POLLS; i++) {
		const n = PATTERN[i % PATTERN.length];
		expected += event === 'newPublishedPost' ? publish(sb, n).length : schedule(sb, n);
		const before = sb.stats.requests;
		const { items } = await poll({ credentials, params, staticData });
		perPoll.push(sb.stats.requests - before);
		fired += items.length;
	}
	return { trigger: `n8n ${event === 'newPublishedPost' ? 'New Published Post' : 'Upcoming Scheduled Draft'}`, polls: POLLS, perPoll: stats(perPoll), fired, expected };
}

async function pollCostZapier(sb: Sandbox, key: 'newPublishedPost' | 'upcomingScheduledDraft'): Promise<PollCost> {
	const inputData = key === 'upcomingScheduledDraft' ? { notifyBefore: '60', notifyBeforeUnit: 'minutes' } : {};
	const auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
	const perform = (App.triggers as Record<string, { operation: { perform: unknown } }>)[key].operation.perform;
	const seen = new Set<string>();
	for (const item of (await appTester(perform, bundle(inputData, { isPopulatingDedupe: true }, auth))) as Obj[]) seen.add(String(item.id));
	const perPoll: number[] = [];
	let fired = 0;
	let expected = 0;
	for (let i = 0; i < POLLS; i++) {
		const n = PATTERN[i % PATTERN.length];
		expected += key === 'newPublishedPost' ? publish(sb, n).length : schedule(sb, n);
		const before = sb.stats.requests;
		const items = (await appTester(perform, bundle(inputData, {}, auth))) as Obj[];
		perPoll.push(sb.stats.requests - before);
		for (const item of items) {
			if (!seen.has(String(item.id))) fired++;
			seen.add(String(item.id));
		}
	}
	return { trigger: `Zapier ${key === 'newPublishedPost' ? 'New Published Post' : 'Upcoming Scheduled Draft'}`, polls: POLLS, perPoll: stats(perPoll), fired, expected };
}

interface StateSize {
	posts: number;
	bytes: number;
	fired: number;
	unique: number;
	polls: number;
	requests: number;
	shape: string;
}

/** 10,000 posts go by in batches of 100 (all of a batch at the same second: the worst case for the ids kept at the watermark). */
async function triggerState(total = 10_000, batch = 100): Promise<StateSize> {
	const sb = await startSandbox({ keySeed: 'chaos-bench', quota: { default: { limit: 1_000_000, windowMs: 60_000 } } });
	try {
		const staticData: IDataObject = {};
		const credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		const params = { event: 'newPublishedPost' };
		await poll({ credentials, params, staticData });
		sb.resetStats();
		const firedIds: string[] = [];
		let polls = 0;
		for (let published = 0; published < total; published += batch) {
			publish(sb, batch);
			const { items } = await poll({ credentials, params, staticData });
			polls++;
			firedIds.push(...items.map((i) => String(i.id)));
		}
		const json = JSON.stringify(staticData);
		const state = (staticData.newPublishedPost ?? {}) as { idsAtWatermark?: string[] };
		return {
			posts: total,
			bytes: Buffer.byteLength(json),
			fired: firedIds.length,
			unique: new Set(firedIds).size,
			polls,
			requests: sb.stats.requests,
			shape: `watermark + ${state.idsAtWatermark?.length ?? 0} ids at the watermark`,
		};
	} finally {
		await sb.close();
	}
}

// ---------------------------------------------------------------------------
// 3. Footprint

function ensureBuilt(): string {
	const missing = [join(ROOT, 'dist/n8n/nodes/PostWriter/PostWriter.node.js'), join(ROOT, 'zapier/dist/zapier/src/index.js')].filter((f) => !existsSync(f));
	if (missing.length === 0 && !args.includes('--build')) return 'existing build';
	log(args.includes('--build') ? 'building (--build)…' : `building: missing ${missing.join(', ')}…`);
	const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
	if (r.status !== 0) throw new Error('npm run build failed');
	return 'built by this run (npm run build)';
}

function median(list: number[]): number {
	const s = [...list].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

interface LoadTime {
	median: number;
	all: number[];
	/** Of which the dependency alone (required first, in the same process). */
	dependency: number;
	/** The package's own code: total − dependency (median). */
	own: number;
}

/** Time (ms) to require `files` in a fresh node process, median of `runs`; `dependency` is timed on its own first. */
function loadTime(files: string[], dependency: string, cwd: string, runs = 5): LoadTime {
	const code =
		'const t=process.hrtime.bigint();' +
		`require(require.resolve(${JSON.stringify(dependency)},{paths:[${JSON.stringify(cwd)}]}));const d=process.hrtime.bigint();` +
		files.map((f) => `require(${JSON.stringify(f)});`).join('') +
		'const e=process.hrtime.bigint();process.stdout.write(JSON.stringify([Number(e-t)/1e6,Number(d-t)/1e6]));';
	const totals: number[] = [];
	const deps: number[] = [];
	for (let i = 0; i < runs; i++) {
		const [total, dep] = JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd, encoding: 'utf8' })) as [number, number];
		totals.push(total);
		deps.push(dep);
	}
	return { median: median(totals), all: totals, dependency: median(deps), own: median(totals.map((t, i) => t - deps[i])) };
}

function packSize(cwd: string): { size: number; unpackedSize: number; files: number; name: string } {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const [info] = JSON.parse(out) as Array<{ size: number; unpackedSize: number; entryCount: number; name: string }>;
	return { size: info.size, unpackedSize: info.unpackedSize, files: info.entryCount, name: info.name };
}

// ---------------------------------------------------------------------------
// Report

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

function table(head: string[], rows: Array<Array<string | number>>): string {
	const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
	for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
	return lines.join('\n');
}

async function main() {
	const started = Date.now();
	const m = machine();
	const build = ensureBuilt();
	await loadZapierHelpers();
	log(`machine: ${m.nproc} CPU (${m.cpu}), ${m.memory}, Node ${m.node}`);

	const scenarios: Scenario[] = [
		{ label: `${Q} per 1 s window`, limit: Q, windowMs: 1000 },
		{ label: `${5 * Q} per 5 s window (same Q, longer window; supplementary)`, limit: 5 * Q, windowMs: 5000 },
	];
	const batches: BatchResult[][] = [];
	for (const scenario of scenarios) {
		log(`1. batch of ${N} through Generate, quota ${scenario.label}`);
		batches.push([
			await measureBatch(scenario, '(a) n8n node execute()', batchN8n, `${N} items in one execution, continueOnFail on`),
			await measureBatch(scenario, '(b) Zapier create (appTester)', batchZapier, 'one step per item, in a row; ThrottledError replayed after its delay'),
			await measureBatch(scenario, '(c) naive loop (1 s wait, 3 tries)', batchNaive, "raw axios, like n8n's default Retry On Fail"),
		]);
	}
	const batch = batches[0];

	log('2. poll cost');
	const costs: PollCost[] = [];
	for (const f of [
		(sb: Sandbox) => pollCostN8n(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostN8n(sb, 'upcomingScheduledDraft'),
		(sb: Sandbox) => pollCostZapier(sb, 'newPublishedPost'),
		(sb: Sandbox) => pollCostZapier(sb, 'upcomingScheduledDraft'),
	]) {
		const sb = await startSandbox({ keySeed: 'chaos-bench', quota: { default: { limit: 1_000_000, windowMs: 60_000 } } });
		try {
			costs.push(await f(sb));
		} finally {
			await sb.close();
		}
	}
	log('2b. n8n trigger state after 10,000 posts');
	const state = await triggerState();

	log('3. footprint');
	const zapierLoad = loadTime([join(ROOT, 'zapier/index.js')], 'zapier-platform-core', join(ROOT, 'zapier'));
	const n8nDir = join(ROOT, 'n8n');
	const n8nPkg = JSON.parse(readFileSync(join(n8nDir, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
	const n8nFiles = [...n8nPkg.n8n.nodes, ...n8nPkg.n8n.credentials];
	const n8nLoad = loadTime(n8nFiles.map((f) => join(n8nDir, f)), 'n8n-workflow', n8nDir);
	const n8nPack = packSize(n8nDir);
	const zapierPack = packSize(join(ROOT, 'zapier'));

	// ---- targets
	const a = batch[0];
	const targets = [
		['n8n batch wall ≤ 1.10 × N/Q', `${a.ratio.toFixed(3)} ×`, verdict(a.ratio <= 1.1)],
		['n8n batch: 0 failed items', String(a.failed), verdict(a.failed === 0)],
		['n8n batch: credits spent = N', `${a.credits} / ${N}`, verdict(a.credits === N)],
		...costs.map((c) => [`${c.trigger}: exactly 1 request per steady-state poll`, `${c.perPoll.min}–${c.perPoll.max} (mean ${c.perPoll.mean.toFixed(2)})`, verdict(c.perPoll.min === 1 && c.perPoll.max === 1)]),
		['n8n trigger state ≤ 4 KB after 10,000 posts', `${state.bytes} B`, verdict(state.bytes <= 4096)],
		['Zapier app load < 150 ms', `${zapierLoad.median.toFixed(1)} ms (own code ${zapierLoad.own.toFixed(1)} ms)`, verdict(zapierLoad.median < 150)],
		['n8n tarball < 150 KB', kb(n8nPack.size), verdict(n8nPack.size < 150 * 1024)],
	];

	const sections: string[] = [];
	sections.push(
		`### 1. Batch of N = ${N} through Generate, /generate quota Q = ${Q} per second (N/Q = ${sec((N / Q) * 1000)})\n\n` +
			scenarios
				.map(
					(scenario, i) =>
						`Quota: ${scenario.label}.\n\n` +
						table(
							['way', 'wall time', 'wall ÷ (N/Q)', 'failed items', 'credits spent', 'POST /generate sent', 'of which 429'],
							batches[i].map((b) => [b.way, sec(b.wallMs), b.ratio.toFixed(3), b.failed, b.credits, b.requests, b.rejected429]),
						),
				)
				.join('\n\n') +
			'\n\n' +
			batch.map((b) => `- ${b.way}: ${b.note ?? ''}`).join('\n'),
	);
	sections.push(
		`### 2. Poll cost (${POLLS} steady-state polls after activation; 0–3 new items between polls)\n\n` +
			table(
				['trigger', 'requests per poll (min–max)', 'mean', 'fired', 'expected'],
				costs.map((c) => [c.trigger, `${c.perPoll.min}–${c.perPoll.max}`, c.perPoll.mean.toFixed(2), c.fired, c.expected]),
			) +
			`\n\nn8n New Published Post, static data after ${state.posts.toLocaleString('en-US')} posts (batches of 100 published at the same second, polled after each batch): **${state.bytes} bytes** of JSON (${state.shape}); ${state.fired.toLocaleString('en-US')} fired, ${state.unique.toLocaleString('en-US')} unique, in ${state.polls} polls and ${state.requests} requests.`,
	);
	sections.push(
		'### 3. Footprint\n\n' +
			table(
				['what', 'figure'],
				[
					[
						'Zapier app load (`require` of zapier/index.js, fresh process, median of 5)',
						`${zapierLoad.median.toFixed(1)} ms (runs: ${zapierLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which zapier-platform-core alone ${zapierLoad.dependency.toFixed(1)} ms, the app's own code ${zapierLoad.own.toFixed(1)} ms`,
					],
					[
						'n8n modules load (`require` of the 2 nodes + credential in dist/, fresh process, median of 5)',
						`${n8nLoad.median.toFixed(1)} ms (runs: ${n8nLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which n8n-workflow alone ${n8nLoad.dependency.toFixed(1)} ms, the package's own code ${n8nLoad.own.toFixed(1)} ms`,
					],
					[`n8n package \`${n8nPack.name}\` (npm pack, root)`, `${kb(n8nPack.size)} packed, ${kb(n8nPack.unpackedSize)} unpacked, ${n8nPack.files} files`],
					[`Zapier package \`${zapierPack.name}\` (npm pack, zapier/)`, `${kb(zapierPack.size)} packed, ${kb(zapierPack.unpackedSize)} unpacked, ${zapierPack.files} files`],
				],
			),
	);
	sections.push('### Targets\n\n' + table(['target', 'measured', 'verdict'], targets));

	const report = sections.join('\n\n');
	process.stdout.write(`\n${report}\n\nbench took ${sec(Date.now() - started)}\n`);

	if (WRITE) {
		const file = join(ROOT, 'docs/benchmarks.md');
		const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
		const notes = /<!-- notes -->[\s\S]*$/.exec(previous)?.[0] ?? '<!-- notes -->\n';
		const header =
			'# Benchmarks\n\n' +
			'Produced by `npm run bench` (`scripts/bench.ts`, run with `ts-node --transpile-only --prefer-ts-exts`), against the sandbox on 127.0.0.1. ' +
			'The figures below are rewritten by each run; the notes at the end are kept.\n\n' +
			`Run of ${new Date().toISOString()}: \`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\`, ${build}.\n\n` +
			table(['machine', ''], [
				['CPUs (`nproc`)', m.nproc],
				['CPU model', m.cpu],
				['memory', m.memory],
				['Node', m.node],
				['platform', m.platform],
				['load average (1/5/15 min) at the start', m.load],
			]);
		writeFileSync(file, `${header}\n\n${report}\n\n${notes}`);
		log(`wrote ${file}`);
	}
}

main().catch((e: unknown) => {
	process.stderr.write(`[bench] failed: ${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
