/**
 * n8n running the node again never pays twice (helpers/paid.ts over
 * shared/paid/paid-memory.ts): Settings › Retry On Fail is execute() called again
 * in the same execution; a retry of a failed execution is execute() in a new
 * execution of the same workflow, in mode `retry`. The sandbox charges every
 * /generate it handles; one answer is replaced by a 502 after it was charged
 * (the ambiguous failure). Charges are counted per prompt by the sandbox
 * (chargesByInput).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { startSandbox } from '../../../../sandbox';
import type { Sandbox } from '../../../../sandbox';
import { PAID_MEMORY } from '../../../../n8n/nodes/PostWriter/transport';
import { MEMORY_SETTING, RESEND_SETTING } from '../../../../n8n/nodes/PostWriter/helpers/paid';
import type { Credentials, ExecuteOptions, Transport } from '../../helpers/context';
import { newTransport, runNode, runNodeError } from '../../helpers/context';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const N = 10;
const FAILED = 3;
const prompts = Array.from({ length: N }, (_, i) => `Retry prompt ${i}: what we learned`);
const items = prompts.map((prompt) => ({ json: { prompt } }));
const params = (options: Record<string, unknown> = {}) => ({ resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}', options: { concurrency: 1, ...options } });

let sb: Sandbox;
let credentials: Credentials;

beforeEach(async () => {
	PAID_MEMORY.clear();
	sb = await startSandbox({ quota: { default: { limit: 100_000, windowMs: 60_000 }, generate: { limit: 100_000, windowMs: 60_000 } } });
	credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
});
afterEach(async () => {
	await sb.close();
});

/** The sandbox's transport, with the first answer to `prompts[FAILED]` replaced by a 502 once the sandbox handled (and charged) it. */
function ambiguousOnce(): Transport {
	const inner = newTransport() as Transport & { send: (c: Credentials, o: IHttpRequestOptions) => Promise<unknown> };
	let armed = true;
	return {
		requests: inner.requests,
		count: (prefix?: string) => inner.count(prefix),
		reset: () => inner.reset(),
		send: async (c: Credentials, o: IHttpRequestOptions) => {
			const answer = await inner.send(c, o);
			if (armed && typeof o.body === 'string' && o.body.includes(prompts[FAILED])) {
				armed = false;
				return { statusCode: 502, headers: {}, body: JSON.stringify({ error: { code: 'BAD_GATEWAY', message: 'Upstream timed out' } }) };
			}
			return answer;
		},
	} as Transport;
}

const charges = () => prompts.map((p) => sb.stats.chargesByInput[`generate:${p}`] ?? 0);
const run = (transport: Transport, over: Partial<ExecuteOptions> = {}): ExecuteOptions => ({
	credentials,
	params: params(),
	items,
	transport,
	run: { executionId: '101', workflowId: 'wf-retries', mode: 'webhook' },
	...over,
});
const messageOf = (e: { message: string; description?: string | null }) => `${e.message} ${e.description ?? ''}`;

describe('Settings › Retry On Fail (execute() again in the same execution), On Error: Stop Workflow', () => {
	test('the ambiguous item fails again with the same message naming the option; answered items are reused; items never sent are sent; no prompt charged twice', async () => {
		const transport = ambiguousOnce();
		const first = await runNodeError(run(transport));
		expect(messageOf(first)).toMatch(/502[\s\S]*may already have been carried out[\s\S]*Send Again After an Unclear Failure/);
		// Concurrency 1: items 0–3 were sent (3 failed after its charge), the run stopped before 4.
		expect(charges()).toEqual(prompts.map((_, i) => (i <= FAILED ? 1 : 0)));

		transport.reset();
		const second = await runNodeError(run(transport));
		expect(messageOf(second)).toBe(messageOf(first));
		// Only the items never sent were sent.
		expect(transport.requests.map((r) => (r.body as { prompt: string }).prompt)).toEqual(prompts.slice(FAILED + 1));
		expect(charges()).toEqual(prompts.map(() => 1));

		transport.reset();
		const third = await runNodeError(run(transport));
		expect(messageOf(third)).toBe(messageOf(first));
		expect(transport.requests).toHaveLength(0);
		expect(charges()).toEqual(prompts.map(() => 1));
	});

	test('with Send Again After an Unclear Failure on, the ambiguous item is sent again (on purpose), the answered ones still are not', async () => {
		const transport = ambiguousOnce();
		await runNodeError(run(transport));
		transport.reset();
		const { output, hints } = await runNode(run(transport, { params: params({ resendUnclear: true }) }));
		expect(output).toHaveLength(N);
		expect(transport.requests.map((r) => (r.body as { prompt: string }).prompt)).toEqual(prompts.slice(FAILED));
		expect(charges()).toEqual(prompts.map((_, i) => (i === FAILED ? 2 : 1)));
		expect(hints.map((h) => h.message)).toContain('3 items reused from the previous try, not charged again (answers of paid calls are kept for Options › Remember Paid Answers For (Minutes)).');
	});

	test('free calls (Get Credits, one per item) are sent again', async () => {
		const transport = newTransport();
		const free = { ...run(transport), params: { resource: 'account', operation: 'getCredits' } };
		await runNode(free);
		await runNode(free);
		expect(transport.count('/credits')).toBe(2 * N);
	});
});

