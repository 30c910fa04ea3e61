/**
 * Post Writer Trigger, New Draft: many polls with the static data persisted
 * between them, while drafts are created by every route (POST /drafts,
 * POST /generate with its default "save as draft", the application), some in
 * the same millisecond, and scheduled drafts are published (leaving /drafts).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, mulberry32 } from '../../../../sandbox';
import type { ListShape } from '../../../../sandbox';
import { MINUTE, T0, LIST_SHAPES, account, api, credentials, newTransport, newTriggerNode, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

const start = (listShape: ListShape = 'data-cursor', credits = 1000) => startTriggerSandbox({ listShape, credits });

const event = { event: 'newDraft' };

describe.each(LIST_SHAPES)('New Draft (list shape %s)', (listShape) => {
	test('fires once per draft created after activation, by any route, over 80 polls; state bounded', async () => {
		await start(listShape);
		const { staticData, transport } = newTriggerNode();
		expect((await poll({ credentials, params: event, staticData, transport })).result).toBeNull();
		const existing = new Set(account().drafts.map((d) => d.id));
		const created: string[] = [];
		const fired: string[] = [];
		const rnd = mulberry32(11);
		let maxSize = 0;
		let quiet = 0;
		for (let round = 0; round < 80; round++) {
			sb.clock.advance(MINUTE * (1 + Math.floor(rnd() * 20)));
			const n = rnd() < 0.3 ? 0 : 1 + Math.floor(rnd() * 4);
			for (let i = 0; i < n; i++) {
				const route = rnd();
				if (route < 0.4) {
					// The API, sometimes scheduled: published by a later clock move (after this poll has seen it).
					const scheduledAt = rnd() < 0.5 ? new Date(sb.clock.now() + 30 * MINUTE).toISOString() : undefined;
					created.push((await api('POST', '/drafts', { text: `API draft ${round}.${i}`, ...(scheduledAt ? { scheduledAt } : {}) })).id);
				} else if (route < 0.7) {
					created.push((await api('POST', '/generate', { prompt: `Generated ${round}.${i}` })).draftId);
				} else {
					created.push(sb.state.createDraft(DEFAULT_ACCOUNT_ID, `App draft ${round}.${i}`, null).id); // the application, same millisecond as the others
				}
			}
			transport.reset();
			const { items } = await poll({ credentials, params: event, staticData, transport });
			if (n === 0) {
				quiet++;
				expect(items).toEqual([]);
				expect(transport.requests).toHaveLength(1);
			}
			for (const item of items) {
				expect(item).toMatchObject({ id: item.draftId, status: expect.stringMatching(/^(draft|scheduled)$/) });
				if (item.status === 'scheduled') expect(item.scheduledAt).toMatch(/Z$/);
				else expect(item.scheduledAt).toBeNull();
			}
			fired.push(...items.map((i) => String(i.id)));
			expect([...fired].sort()).toEqual([...created].sort());
			maxSize = Math.max(maxSize, JSON.stringify(staticData).length);
		}
		expect(created.length).toBeGreaterThan(80);
		expect(created.some((id) => existing.has(id))).toBe(false);
		expect(new Set(fired).size).toBe(fired.length);
		expect(quiet).toBeGreaterThan(5);
		expect(account().posts.some((p) => p.draftId !== null && created.includes(p.draftId))).toBe(true); // some were published since
		expect(maxSize).toBeLessThan(4096);
	}, 60_000);
});

describe('New Draft', () => {
	test('a burst of 450 drafts between two polls is read page by page and fires once each, oldest first', async () => {
		await start();
		const staticData: IDataObject = {};
		await poll({ credentials, params: event, staticData });
		const ids: string[] = [];
		for (let i = 0; i < 450; i++) {
			sb.clock.advance(1000);
			ids.push(sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Burst ${i}`, null).id);
		}
		const transport = newTransport();
		const { items } = await poll({ credentials, params: event, staticData, transport });
		expect(items.map((i) => i.id)).toEqual(ids);
		expect(transport.requests).toHaveLength(5);
		expect((await poll({ credentials, params: event, staticData })).result).toBeNull();
	});

	test('a failed poll does not advance the state; the next good poll catches up', async () => {
		await start();
		const staticData: IDataObject = {};
		await poll({ credentials, params: event, staticData });
		const id = sb.state.createDraft(DEFAULT_ACCOUNT_ID, 'Kept for the next poll', null).id;
		const snapshot = JSON.stringify(staticData);
		await expect(poll({ credentials: { ...credentials, apiKey: sb.keys.expired }, params: event, staticData })).rejects.toBeInstanceOf(NodeApiError);
		sb.configure({ faults: { malformedNext: 1, routes: ['GET /drafts'] } });
		expect((await poll({ credentials, params: event, staticData })).result).toBeNull();
		expect(JSON.stringify(staticData)).toBe(snapshot);
		sb.resetFaults();
		expect((await poll({ credentials, params: event, staticData })).items.map((i) => i.id)).toEqual([id]);
	});

	test('Fetch Test Event: the newest draft, state untouched; or a clear message', async () => {
		await start();
		const staticData: IDataObject = {};
		sb.clock.advance(MINUTE);
		const id = sb.state.createDraft(DEFAULT_ACCOUNT_ID, 'Newest', new Date(T0 + 3 * 86_400_000).toISOString()).id;
		const { items } = await poll({ credentials, params: event, staticData, mode: 'manual' });
		expect(items).toEqual([expect.objectContaining({ id, draftId: id, status: 'scheduled', scheduledAt: new Date(T0 + 3 * 86_400_000).toISOString() })]);
		expect(staticData).toEqual({});
		account().drafts = [];
		let error: any;
		try {
			await poll({ credentials, params: event, staticData, mode: 'manual' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('No draft yet: there is nothing to show as a test event');
	});
});
