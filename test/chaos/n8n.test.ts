/** Chaos matrix through the n8n node (execute on a fake IExecuteFunctions) and trigger (poll with persisted static data). */
import { PACERS } from '../../n8n/nodes/PostWriter/transport';
import { execute, n8nDriver } from './drivers/n8n';
import { GENERATE, PROMPTS, chaosContext, chaosSuite, noKeyIn } from './suite';

chaosSuite(n8nDriver, 'chaos-n8n');

describe('n8n: without Continue On Fail', () => {
	const h = chaosContext('chaos-n8n');

	test('a key revoked mid-run stops the execution with a clear error, after exactly the calls that were charged', async () => {
		h.chaos.afterAnswer(GENERATE, '200', 2, () => h.chaos.revoke(h.key));
		const run = await n8nDriver.generate(h.ctx(), PROMPTS, { continueOnFail: false });
		expect(run.outcomes).toEqual([]);
		expect(run.thrown).toMatch(/revoked[\s\S]*new key/i);
		noKeyIn([run.thrown], h.key);
		expect(h.chaos.sb.stats.byRoute[GENERATE]).toBe(3);
		expect(h.chaos.sb.stats.creditsSpent).toBe(2);
	});

	test('a 502 after the call was charged stops the execution, says the call may have been carried out, and is not resent', async () => {
		h.chaos.faultNth(GENERATE, 1, { errorRate: 1, errorStatuses: [502], faultAfterHandling: true });
		const run = await n8nDriver.generate(h.ctx(), PROMPTS, { continueOnFail: false });
		expect(run.thrown).toMatch(/502[\s\S]*(may already have been carried out|check your drafts)/i);
		expect(h.chaos.sb.stats.byRoute[GENERATE]).toBe(1);
		expect(h.chaos.sb.stats.creditsSpent).toBe(1);
	});
});

describe('n8n: one key shared by several executions, revoked mid-run', () => {
	const h = chaosContext('chaos-n8n');
	const EXECUTIONS = 4;
	const ITEMS = 10;
	/** 200 answers before the key is revoked: a few calls into the runs, every execution with items left. */
	const REVOKE_AFTER = 6;

	test(`${EXECUTIONS} executions × ${ITEMS} items in one process, Concurrency Auto: each stops sending after its own first 401, the rest of its items fail with the revoked-key message, nothing charged twice`, async () => {
		const c = h.chaos;
		c.sb.configure({ faults: { latencyMs: 100 } });
		c.afterAnswer(GENERATE, '200', REVOKE_AFTER, () => c.revoke(h.key));
		c.sb.resetStats();
		const prompts = Array.from({ length: EXECUTIONS }, (_, e) => Array.from({ length: ITEMS }, (_, i) => `Execution ${e + 1} prompt ${i + 1}: one key, many runs`));
		// One transport log per execution: the sends and answers in the order its client sees them.
		const events = prompts.map((): string[] => []);
		// Separate execute() calls started together, as n8n runs several executions of a workflow in one process (Concurrency left out: Auto).
		const runs = await Promise.all(
			prompts.map((list, e) =>
				execute(
					{ ...h.ctx(), events: events[e] },
					{ resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}' },
					list.map((prompt) => ({ json: { prompt } })),
					true,
				),
			),
		);
		// They shared one pacing: the registry holds one entry, for this key and base URL.
		expect(PACERS.size).toBe(1);

		let sends = 0;
		let ok = 0;
		runs.forEach((run, e) => {
			const log = events[e];
			expect(run.thrown).toBeUndefined();
			expect(run.outcomes).toHaveLength(ITEMS);
			// Every execution met the revoked key (no execution finished before it), and sent nothing after its first 401.
			const first401 = log.indexOf('answer 401');
			expect({ e, first401: first401 >= 0 }).toEqual({ e, first401: true });
			expect({ e, sentAfter401: log.slice(first401).filter((x) => x.startsWith('send')) }).toEqual({ e, sentAfter401: [] });
			// Every answer was an item's result or the 401: no refusal, no failure without an answer.
			expect(log.filter((x) => x.startsWith('answer') && x !== 'answer 200' && x !== 'answer 401')).toEqual([]);
			const answered200 = log.filter((x) => x === 'answer 200').length;
			const sent = log.filter((x) => x.startsWith('send')).length;
			expect(sent).toBe(answered200 + log.filter((x) => x === 'answer 401').length);
			// No item sent twice (each send is another item's; the charges below name them).
			expect(sent).toBeLessThanOrEqual(ITEMS);

			const okHere = run.outcomes.filter((o) => o.ok);
			expect(okHere).toHaveLength(answered200);
			const failed = run.outcomes.filter((o) => !o.ok);
			expect(failed.length).toBeGreaterThan(0);
			for (const o of failed) expect(o.error).toMatch(/revoked[\s\S]*new key/i);
			noKeyIn(failed.map((o) => o.error), h.key);
			// Charged exactly the items that succeeded, each once.
			const charged = Object.entries(c.sb.stats.chargesByInput).filter(([k]) => k.startsWith(`generate:Execution ${e + 1} prompt `));
			expect(charged.every(([, n]) => n === 1)).toBe(true);
			const okPrompts = run.outcomes.flatMap((o, i) => (o.ok ? [`generate:${prompts[e][i]}`] : []));
			expect(charged.map(([k]) => k).sort()).toEqual(okPrompts.sort());
			sends += sent;
			ok += okHere.length;
		});
		// The sandbox saw exactly the sends the executions logged, and charged exactly the successful items.
		expect(c.sb.stats.byRoute[GENERATE]).toBe(sends);
		expect(ok).toBeGreaterThanOrEqual(REVOKE_AFTER);
		expect(c.sb.stats.creditsSpent).toBe(ok);
		expect(c.sb.stats.paidCalls).toBe(ok);
		expect(Object.values(c.sb.stats.chargesByInput).every((n) => n === 1)).toBe(true);
	});
});
