/**
 * The soak of Upcoming Scheduled Draft (npm run test:soak, not npm test): 400 drafts, one every 17 minutes, polled
 * every 7 minutes for nearly five days on the sandbox clock, with a 45-minute notice. Each draft fires exactly once
 * and the static data stays under 4 KB.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID } from '../../../../sandbox';
import { MINUTE, credentials, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

const T0 = Date.parse('2026-01-31T22:00:00.000Z');

beforeEach(async () => {
	await startTriggerSandbox({ now: T0, seedData: false });
});

function schedule(text: string, at: number): string {
	return sb.state.createDraft(DEFAULT_ACCOUNT_ID, text, new Date(at).toISOString()).id;
}

const params = { event: 'upcomingScheduledDraft' };

describe('Upcoming Scheduled Draft', () => {
	test('many drafts over many days: each fires exactly once, state stays bounded', async () => {
		const staticData: IDataObject = {};
		const ids = new Set<string>();
		for (let i = 0; i < 400; i++) ids.add(schedule(`Draft ${i}`, T0 + 10 * MINUTE + i * 17 * MINUTE));
		const fired: string[] = [];
		let maxSize = 0;
		for (let t = 0; t < 400 * 17 + 60; t += 7) {
			sb.clock.set(T0 + t * MINUTE);
			const { items } = await poll({ credentials, params: { ...params, notifyAmount: 45, notifyUnit: 'minutes' }, staticData });
			fired.push(...items.map((i) => String(i.draftId)));
			maxSize = Math.max(maxSize, JSON.stringify(staticData).length);
		}
		expect(new Set(fired).size).toBe(fired.length);
		expect(new Set(fired)).toEqual(ids);
		expect(maxSize).toBeLessThan(4096);
	}, 60_000);
});
