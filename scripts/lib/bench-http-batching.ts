/**
 * The bench's way (e): n8n's own HTTP Request node with its Batching option, in a real n8n (the one `npm start`
 * and `npm run test:e2e` install in the cache), run with `n8n execute` after every other way: what a user would
 * build instead of the node.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import * as n8nRuntime from './n8n-runtime';
import { log, sec } from './bench-format';
import { measureWay } from './bench-ways';
import type { BatchResult, RunOutcome, Scenario, Way } from './bench-scenarios';

type Obj = Record<string, unknown>;

/**
 * What a user would build instead of the node: Manual Trigger → Code (the N
 * prompts as items) → HTTP Request (v4.4), POST <baseUrl>/generate with the
 * JSON body {prompt}, Authorization: Bearer <key> from a Header Auth
 * credential, and:
 *   - Options › Batching: Items per Batch = Q, Batch Interval (ms) = W, the
 *     quota as the user reads it in the API's documentation;
 *   - Settings › On Error: Continue (regular output), so that a refused item
 *     is an output item with `error` and the batch goes on (counted as failed);
 *   - Settings › Retry On Fail on, with n8n's defaults (Max. Tries 3, Wait
 *     Between Tries 1000 ms). In n8n 2.8.4 a node under Continue retries only
 *     when its first output item is an error, and then re-runs all N items.
 * No Never Error, no Include Response Headers and Status: the defaults.
 */
const HTTP_NODE = 'HTTP Request';
const HTTP_NODE_VERSION = 4.4;
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };
/** `n8n execute` of one scenario, start-up included, is killed after this. */
const N8N_EXECUTE_TIMEOUT_MS = 180_000;
const N8N_IMPORT_TIMEOUT_MS = 120_000;
const N8N_CREDENTIAL = { id: 'pwBenchHeaderKey', name: 'Post Writer sandbox key (Header Auth)' };
const n8nWorkflowId = (id: Scenario['id']) => `pwBenchBatch${id}00`;

export interface N8nBatching {
	bin: string;
	version: string;
	/** Temporary folder: n8n's user folder (its database) and the logs of each n8n command. */
	work: string;
	env: NodeJS.ProcessEnv;
	/** The sandbox port of each scenario, chosen before the import: the workflow holds the URL. */
	ports: Map<Scenario['id'], number>;
}

/** `n8n execute --rawOutput`: the parts read here. */
interface N8nRunData {
	startedAt?: string;
	stoppedAt?: string;
	data?: {
		resultData?: {
			error?: { message?: string };
			runData?: Record<string, Array<{ startTime: number; executionTime: number; error?: { message?: string }; data?: { main?: Array<Array<{ json?: Obj }>> } }>>;
		};
	};
}

