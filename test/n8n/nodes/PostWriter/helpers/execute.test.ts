/**
 * Items in parallel (helpers/execute.ts): Options › Concurrency, the output in
 * input order with pairedItem, continueOnFail, and the stop on the first
 * failure without it. A scripted transport answers each item after its own
 * short delay, so items finish out of order; what is asserted is order,
 * pairing and how many calls were in flight, never a duration.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { startSandbox } from '../../../../../sandbox';
import { CONCURRENCY_WHEN_ADDED, MAX_CONCURRENCY } from '../../../../../n8n/nodes/PostWriter/helpers/options';
import { RATE_DEFAULTS } from '../../../../../shared/pacing';
import { runPool } from '../../../../../n8n/nodes/PostWriter/helpers/execute';
import { PostWriter } from '../../../../../n8n/nodes/PostWriter/PostWriter.node';
import { isListOperation, OPERATION_KEYS, getOperation } from '../../../../../shared/catalogue';
import type { Credentials, SentRequest, Transport } from '../../../helpers/context';
import { runNode, runNodeError } from '../../../helpers/context';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const credentials: Credentials = { apiKey: 'pw_live_0123456789abcdef0123456789abcdef', baseUrl: 'https://api.test.example/api/v1' };

/** Answers /generate for "item N" after (N * 7 % 5 + 1) × 5 ms; `fail` maps an item to the status it gets. */
function scriptedTransport(fail: Record<number, number> = {}) {
	const requests: SentRequest[] = [];
	let inFlight = 0;
	const stats = { maxInFlight: 0, sentItems: [] as number[] };
	let credits = 1_000;
	const transport = {
		requests,
		count: () => requests.length,
		reset: () => void (requests.length = 0),
		async send(_c: Credentials, options: IHttpRequestOptions) {
			const body = JSON.parse(String(options.body)) as { prompt: string };
			const item = Number(/item (\d+)/.exec(body.prompt)?.[1]);
			requests.push({ method: String(options.method), url: options.url, headers: {}, body });
			stats.sentItems.push(item);
			inFlight++;
			stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
			await new Promise((r) => setTimeout(r, (((item * 7) % 5) + 1) * 5));
			inFlight--;
			const status = fail[item];
			if (status) {
				return { statusCode: status, headers: {}, body: JSON.stringify({ error: { code: 'INVALID', message: `Item ${item} refused` } }) };
			}
			credits--;
			return { statusCode: 200, headers: {}, body: JSON.stringify({ proposals: [`post for item ${item}`], draftId: null, creditsRemaining: credits }) };
		},
	};
	return { transport: transport as unknown as Transport, stats };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `item ${i}` } }));
