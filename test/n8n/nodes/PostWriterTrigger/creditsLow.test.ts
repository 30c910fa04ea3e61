/**
 * Post Writer Trigger, Credits Low: many polls with the static data persisted
 * between them while credits are spent through the API (Generate) and in the
 * application, and topped up. The expected fires come from the sandbox's own
 * ledger: every transaction after activation that took the balance from at
 * least the threshold to below it, once, including a fall and a top-up
 * between two polls.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, mulberry32 } from '../../../../sandbox';
import { MINUTE, account, api, credentials, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

const start = (credits = 40) => startTriggerSandbox({ credits });

const params = (threshold: number) => ({ event: 'creditsLow', threshold });

async function generate(times: number): Promise<void> {
	for (let i = 0; i < times && account().credits > 0; i++) {
		await api('POST', '/generate', { prompt: 'Spend a credit', saveDraft: false });
	}
}

/** The oracle: transactions after `from` that crossed the threshold downwards. */
function crossingsSince(from: number, threshold: number): string[] {
	return account()
		.history.slice(from)
		.filter((tx) => tx.balanceAfter - tx.amount >= threshold && tx.balanceAfter < threshold)
		.map((tx) => `${tx.id}:${threshold}`);
}

describe('Credits Low', () => {
	test('100 polls while credits are spent and topped up: once per crossing, re-armed by a top-up, never for the balance at activation', async () => {
		await start(40);
		const threshold = 25;
		const staticData: IDataObject = {};
		expect((await poll({ credentials, params: params(threshold), staticData })).result).toBeNull();
		const from = account().history.length;
		const rnd = mulberry32(5);
		const fired: string[] = [];
		let fallAndRecover = 0;
		for (let round = 0; round < 100; round++) {
			sb.clock.advance(MINUTE * (1 + Math.floor(rnd() * 10)));
			const r = rnd();
			if (r < 0.4) await generate(1 + Math.floor(rnd() * 3));
			else if (r < 0.55) sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -Math.floor(rnd() * 8));
			else if (r < 0.7) sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 1 + Math.floor(rnd() * 15), 'grant');
			else if (r < 0.8 && account().credits >= threshold) {
				// A fall below and a top-up between two polls: the balance the poll sees is fine, the fall happened.
				sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, threshold - 1 - account().credits);
				sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 20, 'grant');
				fallAndRecover++;
			}
			const { items } = await poll({ credentials, params: params(threshold), staticData });
			for (const item of items) {
				expect(item).toMatchObject({ threshold, balance: account().credits, balanceAfterCrossing: expect.any(Number) });
				expect(item.balanceAfterCrossing as number).toBeLessThan(threshold);
				expect((item.latestTransactions as unknown[]).length).toBeGreaterThan(0);
				expect((item.latestTransactions as unknown[]).length).toBeLessThanOrEqual(5);
			}
			fired.push(...items.map((i) => String(i.id)));
			expect(fired).toEqual(crossingsSince(from, threshold));
			expect(JSON.stringify(staticData).length).toBeLessThan(4096);
		}
		expect(fired.length).toBeGreaterThan(3);
		expect(fallAndRecover).toBeGreaterThan(0);
	}, 60_000);

	test('below the threshold at activation: nothing fires until the balance has gone back up and falls again', async () => {
		await start(5);
		const staticData: IDataObject = {};
		await poll({ credentials, params: params(10), staticData });
		await generate(2);
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
		const topUp = sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 20, 'grant');
		expect(topUp.balanceAfter).toBe(23);
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
		const fall = sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -15);
		const { items } = await poll({ credentials, params: params(10), staticData });
		expect(items).toEqual([
			expect.objectContaining({ id: `${fall.id}:10`, balance: 8, threshold: 10, below: true, balanceAfterCrossing: 8, transactionId: fall.id }),
		]);
		expect((items[0].latestTransactions as Array<{ id: string }>)[0].id).toBe(fall.id);
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
	});

	test('a fall the history does not show (no transaction) fires once from the balance', async () => {
		await start(30);
		const staticData: IDataObject = {};
		await poll({ credentials, params: params(10), staticData });
		account().credits = 3;
		const { items } = await poll({ credentials, params: params(10), staticData });
		expect(items).toEqual([expect.objectContaining({ id: expect.stringMatching(/^balance:10:/), balance: 3, transaction: null })]);
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
	});

	test('a failed poll does not advance the state; the next good poll fires the crossing once', async () => {
		await start(12);
		const staticData: IDataObject = {};
		await poll({ credentials, params: params(10), staticData });
		await generate(3);
		const snapshot = JSON.stringify(staticData);
		await expect(poll({ credentials: { ...credentials, apiKey: sb.keys.revoked }, params: params(10), staticData })).rejects.toBeInstanceOf(NodeApiError);
		sb.configure({ faults: { errorRate: 1, errorStatuses: [500], routes: ['GET /credits'] } });
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.resetFaults();
		expect((await poll({ credentials, params: params(10), staticData })).items.map((i) => i.id)).toEqual(crossingsSince(0, 10));
		expect((await poll({ credentials, params: params(10), staticData })).result).toBeNull();
	});

	test('Fetch Test Event: the latest fall, state untouched; or a clear message', async () => {
		await start(12);
		let error: any;
		try {
			await poll({ credentials, params: params(10), staticData: {}, mode: 'manual' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The balance (12 credits) is not below 10, and the history shows no fall below it: there is nothing to show as a test event');
		await generate(3);
		const staticData: IDataObject = {};
		const { items } = await poll({ credentials, params: params(10), staticData, mode: 'manual' });
		expect(items).toEqual([expect.objectContaining({ id: crossingsSince(0, 10)[0], balance: 9, threshold: 10 })]);
		expect(staticData).toEqual({});
	});
});