describe('Create Guided Post: every step is a paid call of the item', () => {
	test('Retry On Fail after the write step failed ambiguously: ideas and prepare reused, write fails again, nothing sent; with Send Again on, only write onwards is sent', async () => {
		const inner = newTransport() as Transport & { send: (c: Credentials, o: IHttpRequestOptions) => Promise<unknown> };
		let armed = true;
		const transport = {
			requests: inner.requests,
			count: (prefix?: string) => inner.count(prefix),
			reset: () => inner.reset(),
			send: async (c: Credentials, o: IHttpRequestOptions) => {
				const answer = await inner.send(c, o);
				if (armed && o.url.endsWith('/creation/write')) {
					armed = false;
					return { statusCode: 503, headers: {}, body: JSON.stringify({ error: 'Service Unavailable' }) };
				}
				return answer;
			},
		} as Transport;
		const guided = (options: Record<string, unknown> = {}) => run(transport, { params: { resource: 'creation', operation: 'createGuided', topic: 'Remote onboarding', options }, items: [{ json: {} }] });
		const first = await runNodeError(guided());
		expect(messageOf(first)).toMatch(/"write" step[\s\S]*503[\s\S]*Send Again After an Unclear Failure/);
		expect(transport.count('/creation/')).toBe(3);
		transport.reset();
		const second = await runNodeError(guided());
		expect(messageOf(second)).toBe(messageOf(first));
		expect(transport.requests).toHaveLength(0);
		transport.reset();
		const { output } = await runNode(guided({ resendUnclear: true }));
		expect(typeof output[0].json.text).toBe('string');
		// Ideas and prepare reused (the same workflow), write sent again on purpose, then validate (and any refinement).
		expect(transport.count('/creation/ideas')).toBe(0);
		expect(transport.count('/creation/prepare')).toBe(0);
		expect(transport.count('/creation/write')).toBe(1);
		expect(transport.count('/creation/validate')).toBeGreaterThanOrEqual(1);
	});
});

describe("an execution's Retry (mode retry, a new execution of the same workflow)", () => {
	test('Stop Workflow: answered items reused, the ambiguous one fails again, the rest sent once; a retry of the retry sends nothing', async () => {
		const transport = ambiguousOnce();
		const first = await runNodeError(run(transport));
		transport.reset();
		const retry = await runNodeError(run(transport, { run: { executionId: '102', workflowId: 'wf-retries', mode: 'retry' } }));
		expect(messageOf(retry)).toBe(messageOf(first));
		expect(transport.requests.map((r) => (r.body as { prompt: string }).prompt)).toEqual(prompts.slice(FAILED + 1));
		expect(charges()).toEqual(prompts.map(() => 1));
		transport.reset();
		await runNodeError(run(transport, { run: { executionId: '103', workflowId: 'wf-retries', mode: 'retry' } }));
		expect(transport.requests).toHaveLength(0);
	});

	test('Continue (using error output): the same proposals and credits remaining, the ambiguous item as an error item, the hint', async () => {
		const transport = ambiguousOnce();
		const first = await runNode(run(transport, { continueOnFail: true }));
		expect(charges()).toEqual(prompts.map(() => 1));
		expect(first.output[FAILED].json.error).toMatch(/502[\s\S]*Send Again After an Unclear Failure/);
		transport.reset();
		const retry = await runNode(run(transport, { continueOnFail: true, run: { executionId: '102', workflowId: 'wf-retries', mode: 'retry' } }));
		expect(transport.requests).toHaveLength(0);
		expect(retry.output.map((i) => i.json)).toEqual(first.output.map((i) => i.json));
		expect(retry.output.map((i) => i.pairedItem)).toEqual(first.output.map((i) => i.pairedItem));
		expect(retry.hints.map((h) => h.message)).toContain(
			`${N - 1} items reused from the previous try, not charged again (answers of paid calls are kept for Options › Remember Paid Answers For (Minutes)).`,
		);
		expect(charges()).toEqual(prompts.map(() => 1));
	});

	test('a new execution that is not a retry (the next webhook call) pays again: the memory serves re-runs only', async () => {
		const transport = newTransport();
		await runNode(run(transport));
		await runNode(run(transport, { run: { executionId: '102', workflowId: 'wf-retries', mode: 'webhook' } }));
		expect(charges()).toEqual(prompts.map(() => 2));
	});

	test('after Remember Paid Answers For has passed, a retry sends again', async () => {
		const transport = newTransport();
		const clock = jest.spyOn(Date, 'now');
		const t0 = Date.now();
		clock.mockReturnValue(t0);
		try {
			await runNode(run(transport, { params: params({ paidMemoryMinutes: 1 }) }));
			clock.mockReturnValue(t0 + 60_000);
			await runNode(run(transport, { run: { executionId: '102', workflowId: 'wf-retries', mode: 'retry' } }));
		} finally {
			clock.mockRestore();
		}
		expect(charges()).toEqual(prompts.map(() => 2));
	});
});

describe('the docs say it, with the settings of the code', () => {
	const root = join(__dirname, '..', '..', '..', '..');
	const packageReadme = readFileSync(join(root, 'n8n', 'README.md'), 'utf8');
	const bold = (setting: string) => `**${setting}**`;

	// docs/paid-calls.md states the defaults and bounds: test/docs/facts.test.ts checks them against these constants.
	test('n8n/README.md: both options, On Error: Continue (using error output), queue mode', () => {
		expect(packageReadme).toContain(bold(MEMORY_SETTING));
		expect(packageReadme).toContain(bold(RESEND_SETTING));
		expect(packageReadme).toContain('**Continue (using error output)**');
		expect(packageReadme).toMatch(/In queue mode each worker keeps its own memory/);
	});
});
