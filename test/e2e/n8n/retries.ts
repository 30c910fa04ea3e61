/**
 * [6] of the n8n end-to-end suite: n8n running the node again never pays
 * twice (issue 27). Under one `n8n start`, with the owner logged in to n8n's
 * REST API as the editor is:
 *   - Webhook → Split Out → Post › Generate over 40 items, Settings › Retry On
 *     Fail (3 tries, wait 0), On Error: Stop Workflow; the sandbox answers the
 *     10th /generate with a 500 after charging it. The execution fails on that
 *     item with its message; no prompt is charged twice, and every prompt is
 *     charged once (the items never sent were sent by a later try).
 *   - That failed execution retried as the editor's Retry button does
 *     (POST /rest/executions/:id/retry, mode `retry`): it fails again with the
 *     same message, and nothing is charged.
 *   - The same batch with On Error: Continue (using error output): each item
 *     charged once; the failed one on the error output with its message.
 * Charges are the sandbox's `chargesByInput`, per prompt.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Sandbox } from '../../../sandbox/server';
import { DEFAULT_ACCOUNT_ID } from '../../../sandbox';
import * as rt from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall } from '../../../scripts/lib/n8n-runtime';
import { waitUntil } from '../../../scripts/lib/processes';
import { postWebhook } from './support';

/** The workflows of test/n8n/e2e/ this step runs, and their webhooks. */
export const RETRY_WORKFLOWS = {
	stop: { id: 'pwE2eRetries0001', webhook: 'pw-e2e-retries', prefix: 'E2E retry (stop) ' },
	continue: { id: 'pwE2eRetryCont01', webhook: 'pw-e2e-retries-continue', prefix: 'E2E retry (continue) ' },
} as const;
/** Items of the batch, and the /generate call that fails after its charge (the 10th: a few answered before it, most sent after). */
export const BATCH = 40;
export const FAILING_CALL = 10;
const GENERATE = 'POST /generate';
const OWNER = { email: 'retries-e2e@example.com', firstName: 'Retries', lastName: 'E2E', password: `Re2e-${crypto.randomBytes(6).toString('hex')}-A1` };
const BROWSER_ID = 'post-writer-retries-e2e';

type Json = Record<string, any>;

export interface RetryDeps {
	n8n: N8nInstall;
	sandbox: Sandbox;
	env: NodeJS.ProcessEnv;
	logs: string;
	say: (message: string) => void;
	/** Registers a cleanup of the suite (run in afterAll). */
	cleanup: (fn: () => unknown) => void;
	/** Called with the child while it runs, undefined once stopped (for Ctrl-C). */
	track: (child: ChildProcess | undefined) => void;
}

/** An execution as this step reads it: its record, its error, the Generate node's outputs. */
export interface ExecutionRead {
	id: string;
	status: string;
	mode: string;
	retryOf?: string;
	error?: { message?: string; description?: string };
	/** Generate's last run: its outputs (main[0] the items, main[1] the error output), each item's json. */
	generate?: Json[][];
}

export interface BatchResult {
	webhookStatus: number | string;
	execution?: ExecutionRead;
	/** Charges per prompt of the batch, in item order. */
	charges: number[];
	/** /generate requests while it ran. */
	requests: number;
}

export interface RetryResults {
	loggedIn: { ok: boolean; error?: string };
	stop: BatchResult;
	retry: { ok: boolean; error?: string; execution?: ExecutionRead; charges: number[]; requests: number };
	continued: BatchResult;
}

const prompts = (prefix: string) => Array.from({ length: BATCH }, (_, i) => `${prefix}item ${String(i + 1).padStart(2, '0')}: what a week of retries taught us`);

