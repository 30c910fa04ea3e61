/**
 * Post Writer Trigger, Upcoming Scheduled Draft: successive polls on the
 * sandbox clock, across a day and a month boundary (UTC), with the static
 * data persisted between polls. Hundreds of drafts over days:
 * upcomingScheduledDraft.soak.test.ts (npm run test:soak).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID } from '../../../../sandbox';
import { HOUR, MINUTE, account, credentials, newTriggerNode, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

/** 22:00 UTC on the last day of January: the notice window crosses into February. */
const T0 = Date.parse('2026-01-31T22:00:00.000Z');

beforeEach(async () => {
	await startTriggerSandbox({ now: T0, seedData: false });
});


function schedule(text: string, at: number): string {
	return sb.state.createDraft(DEFAULT_ACCOUNT_ID, text, new Date(at).toISOString()).id;
}

const params = { event: 'upcomingScheduledDraft', notifyAmount: 3, notifyUnit: 'hours' };

describe('Upcoming Scheduled Draft', () => {
	test('fires once per (draft, time) as the time enters the window, across day and month, and again when rescheduled', async () => {
		const { staticData, transport } = newTriggerNode();
		const a = schedule('A', T0 + HOUR); // 23:00 Jan 31
		const b = schedule('B', T0 + 5 * HOUR); // 03:00 Feb 1
		const c = schedule('C', T0 + 2 * HOUR + 59 * MINUTE); // 00:59 Feb 1
		const d = schedule('D', T0 + 30 * 24 * HOUR); // far away

		const first = await poll({ credentials, params, staticData, transport });
		expect(first.items.map((i) => i.draftId)).toEqual([a, c]);
		expect(first.items[0]).toMatchObject({ type: 'scheduled', scheduledAt: new Date(T0 + HOUR).toISOString(), minutesUntil: 60 });
		expect(new URL(transport.requests[0].url).search).toBe('?from=2026-01-31&to=2026-02-01');

		// Steady state: one request, nothing again.
		transport.reset();
		sb.clock.advance(30 * MINUTE);
		expect((await poll({ credentials, params, staticData, transport })).result).toBeNull();
		expect(transport.requests).toHaveLength(1);

		// B enters the window at 00:00 Feb 1 (5 h - 3 h after T0).
		sb.clock.set(T0 + 2 * HOUR);
		const second = await poll({ credentials, params, staticData });
		expect(second.items.map((i) => i.draftId)).toEqual([b]);

		// A is rescheduled later (still in the window): it fires again, with its new time.
		const draftA = account().drafts.find((x) => x.id === a);
		expect(draftA).toBeUndefined(); // A was published at 23:00
		const draftC = account().drafts.find((x) => x.id === c);
		expect(draftC).toBeDefined();
		draftC!.scheduledAt = new Date(T0 + 4 * HOUR).toISOString();
		const third = await poll({ credentials, params, staticData });
		expect(third.items.map((i) => [i.draftId, i.scheduledAt])).toEqual([[c, new Date(T0 + 4 * HOUR).toISOString()]]);
		expect((await poll({ credentials, params, staticData })).result).toBeNull();

		// D never fires while it is far; nothing fires for times already past.
		sb.clock.set(T0 + 6 * HOUR);
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		expect(d).toBeDefined();
		// Fired times in the past are pruned: the state stays small.
		expect(Object.keys((staticData.upcomingScheduledDraft as { fired: object }).fired)).toEqual([]);
	});

	test('a draft whose time passed between two polls never fires', async () => {
		const staticData: IDataObject = {};
		await poll({ credentials, params: { ...params, notifyAmount: 10, notifyUnit: 'minutes' }, staticData });
		schedule('Soon', T0 + 20 * MINUTE);
		sb.clock.advance(2 * HOUR); // the trigger was not polled in the meantime
		const late = await poll({ credentials, params: { ...params, notifyAmount: 10, notifyUnit: 'minutes' }, staticData });
		expect(late.result).toBeNull();
	});

	test('a failed poll does not advance the state', async () => {
		const staticData: IDataObject = {};
		await poll({ credentials, params, staticData });
		const id = schedule('E', T0 + HOUR);
		const snapshot = JSON.stringify(staticData);
		await expect(poll({ credentials: { ...credentials, apiKey: sb.keys.expired }, params, staticData })).rejects.toBeInstanceOf(NodeApiError);
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.configure({ faults: { errorRate: 1, errorStatuses: [502], routes: ['GET /calendar'] } });
		expect((await poll({ credentials, params, staticData })).result).toBeNull();
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.resetFaults();
		expect((await poll({ credentials, params, staticData })).items.map((i) => i.draftId)).toEqual([id]);
	});

	test('Fetch Test Event returns the soonest upcoming draft, or says there is none', async () => {
		const staticData: IDataObject = {};
		let error: any;
		try {
			await poll({ credentials, params, staticData, mode: 'manual' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('No draft is scheduled in the next 3 hours: there is nothing to show as a test event');
		const id = schedule('F', T0 + 2 * HOUR);
		schedule('G', T0 + 2.5 * HOUR);
		const manual = await poll({ credentials, params, staticData, mode: 'manual' });
		expect(manual.items.map((i) => i.draftId)).toEqual([id]);
		expect(staticData).toEqual({});
	});

	test('a notice longer than the calendar allows is refused, naming the field', async () => {
		await expect(poll({ credentials, params: { ...params, notifyAmount: 100, notifyUnit: 'days' }, staticData: {} })).rejects.toThrow(
			/^Notify Me Before: 100 days is longer than the 31 days/,
		);
	});
});
