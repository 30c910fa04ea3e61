/**
 * The memory of paid calls (shared/paid/paid-memory.ts): what a re-run of a step
 * finds (by execution and item; by workflow in a retry), the bounds in
 * entries, bytes and time on a virtual clock, and that no key or input is
 * held in clear.
 */
import { createHash } from 'node:crypto';

import { ServerError, TimeoutError } from '../../../shared/errors';
import type { PaidOutcome, PaidScope } from '../../../shared/paid';
import { PaidMemory, PaidRun, errorOfUnclear, unclearFailureOf } from '../../../shared/paid';

const KEY = 'pw_live_0123456789abcdef0123456789abcdef';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function setup(limits: { maxEntries?: number; maxBytes?: number } = {}) {
	const clock = { t: 1_000_000 };
	const memory = new PaidMemory({ now: () => clock.t, digest: sha, ...limits });
	return { clock, memory };
}

const scope = (over: Partial<PaidScope> = {}): PaidScope => ({
	credential: `https://api.test/api/v1\n${KEY}`,
	step: 'node-1',
	execution: 'exec-1',
	workflow: 'wf-1',
	retry: false,
	windowMs: 60 * 60_000,
	resendUnclear: false,
	advice: 'Turn on Send Again to send it again.',
	...over,
});

const request = (prompt: string) => ({ method: 'POST' as const, url: 'https://api.test/api/v1/generate', body: { prompt, numProposals: 1 } });
const answer = (n: number): PaidOutcome => ({ kind: 'answered', value: { proposals: [`post ${n}`], creditsRemaining: 100 - n } });

describe('PaidRun: what a re-run finds', () => {
	test('within an execution (Retry On Fail): an item finds its own answer, with the same value, and a copy', () => {
		const { memory } = setup();
		const first = new PaidRun(memory, scope());
		first.forItem(0).open(request('a')).keep(answer(1));
		first.forItem(1).open(request('b')).keep(answer(2));
		const again = new PaidRun(memory, scope());
		const t0 = again.forItem(0).open(request('a'));
		expect(t0.recalled).toEqual(answer(1));
		expect(again.forItem(1).open(request('b')).recalled).toEqual(answer(2));
		expect(again.reused).toEqual(new Set([0, 1]));
		// Another item, another request, another execution, another node, another credential: nothing.
		expect(again.forItem(2).open(request('a')).recalled).toBeUndefined();
		expect(new PaidRun(memory, scope()).forItem(0).open(request('changed')).recalled).toBeUndefined();
		expect(new PaidRun(memory, scope({ execution: 'exec-2' })).forItem(0).open(request('a')).recalled).toBeUndefined();
		expect(new PaidRun(memory, scope({ step: 'node-2' })).forItem(0).open(request('a')).recalled).toBeUndefined();
		expect(new PaidRun(memory, scope({ credential: 'https://api.test/api/v1\nother' })).forItem(0).open(request('a')).recalled).toBeUndefined();
		// A copy: changing what was recalled changes nothing kept.
		((t0.recalled as { value: { proposals: string[] } }).value.proposals as string[]).push('x');
		expect(new PaidRun(memory, scope()).forItem(0).open(request('a')).recalled).toEqual(answer(1));
	});

	test("an execution's Retry (mode retry, a new execution id) finds the workflow's answers by request; another execution that is not a retry does not", () => {
		const { memory } = setup();
		const first = new PaidRun(memory, scope());
		first.forItem(3).open(request('a')).keep(answer(1));
		first.forItem(7).open(request('a')).keep(answer(2));
		expect(new PaidRun(memory, scope({ execution: 'exec-2' })).forItem(3).open(request('a')).recalled).toBeUndefined();
		const retry = new PaidRun(memory, scope({ execution: 'exec-2', retry: true }));
		// The same request twice in the run: the first and the second answer, whatever the items' numbers.
		expect(retry.forItem(0).open(request('a')).recalled).toEqual(answer(1));
		expect(retry.forItem(1).open(request('a')).recalled).toEqual(answer(2));
		expect(retry.forItem(2).open(request('a')).recalled).toBeUndefined();
		// Another workflow's retry: nothing.
		expect(new PaidRun(memory, scope({ execution: 'exec-3', workflow: 'wf-2', retry: true })).forItem(3).open(request('a')).recalled).toBeUndefined();
	});

	test('a request repeated within an item (a validation asked twice) is told apart by its rank', () => {
		const { memory } = setup();
		const first = new PaidRun(memory, scope()).forItem(0);
		first.open(request('v')).keep(answer(1));
		first.open(request('v')).keep(answer(2));
		const again = new PaidRun(memory, scope()).forItem(0);
		expect(again.open(request('v')).recalled).toEqual(answer(1));
		expect(again.open(request('v')).recalled).toEqual(answer(2));
		expect(again.open(request('v')).recalled).toBeUndefined();
	});

	test('an ambiguous failure fails again with its message and class, unless the user asked to send it again', () => {
		const { memory } = setup();
		const timeout = new TimeoutError('POST /generate timed out without an answer.', true, { operation: 'generatePost' });
		new PaidRun(memory, scope()).forItem(0).open(request('a')).keep({ kind: 'unclear', failure: unclearFailureOf(timeout) });
		const again = new PaidRun(memory, scope());
		const ticket = again.forItem(0).open(request('a'));
		expect(ticket.recalled?.kind).toBe('unclear');
		expect(again.failedAgain).toEqual(new Set([0]));
		const error = errorOfUnclear((ticket.recalled as Extract<PaidOutcome, { kind: 'unclear' }>).failure);
		expect(error).toBeInstanceOf(TimeoutError);
		expect(error.message).toBe(timeout.message);
		expect(errorOfUnclear(unclearFailureOf(new ServerError('boom', { status: 502 })))).toMatchObject({ status: 502, kind: 'server' });
		const resend = new PaidRun(memory, scope({ resendUnclear: true }));
		expect(resend.forItem(0).open(request('a')).recalled).toBeUndefined();
		expect(resend.failedAgain.size).toBe(0);
	});
});