const params = (options: Record<string, unknown> = {}) => ({ resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}', options });

describe('Options › Concurrency', () => {
	test('Auto by default: a few calls first, more as the rate grows and none is refused; output in input order, each item paired with its input', async () => {
		const { transport, stats } = scriptedTransport();
		const { output } = await runNode({ credentials, params: params(), items: items(40), transport });
		// Without rate-limit headers: the initial burst, then the slow start's rate, growing with time while none is refused.
		expect(stats.maxInFlight).toBeGreaterThanOrEqual(RATE_DEFAULTS.initialBurst);
		expect(stats.maxInFlight).toBeLessThanOrEqual(MAX_CONCURRENCY);
		expect(output.map((o) => o.pairedItem)).toEqual(items(40).map((_, i) => ({ item: i })));
		expect(output.map((o) => (o.json.proposals as string[])[0])).toEqual(items(40).map((_, i) => `post for item ${i}`));
		// Items are started in input order.
		expect(stats.sentItems.slice(0, RATE_DEFAULTS.initialBurst)).toEqual([0, 1, 2]);
	});

	test.each([1, 3])('concurrency %i: at most that many calls in flight', async (concurrency) => {
		const { transport, stats } = scriptedTransport();
		const { output } = await runNode({ credentials, params: params({ concurrency }), items: items(30), transport });
		expect(stats.maxInFlight).toBe(concurrency);
		expect(output).toHaveLength(30);
		expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([...Array(30).keys()]);
	});

	test(`concurrency ${MAX_CONCURRENCY} is a cap, not a start: the key's pacing still grows from a few calls`, async () => {
		const { transport, stats } = scriptedTransport();
		const { output } = await runNode({ credentials, params: params({ concurrency: MAX_CONCURRENCY }), items: items(30), transport });
		expect(stats.maxInFlight).toBeLessThanOrEqual(MAX_CONCURRENCY);
		expect(stats.sentItems.slice(0, RATE_DEFAULTS.initialBurst)).toEqual([0, 1, 2]);
		expect(output).toHaveLength(30);
	});

	test('continueOnFail: a failed item gets its error in place, the others go on', async () => {
		const { transport, stats } = scriptedTransport({ 2: 400, 7: 400 });
		const { output } = await runNode({ credentials, params: params({ concurrency: 4 }), items: items(10), transport, continueOnFail: true });
		expect(output).toHaveLength(10);
		expect(stats.sentItems.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
		output.forEach((o, i) => {
			expect(o.pairedItem).toEqual({ item: i });
			if (i === 2 || i === 7) expect(o.json.error).toMatch(new RegExp(`Item ${i} refused`));
			else expect(o.json.error).toBeUndefined();
		});
	});

	test('without continueOnFail: the first failure stops new calls, the calls in flight finish, and that item is reported', async () => {
		const { transport, stats } = scriptedTransport({ 1: 400 });
		const error = await runNodeError({ credentials, params: params({ concurrency: 3 }), items: items(12), transport });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/Item 1 refused/);
		expect(error.context?.itemIndex ?? error.itemIndex).toBe(1);
		// Item 1 fails first (5 × (7 % 5 + 1) = 15 ms); only the items started before it were sent, and they finished.
		expect(Math.max(...stats.sentItems)).toBeLessThan(6);
		expect(stats.sentItems.length).toBeLessThan(12);
	});

	test(`a concurrency outside 1–${MAX_CONCURRENCY} is refused before any call, naming the option`, async () => {
		const { transport, stats } = scriptedTransport();
		const error = await runNodeError({ credentials, params: params({ concurrency: 500 }), items: items(3), transport, continueOnFail: true });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(`${error.message} ${error.description ?? ''}`).toMatch(new RegExp(`Concurrency.*1 to ${MAX_CONCURRENCY}.*500.*Auto`));
		expect(stats.sentItems).toEqual([]);
	});

	test('offered on every operation that calls the API per item, not on the lists', () => {
		const props = new PostWriter().description.properties;
		for (const key of OPERATION_KEYS) {
			const spec = getOperation(key);
			const options = props.find((p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes(spec.action) && p.displayOptions?.show?.resource?.includes(spec.resource));
			const concurrency = (options?.options as Array<{ name: string; default?: unknown; typeOptions?: { maxValue?: number } }> | undefined)?.find((o) => o.name === 'concurrency');
			if (isListOperation(key)) expect({ key, concurrency }).toEqual({ key, concurrency: undefined });
			else expect({ key, default: concurrency?.default, max: concurrency?.typeOptions?.maxValue }).toEqual({ key, default: CONCURRENCY_WHEN_ADDED, max: MAX_CONCURRENCY });
			// Every operation has the quota's time budget.
			expect({ key, budget: (options?.options as Array<{ name: string }>).some((o) => o.name === 'maxQuotaWait') }).toEqual({ key, budget: true });
		}
		const guided = props.find((p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('createGuided'));
		expect((guided?.options as Array<{ name: string }>).map((o) => o.name)).toEqual(['concurrency', 'maxQuotaWait', 'paidMemoryMinutes', 'resendUnclear']);
	});
});

describe('runPool', () => {
	test('starts tasks in order, never more than asked at once, and none after the stop', async () => {
		const started: number[] = [];
		let inFlight = 0;
		let most = 0;
		let stop = false;
		await runPool(
			10,
			3,
			async (i) => {
				started.push(i);
				inFlight++;
				most = Math.max(most, inFlight);
				await Promise.resolve();
				if (i === 4) stop = true;
				inFlight--;
			},
			() => stop,
		);
		expect(most).toBe(3);
		expect(started).toEqual([0, 1, 2, 3, 4, 5]);
	});
});

describe('Create Guided Post in parallel', () => {
	test('each item its own workflow, run at once, and never two calls on one workflow (no WORKFLOW_BUSY)', async () => {
		const lines: string[] = [];
		const sb = await startSandbox({ creationLatencyMs: 40, log: (l) => lines.push(l) });
		try {
			const topics = Array.from({ length: 6 }, (_, i) => ({ json: { topic: `Topic number ${i}` } }));
			const { output } = await runNode({
				credentials: { apiKey: sb.keys.full, baseUrl: sb.baseUrl },
				params: { resource: 'creation', operation: 'createGuided', topic: '={{ $json.topic }}', options: { concurrency: 6 } },
				items: topics,
			});
			expect(output.map((o) => o.pairedItem)).toEqual(topics.map((_, i) => ({ item: i })));
			expect(new Set(output.map((o) => o.json.workflowId)).size).toBe(6);
			for (const o of output) expect(typeof o.json.text).toBe('string');
			expect(lines.filter((l) => l.endsWith('-> 409'))).toEqual([]);
			// 4 steps per item, each sent once.
			expect(lines.filter((l) => l.startsWith('POST /api/v1/creation/') && l.endsWith('-> 200'))).toHaveLength(24);
		} finally {
			await sb.close();
		}
	});
});