function batchingWorkflow(scenario: Scenario, baseUrl: string): Obj {
	return {
		id: n8nWorkflowId(scenario.id),
		name: `Bench ${scenario.id}: HTTP Request with Batching`,
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {
			'Manual Trigger': { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
			Prompts: { main: [[{ node: HTTP_NODE, type: 'main', index: 0 }]] },
		},
		nodes: [
			{ id: 'b0000000-0000-4000-8000-000000000001', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Prompts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${scenario.n} }, (_, i) => ({ json: { prompt: \`Benchmark prompt \${i + 1}: what we learned from shipping weekly\` } }));`,
				},
			},
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: HTTP_NODE,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: HTTP_NODE_VERSION,
				position: [440, 0],
				...RETRY,
				onError: 'continueRegularOutput',
				credentials: { httpHeaderAuth: N8N_CREDENTIAL },
				parameters: {
					method: 'POST',
					url: `${baseUrl}/generate`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendBody: true,
					contentType: 'json',
					specifyBody: 'keypair',
					bodyParameters: { parameters: [{ name: 'prompt', value: '={{ $json.prompt }}' }] },
					options: { batching: { batch: { batchSize: scenario.q, batchInterval: scenario.windowMs } } },
				},
			},
		],
	};
}

/**
 * Imports the credential and one workflow per scenario into a fresh n8n user
 * folder, once, before any measured run (each n8n command starts n8n: seconds
 * of CPU). Returns the setup, or why (e) does not run.
 */
export async function prepareN8nBatching(scenarios: Scenario[], skip: boolean): Promise<N8nBatching | string> {
	if (skip) return 'skipped (--no-n8n)';
	if (scenarios.length === 0) return 'no scenario of the run calls Generate';
	const install = n8nRuntime.findN8n();
	if (!install) return `n8n ${n8nRuntime.N8N_VERSION} is not installed in ${n8nRuntime.runtimeDir()} (\`npm start\` or \`npm run test:e2e\` installs it once)`;
	const work = mkdtempSync(join(tmpdir(), 'post-writer-bench-n8n-'));
	const logs = join(work, 'logs');
	// Its own task-broker port (the Code node's runner): another n8n on 5679 would collide.
	const env = n8nRuntime.n8nEnv(join(work, 'user'), { N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: String(await n8nRuntime.freePort()) });
	// This process sets NODE_ENV=test for zapier-platform-core; under it n8n's commands exit 0 and do nothing.
	delete env.NODE_ENV;
	const probe = await startSandbox({ keySeed: 'chaos-bench' });
	const key = probe.keys.full;
	await probe.close();
	const ports = new Map<Scenario['id'], number>();
	for (const sc of scenarios) {
		let port = await n8nRuntime.freePort();
		while ([...ports.values()].includes(port)) port = await n8nRuntime.freePort();
		ports.set(sc.id, port);
	}
	const credentialsFile = join(work, 'credentials.json');
	writeFileSync(credentialsFile, JSON.stringify([{ ...N8N_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${key}` } }]));
	const workflowsDir = join(work, 'workflows');
	mkdirSync(workflowsDir, { recursive: true });
	for (const sc of scenarios) writeFileSync(join(workflowsDir, `${sc.id}.json`), JSON.stringify(batchingWorkflow(sc, `http://127.0.0.1:${ports.get(sc.id)}/api/v1`)));
	log(`1e. n8n ${install.version} (${install.dir}): importing the Header Auth credential and ${scenarios.length} workflows (logs in ${logs})`);
	const creds = await n8nRuntime.runN8n(install.bin, ['import:credentials', `--input=${credentialsFile}`], { env, outDir: logs, label: 'import-credentials', timeoutMs: N8N_IMPORT_TIMEOUT_MS });
	if (creds.code !== 0 || !/imported 1 credential/i.test(creds.stdout + creds.stderr)) {
		return `n8n import:credentials failed (${creds.timedOut ? 'timed out' : `exit ${creds.code}`}); see ${creds.outFile} and ${creds.errFile}`;
	}
	const wfs = await n8nRuntime.runN8n(install.bin, ['import:workflow', '--separate', `--input=${workflowsDir}`], { env, outDir: logs, label: 'import-workflows', timeoutMs: N8N_IMPORT_TIMEOUT_MS });
	if (wfs.code !== 0 || !new RegExp(`imported ${scenarios.length} workflow`, 'i').test(wfs.stdout + wfs.stderr)) {
		return `n8n import:workflow failed (${wfs.timedOut ? 'timed out' : `exit ${wfs.code}`}); see ${wfs.outFile} and ${wfs.errFile}`;
	}
	return { bin: install.bin, version: install.version, work, env, ports };
}

/**
 * (e) in one scenario: `n8n execute --id … --rawOutput`, killed after
 * N8N_EXECUTE_TIMEOUT_MS. The wall time is the HTTP Request node's own run in
 * n8n's execution data (executionTime: from before its first try to after its
 * last), so n8n's start-up, the trigger and the Code node are left out, as
 * (a)–(c) time the node's execute() only.
 */
function n8nBatchingRun(setup: N8nBatching) {
	return async (_sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const started = performance.now();
		const exec = await n8nRuntime.runN8n(setup.bin, ['execute', '--id', n8nWorkflowId(scenario.id), '--rawOutput'], {
			env: setup.env,
			outDir: join(setup.work, 'logs'),
			label: `execute-${scenario.id}`,
			timeoutMs: N8N_EXECUTE_TIMEOUT_MS,
		});
		if (exec.timedOut) throw new Error(`n8n execute killed after ${sec(N8N_EXECUTE_TIMEOUT_MS)}; see ${exec.outFile}`);
		const run = n8nRuntime.parseRunOutput(exec.stdout) as N8nRunData | undefined;
		const task = run?.data?.resultData?.runData?.[HTTP_NODE]?.[0];
		if (!run || !task) {
			throw new Error(`no run data of the ${HTTP_NODE} node from n8n execute (exit ${exec.code}${run?.data?.resultData?.error?.message ? `: ${run.data.resultData.error.message}` : ''}); see ${exec.outFile} and ${exec.errFile}`);
		}
		if (task.error) throw new Error(`the ${HTTP_NODE} node failed: ${task.error.message}; see ${exec.outFile}`);
		const output = task.data?.main?.[0] ?? [];
		if (output.length !== scenario.n) throw new Error(`n8n: ${output.length} output items for ${scenario.n} input items`);
		const failed = output.filter((o) => o.json?.error !== undefined).length;
		const whole = run.startedAt && run.stoppedAt ? Date.parse(run.stoppedAt) - Date.parse(run.startedAt) : NaN;
		return {
			failed,
			wallMs: task.executionTime,
			note: `the ${HTTP_NODE} node's own time in n8n's execution data; the whole execution ${Number.isNaN(whole) ? '?' : sec(whole)}, n8n execute with its start-up ${sec(performance.now() - started)}`,
		};
	};
}

function n8nBatchingWay(setup: N8nBatching, scenario: Scenario): Way {
	return {
		id: '(e)',
		label: `n8n's HTTP Request node in n8n ${setup.version}, Batching ${scenario.q} items per ${scenario.windowMs} ms, Retry On Fail (3 tries, 1 s), On Error: Continue`,
		concurrency: scenario.n,
		concurrencyNote: `${scenario.n} (no cap)`,
		run: n8nBatchingRun(setup),
		sandbox: { port: setup.ports.get(scenario.id) },
	};
}

/** (e) scenario by scenario, one n8n process at a time; a failing scenario is left out with its reason. */
export async function runN8nBatching(setup: N8nBatching, scenarios: Scenario[], skipped: string[]): Promise<BatchResult[]> {
	const out: BatchResult[] = [];
	for (const sc of scenarios) {
		log(`1e. ${sc.id}: n8n's HTTP Request node with Batching (n8n execute)`);
		try {
			out.push(await measureWay(sc, n8nBatchingWay(setup, sc)));
		} catch (e) {
			const reason = `${sc.id}: ${e instanceof Error ? e.message : String(e)}`;
			skipped.push(reason);
			log(`1e. (e) left out of ${reason}`);
		}
	}
	return out;
}

/** The paragraph on (e): how it ran (unless `how` is false: docs/benchmarks.md says it once), and why it did not. */
export function n8nBatchingNote(ran: boolean, skipped: string[], how = true): string {
	const text =
		`(e) is n8n's own HTTP Request node (v${HTTP_NODE_VERSION}) in a real n8n ${n8nRuntime.N8N_VERSION} (\`n8n execute --id … --rawOutput\`, one process at a time, after the other ways): Manual Trigger → Code (the N prompts as items) → HTTP Request, POST /generate with the JSON body {prompt} (Send Body, Using Fields Below) and Authorization: Bearer <key> from a Header Auth credential; ` +
		'Options › Batching with Items per Batch = Q and Batch Interval (ms) = W, the quota as a user reads it; Settings › Retry On Fail on with n8n\'s defaults (Max. Tries 3, Wait Between Tries 1000 ms) and On Error: Continue (regular output), so a refused item comes out with `error` and counts as failed; Never Error and the full response off (the defaults). ' +
		"Its wall time is the HTTP Request node's own time in n8n's execution data (`executionTime`, from before its first try to after its last), without n8n's start-up, the trigger and the Code node. " +
		'The node sends each batch without waiting for the answers, so nothing caps the calls in flight (C = N); its limit is the quota-bound limit, like every way of S1–S3.';
	const why = skipped.length === 0 ? '' : `**(e) ${ran ? 'left out of' : 'not run'}:** ${skipped.join('; ')}.`;
	return [...(how ? [text] : []), ...(why ? [why] : [])].join('\n\n');
}