describe('PaidMemory: bounds and secrets', () => {
	test('an entry expires after its time; the expired entries go when the memory is used', () => {
		const { clock, memory } = setup();
		memory.put(['a'], answer(1), 1_000);
		memory.put(['b'], answer(2), 5_000);
		clock.t += 999;
		expect(memory.get(['a'])).toEqual(answer(1));
		clock.t += 1;
		expect(memory.get(['a'])).toBeUndefined();
		clock.t += 4_000;
		memory.put(['c'], answer(3), 1_000);
		expect(memory.size).toBe(1);
		expect(memory.get(['b'])).toBeUndefined();
		// A run's window is its scope's: an hour by default.
		const run = new PaidRun(memory, scope({ windowMs: 60 * 60_000 }));
		run.forItem(0).open(request('a')).keep(answer(1));
		clock.t += 60 * 60_000 - 1;
		expect(new PaidRun(memory, scope()).forItem(0).open(request('a')).recalled).toEqual(answer(1));
		clock.t += 1;
		expect(new PaidRun(memory, scope()).forItem(0).open(request('a')).recalled).toBeUndefined();
	});

	test('bounded in entries: the oldest go first', () => {
		const { memory } = setup({ maxEntries: 3 });
		for (let i = 0; i < 5; i++) memory.put([String(i)], answer(i), 60_000);
		expect(memory.size).toBe(3);
		expect(memory.get(['0'])).toBeUndefined();
		expect(memory.get(['1'])).toBeUndefined();
		expect(memory.get(['4'])).toEqual(answer(4));
	});

	test('bounded in bytes: the oldest go first, an outcome larger than the whole memory is not kept', () => {
		const one = JSON.stringify(answer(1)).length * 2;
		const { memory } = setup({ maxBytes: one * 2 + 10 });
		for (let i = 1; i <= 4; i++) memory.put([String(i)], answer(i), 60_000);
		expect(memory.size).toBe(2);
		expect(memory.byteSize).toBeLessThanOrEqual(one * 2 + 10);
		expect(memory.get(['4'])).toEqual(answer(4));
		memory.put(['big'], { kind: 'answered', value: 'x'.repeat(one * 3) }, 60_000);
		expect(memory.get(['big'])).toBeUndefined();
		// Replacing an entry counts its bytes once.
		memory.put(['4'], answer(4), 60_000);
		memory.put(['4'], answer(4), 60_000);
		expect(memory.byteSize).toBe(memory.size * one);
	});

	test('no key, prompt or scope is held in clear: the ids are digests', () => {
		const { memory } = setup();
		const run = new PaidRun(memory, scope());
		run.forItem(0).open(request('A secret prompt about Q3')).keep(answer(1));
		expect(memory.size).toBe(2);
		for (const id of memory.ids()) {
			expect(id).toMatch(/^[0-9a-f]{64}$/);
			expect(id).not.toContain(KEY);
		}
		const everything = JSON.stringify([...memory.ids()]);
		expect(everything).not.toContain('secret prompt');
		expect(everything).not.toContain('exec-1');
	});
});
