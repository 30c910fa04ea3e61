/**
 * The client's overall deadline (ClientOptions.deadline), on a fake clock and
 * a fake transport: it caps each attempt's timeout and the retry waits, and
 * no request starts with less than MIN_ATTEMPT_MS left.
 */
import type { HttpRequest, HttpResponse } from '../../../shared/base';
import { PostWriterClient, runGuided, MIN_ATTEMPT_MS } from '../../../shared/client';
import { GuidedIncompleteError, RateLimitedError, ServerError, TimeoutError } from '../../../shared/errors';
import { caught } from '../../helpers/fake';

const BASE = 'https://api.test.example/api/v1';

type Step = { status: number; body?: unknown; headers?: Record<string, string>; takesMs?: number } | { error: string; takesMs?: number };

/** A fake clock and a scripted transport that moves it; sleeps move it too. */
function harness(steps: Step[], deadlineIn?: number, overrides: { timeoutMs?: number } = {}) {
	let clock = 1_000_000;
	const sent: Array<{ url: string; timeoutMs?: number; at: number }> = [];
	const sleeps: number[] = [];
	const send = async (req: HttpRequest): Promise<HttpResponse> => {
		sent.push({ url: req.url, timeoutMs: req.timeoutMs, at: clock });
		const step = steps.shift();
		if (!step) throw new Error('unexpected extra call');
		const takes = step.takesMs ?? 100;
		if ('error' in step) {
			clock += Math.min(takes, req.timeoutMs ?? Infinity);
			throw Object.assign(new Error(step.error), { code: step.error });
		}
		if (req.timeoutMs !== undefined && takes > req.timeoutMs) {
			clock += req.timeoutMs;
			throw Object.assign(new Error('timeout of the attempt'), { code: 'ECONNABORTED' });
		}
		clock += takes;
		return { status: step.status, headers: step.headers ?? {}, body: JSON.stringify(step.body ?? {}) };
	};
	const start = clock;
	const client = new PostWriterClient({
		baseUrl: BASE,
		send,
		sleep: async (ms) => {
			sleeps.push(ms);
			clock += ms;
		},
		now: () => clock,
		random: () => 0,
		deadline: deadlineIn === undefined ? undefined : start + deadlineIn,
		timeoutMs: overrides.timeoutMs ?? 20_000,
		retry: { maxAttempts: 6, maxTotalWaitMs: 60_000, maxDelayMs: 30_000 },
	});
	return { client, sent, sleeps, elapsed: () => clock - start };
}

test('without a deadline, the per-attempt timeout is handed over as is', async () => {
	const h = harness([{ status: 200, body: { balance: 3 } }]);
	expect((await h.client.getCredits({})).balance).toBe(3);
	expect(h.sent[0].timeoutMs).toBe(20_000);
});

test("each attempt's timeout is cut to the time left", async () => {
	const h = harness(
		[
			{ status: 503, body: { error: 'down' }, takesMs: 3_000 },
			{ status: 200, body: { balance: 3 } },
		],
		8_000,
	);
	expect((await h.client.getCredits({})).balance).toBe(3);
	expect(h.sent[0].timeoutMs).toBe(8_000);
	expect(h.sleeps).toHaveLength(1);
	// 3 s for the first answer, then the backoff: the second attempt gets only what is left.
	expect(h.sent[1].timeoutMs).toBe(8_000 - 3_000 - h.sleeps[0]);
});

test('a GET that hangs is cut at the deadline, and no retry is made after it', async () => {
	const h = harness([{ status: 200, body: {}, takesMs: 60_000 }], 5_000);
	const e = await caught(h.client.getCredits({}));
	expect(e).toBeInstanceOf(TimeoutError);
	expect(h.sent).toHaveLength(1);
	expect(h.elapsed()).toBe(5_000);
});

test('a 429 whose wait would pass the deadline is not waited: the RateLimitedError keeps the delay', async () => {
	const h = harness([{ status: 429, headers: { 'retry-after': '10' }, takesMs: 200 }], 10_000);
	const e = await caught(h.client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(e.retryAfterMs).toBe(10_000);
	expect(h.sleeps).toEqual([]);
	expect(h.sent).toHaveLength(1);
	expect(h.elapsed()).toBe(200);
});

test('a wait that leaves at least MIN_ATTEMPT_MS is taken; one that leaves less is not', async () => {
	// 200 ms + 3 s wait leaves 1.8 s of 5 s: taken. The next 3 s wait would leave less than 1 s: not taken.
	const h = harness(
		[
			{ status: 429, headers: { 'retry-after': '3' }, takesMs: 200 },
			{ status: 429, headers: { 'retry-after': '3' }, takesMs: 200 },
		],
		5_000,
	);
	const e = await caught(h.client.getCredits({}));
	expect(e).toBeInstanceOf(RateLimitedError);
	expect(h.sleeps).toEqual([3_000]);
	expect(h.sent).toHaveLength(2);
	expect(h.sent[1].timeoutMs).toBe(5_000 - 3_200);
	expect(h.elapsed()).toBeLessThan(5_000);
});

test('a 5xx on a GET whose backoff does not fit: the ServerError, at once', async () => {
	const h = harness([{ status: 503, body: { error: 'down' }, takesMs: 4_500 }], 5_000);
	const e = await caught(h.client.getCredits({}));
	expect(e).toBeInstanceOf(ServerError);
	expect(h.sleeps).toEqual([]);
});

test('no request starts with less than MIN_ATTEMPT_MS left', async () => {
	const h = harness([], MIN_ATTEMPT_MS - 1);
	const e = await caught(h.client.generatePost({ prompt: 'x' }));
	expect(e).toBeInstanceOf(TimeoutError);
	expect(e.code).toBe('DEADLINE_REACHED');
	expect(e.message).toMatch(/^Generate .*was not sent: the time allowed for this run ends in 999 ms/);
	expect(e.safeToRetry).toBe(true);
	expect(h.sent).toEqual([]);
	// A list stops in the same way between two pages.
	const l = harness([{ status: 200, body: { data: [{ id: 'a' }], nextCursor: 'c' }, takesMs: 1_500 }], 2_000);
	expect(await caught(l.client.listDrafts(undefined, { pageSize: 1 }))).toBeInstanceOf(TimeoutError);
	expect(l.sent).toHaveLength(1);
});

test('Create Guided Post on a client with a deadline: the step that cannot start names the workflow', async () => {
	const h = harness(
		[
			{ status: 200, body: { workflowId: 'wf_42', ideas: [{ id: 'idea_1', text: 'An idea' }] }, takesMs: 1_500 },
			{ status: 200, body: { workflowId: 'wf_42', questions: [{ id: 'q_1', question: 'Why?' }] }, takesMs: 1_000 },
		],
		3_200,
	);
	const e = await caught(runGuided(h.client, { topic: 'Remote work' }, { deadline: (h.client.deadline ?? 0) }));
	expect(e).toBeInstanceOf(GuidedIncompleteError);
	expect(e.workflowId).toBe('wf_42');
	expect(e.message).toMatch(/\(workflow wf_42\)\. The workflow is kept: continue it with Write Post/);
	expect(e.step).toBe('write');
	expect(e.hint).toMatch(/^The workflow is kept: continue it with Write Post/);
	expect(h.sent).toHaveLength(2);
	expect(h.elapsed()).toBeLessThanOrEqual(3_200);
});