/** Runs the whole step; the tests read what it returns. */
export async function runRetries(deps: RetryDeps): Promise<RetryResults> {
	const { n8n, sandbox: sb, env, logs, say } = deps;
	for (const { id } of Object.values(RETRY_WORKFLOWS)) {
		const published = await rt.runN8n(n8n.bin, ['publish:workflow', `--id=${id}`], { env, outDir: logs, label: `publish-${id}`, timeoutMs: 120_000 });
		if (published.code !== 0) throw new Error(`n8n publish:workflow --id=${id} failed; see ${published.errFile}`);
	}
	const port = await rt.freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(logs, 'n8n-start-retries.out.log');
	const out = fs.openSync(logFile, 'w');
	const child = spawn(n8n.bin, ['start'], { env: { ...env, N8N_PORT: String(port), N8N_EDITOR_BASE_URL: url }, stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	deps.track(child);
	const exited = () => child.exitCode !== null || child.signalCode !== null;
	const stop = async () => {
		if (exited()) return;
		rt.killGroup(child, 'SIGTERM');
		if (!(await waitUntil(exited, 30_000))) rt.killGroup(child, 'SIGKILL');
		deps.track(undefined);
	};
	deps.cleanup(stop);
	try {
		say(`[6] paid retries under n8n start (${url}, log ${logFile})`);
		const up = await waitUntil(async () => exited() || (await rt.editorUp(url, logFile)), 240_000);
		if (!up || exited()) throw new Error(`n8n start did not come up; see ${logFile}`);
		const api = new Rest(url);
		const loggedIn = await api.login();
		const flatted = createRequire(path.join(n8n.dir, 'package.json'))('flatted') as { parse(text: string): unknown };
		const read = (id: string) => api.execution(id, flatted);

		// Every request of this step counts (none refused by the quota), and the balance covers both batches however many ran before.
		sb.configure({ quota: { generate: { limit: 10_000, windowMs: 60_000 } } });
		const account = sb.state.account(DEFAULT_ACCOUNT_ID);
		account.credits = Math.max(account.credits, 10 * BATCH);
		const batch = async (which: keyof typeof RETRY_WORKFLOWS): Promise<BatchResult> => {
			const { id, webhook, prefix } = RETRY_WORKFLOWS[which];
			const list = prompts(prefix);
			const before = sb.stats.byRoute[GENERATE] ?? 0;
			const known = new Set((await api.executions(id)).map((e) => e.id));
			sb.configure({ faults: { passNext: FAILING_CALL - 1, errorNext: 1, errorStatuses: [500], routes: [GENERATE], faultAfterHandling: true } });
			const webhookStatus = await postWebhook(url, webhook, { prompts: list.map((prompt) => ({ prompt })) });
			const done = await api.finished(id, known);
			sb.resetFaults();
			return {
				webhookStatus,
				execution: done ? await read(done) : undefined,
				charges: list.map((p) => sb.stats.chargesByInput[`generate:${p}`] ?? 0),
				requests: (sb.stats.byRoute[GENERATE] ?? 0) - before,
			};
		};

		const stopped = await batch('stop');
		say(`[6] Retry On Fail, Stop Workflow: execution ${stopped.execution?.id} ${stopped.execution?.status}, ${stopped.requests} /generate requests, charges per prompt ${summary(stopped.charges)}`);
		let retry: RetryResults['retry'] = { ok: false, error: 'no failed execution to retry', charges: [], requests: 0 };
		if (stopped.execution) {
			const before = sb.stats.byRoute[GENERATE] ?? 0;
			const known = new Set((await api.executions(RETRY_WORKFLOWS.stop.id)).map((e) => e.id));
			const answer = await api.retry(stopped.execution.id);
			const done = answer.ok ? await api.finished(RETRY_WORKFLOWS.stop.id, known) : undefined;
			const list = prompts(RETRY_WORKFLOWS.stop.prefix);
			retry = {
				...answer,
				execution: done ? await read(done) : undefined,
				charges: list.map((p) => sb.stats.chargesByInput[`generate:${p}`] ?? 0),
				requests: (sb.stats.byRoute[GENERATE] ?? 0) - before,
			};
			say(`[6] Retry of execution ${stopped.execution.id}: execution ${retry.execution?.id} (${retry.execution?.mode}) ${retry.execution?.status}, ${retry.requests} /generate requests, charges per prompt ${summary(retry.charges)}`);
		}
		const continued = await batch('continue');
		say(`[6] On Error Continue (using error output): execution ${continued.execution?.id} ${continued.execution?.status}, ${continued.requests} /generate requests, charges per prompt ${summary(continued.charges)}`);
		return { loggedIn, stop: stopped, retry, continued };
	} finally {
		await stop();
	}
}

/** "40 prompts: 40 × 1" */
function summary(charges: number[]): string {
	const counts = new Map<number, number>();
	for (const c of charges) counts.set(c, (counts.get(c) ?? 0) + 1);
	return `${charges.length} prompts: ${[...counts].map(([n, k]) => `${k} charged ${n}×`).join(', ')}`;
}

/** n8n's internal REST API as the editor calls it: the owner's session cookie and a browser id. */
class Rest {
	private cookie = '';
	constructor(private readonly url: string) {}

	async call(method: string, route: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
		const res = await fetch(`${this.url}${route}`, {
			method,
			headers: { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID, ...(this.cookie ? { Cookie: this.cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(180_000),
		});
		const text = await res.text();
		const auth = res.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth;
		let json: any;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: res.status, json, text };
	}

	/** The owner account on a fresh n8n, then a session. */
	async login(): Promise<{ ok: boolean; error?: string }> {
		const settings = await this.call('GET', '/rest/settings');
		if (settings.json?.data?.userManagement?.showSetupOnFirstLoad === true) {
			const setup = await this.call('POST', '/rest/owner/setup', OWNER);
			if (setup.status !== 200) return { ok: false, error: `owner setup: ${setup.status} ${setup.text.slice(0, 300)}` };
		}
		const login = await this.call('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		return login.status === 200 && this.cookie ? { ok: true } : { ok: false, error: `login: ${login.status} ${login.text.slice(0, 300)}` };
	}

	/** The executions of a workflow: id, status, mode, retryOf. */
	async executions(workflowId: string): Promise<Array<{ id: string; status: string; mode: string; retryOf?: string }>> {
		const r = await this.call('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
		const results = (r.json?.data?.results ?? r.json?.data ?? []) as Json[];
		return results.map((e) => ({ id: String(e.id), status: String(e.status), mode: String(e.mode), retryOf: e.retryOf ? String(e.retryOf) : undefined }));
	}

	/** Waits for a new execution of the workflow (not in `known`) to end; its id, or undefined after 3 minutes. */
	async finished(workflowId: string, known: Set<string>): Promise<string | undefined> {
		let id: string | undefined;
		await waitUntil(
			async () => {
				const ended = (await this.executions(workflowId)).find((e) => !known.has(e.id) && !['new', 'running', 'waiting', 'unknown'].includes(e.status));
				id = ended?.id;
				return id !== undefined;
			},
			180_000,
			1000,
		);
		return id;
	}

	/** POST /rest/executions/:id/retry with the workflow as it was (the editor's "Retry with original workflow"). */
	async retry(executionId: string): Promise<{ ok: boolean; error?: string }> {
		const r = await this.call('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow: false });
		return r.status === 200 ? { ok: true } : { ok: false, error: `retry answered ${r.status}: ${r.text.slice(0, 300)}` };
	}

	/** One execution, its run data (n8n's flatted form) parsed. */
	async execution(id: string, flatted: { parse(text: string): unknown }): Promise<ExecutionRead> {
		const r = await this.call('GET', `/rest/executions/${id}`);
		const e = (r.json?.data ?? {}) as Json;
		const data = (typeof e.data === 'string' ? flatted.parse(e.data) : e.data) as Json | undefined;
		const runs = data?.resultData?.runData?.Generate as Json[] | undefined;
		const last = runs?.[runs.length - 1];
		return {
			id,
			status: String(e.status),
			mode: String(e.mode),
			retryOf: e.retryOf ? String(e.retryOf) : undefined,
			error: data?.resultData?.error ? { message: data.resultData.error.message, description: data.resultData.error.description } : undefined,
			generate: (last?.data?.main as Json[][] | undefined)?.map((items) => (items ?? []).map((i) => i.json)),
		};
	}
}
