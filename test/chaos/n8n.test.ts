/** Chaos matrix through the n8n node (execute on a fake IExecuteFunctions) and trigger (poll with persisted static data). */
import { n8nDriver } from './drivers/n8n';
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
