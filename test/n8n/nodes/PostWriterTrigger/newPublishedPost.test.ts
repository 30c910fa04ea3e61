/**
 * Post Writer Trigger, New Published Post: many successive polls against the
 * sandbox with the static data persisted between them, as n8n does.
 * Posts are published by scheduling drafts at chosen times on the sandbox
 * clock (the sandbox publishes a due draft with publishedAt = its time).
 * 10,000 posts: newPublishedPost.soak.test.ts (npm run test:soak).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, mulberry32 } from '../../../../sandbox';
import type { ListShape, SandboxOptions } from '../../../../sandbox';
import { MINUTE, T0, LIST_SHAPES, account, credentials, newTransport, newTriggerNode, poll, sb, sleeps, startTriggerSandbox } from '../../helpers/trigger-sandbox';
import { MAX_PAGES, PAGE_SIZE } from '../../../../n8n/nodes/PostWriterTrigger/poll';

const start = (listShape: ListShape = 'data-cursor', seedData = true, more: Partial<SandboxOptions> = {}) => startTriggerSandbox({ listShape, seedData, ...more });

/** A seeded pseudo-random source, so that runs repeat. */
const random = mulberry32;

/** Publishes one post per time given (times at or before the sandbox clock). */
function publishAt(times: number[]): void {
	for (const t of times) sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Post at ${new Date(t).toISOString()}`, new Date(t).toISOString());
	sb.publishDue();
}

const event = { event: 'newPublishedPost' };

describe.each(LIST_SHAPES)('New Published Post (list shape %s)', (listShape) => {
	test('fires once per post published after activation, never for older ones, over 80 polls', async () => {
		await start(listShape);
		const { staticData, transport } = newTriggerNode();
		const first = await poll({ credentials, params: event, staticData, transport });
		expect(first.result).toBeNull();
		expect(transport.requests).toHaveLength(1);
		const existing = new Set(account().posts.map((p) => p.id));
		expect(existing.size).toBeGreaterThan(0);

		const rnd = random(7);
		const fired: string[] = [];
		let steadyPolls = 0;
		for (let round = 0; round < 80; round++) {
			const before = sb.clock.now();
			sb.clock.advance(MINUTE * (1 + Math.floor(rnd() * 30)));
			const now = sb.clock.now();
			const count = rnd() < 0.35 ? 0 : 1 + Math.floor(rnd() * 6);
			const times: number[] = [];
			for (let i = 0; i < count; i++) times.push(before + 1 + Math.floor(rnd() * (now - before)));
			if (count > 1 && rnd() < 0.5) times.push(times[0]); // two posts at the same millisecond
			if (round % 9 === 4) {
				// A post at exactly the watermark, appearing after the poll that set it.
				const state = staticData.newPublishedPost as { watermark?: string };
				if (state.watermark) times.push(Date.parse(state.watermark));
			}
			const postsBefore = account().posts.length;
			publishAt(times);
			transport.reset();
			const { items } = await poll({ credentials, params: event, staticData, transport });
			fired.push(...items.map((i) => String(i.id)));
			if (account().posts.length === postsBefore) {
				steadyPolls++;
				expect(items).toEqual([]);
				expect(transport.requests).toHaveLength(1);
			}
			// Items come oldest first.
			const at = items.map((i) => Date.parse(String(i.publishedAt)));
			expect([...at].sort((a, b) => a - b)).toEqual(at);
		}
		const expected = account()
			.posts.filter((p) => !existing.has(p.id))
			.map((p) => p.id);
		expect(expected.length).toBeGreaterThan(100);
		expect(steadyPolls).toBeGreaterThan(10);
		expect(new Set(fired).size).toBe(fired.length); // no duplicate
		expect([...fired].sort()).toEqual([...expected].sort()); // no miss, nothing older
	});
});

describe.each(LIST_SHAPES)('New Published Post, /posts oldest first (list shape %s)', (listShape) => {
	test('no duplicate and no miss over 60 polls; a quiet poll reads the whole list, a bounded number of requests', async () => {
		await start(listShape, true, { listOrder: 'oldest-first', seedPosts: 150 });
		const { staticData, transport } = newTriggerNode();
		await poll({ credentials, params: event, staticData, transport });
		const pages = (n: number) => (listShape === 'bare' ? 1 : Math.ceil(n / PAGE_SIZE));
		expect(transport.requests).toHaveLength(pages(150));
		// The watermark is the newest post, not the newest of the first page.
		const newest = [...account().posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))[0];
		expect((staticData.newPublishedPost as { watermark: string }).watermark).toBe(newest.publishedAt);
		const existing = new Set(account().posts.map((p) => p.id));

		const rnd = random(19);
		const fired: string[] = [];
		const quiet: number[] = [];
		for (let round = 0; round < 60; round++) {
			const before = sb.clock.now();
			sb.clock.advance(MINUTE * (1 + Math.floor(rnd() * 30)));
			const count = rnd() < 0.35 ? 0 : 1 + Math.floor(rnd() * 6);
			const times: number[] = [];
			for (let i = 0; i < count; i++) times.push(before + 1 + Math.floor(rnd() * (sb.clock.now() - before)));
			if (count > 1 && rnd() < 0.5) times.push(times[0]);
			if (round % 9 === 4) times.push(Date.parse((staticData.newPublishedPost as { watermark: string }).watermark));
			publishAt(times);
			transport.reset();
			const { items } = await poll({ credentials, params: event, staticData, transport });
			fired.push(...items.map((i) => String(i.id)));
			if (times.length === 0) {
				expect(items).toEqual([]);
				quiet.push(transport.requests.length);
			}
			expect(transport.requests.length).toBe(pages(account().posts.length));
			const at = items.map((i) => Date.parse(String(i.publishedAt)));
			expect([...at].sort((a, b) => a - b)).toEqual(at);
		}
		const expected = account()
			.posts.filter((p) => !existing.has(p.id))
			.map((p) => p.id);
		expect(expected.length).toBeGreaterThan(80);
		expect(new Set(fired).size).toBe(fired.length);
		expect([...fired].sort()).toEqual([...expected].sort());
		expect(quiet.length).toBeGreaterThan(5);
		expect(Math.max(...quiet)).toBeLessThanOrEqual(MAX_PAGES);
		process.stdout.write(
			`n8n oldest first (${listShape}): ${account().posts.length} posts, a quiet poll made ${Math.min(...quiet)}..${Math.max(...quiet)} requests (pages of ${PAGE_SIZE}, at most ${MAX_PAGES})\n`,
		);
	});
});

describe('New Published Post', () => {
	test('Fetch Test Event on an oldest-first list returns the newest post', async () => {
		await start('data-cursor', true, { listOrder: 'oldest-first', seedPosts: 250 });
		const { items, transport } = await poll({ credentials, params: event, staticData: {}, mode: 'manual' });
		const newest = [...account().posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))[0];
		expect(items).toMatchObject([{ id: newest.id, publishedAt: newest.publishedAt }]);
		expect(transport.requests).toHaveLength(3);
	});

	test('a read cut by the cap on pages is logged (a burst beyond it, newest first)', async () => {
		await start('data-cursor', false);
		const staticData: IDataObject = {};
		await poll({ credentials, params: event, staticData });
		sb.clock.advance(60 * MINUTE);
		publishAt(Array.from({ length: PAGE_SIZE * MAX_PAGES + 20 }, (_, i) => T0 + 1 + i * 100));
		const logs: Array<{ level: string; message: string }> = [];
		const transport = newTransport();
		const { items } = await poll({ credentials, params: event, staticData, transport, logs });
		expect(transport.requests).toHaveLength(MAX_PAGES);
		expect(items).toHaveLength(PAGE_SIZE * MAX_PAGES);
		expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(/^Post Writer Trigger: more posts were published since the last poll than one poll reads \(10000 posts in 100 requests\); the oldest of them were not read and will not fire/),
		]);
	}, 60_000);

	test('a failed poll does not advance the state; the next good poll catches up', async () => {
		await start();
		const staticData: IDataObject = {};
		await poll({ credentials, params: event, staticData });
		sb.clock.advance(10 * MINUTE);
		publishAt([T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE]);
		const snapshot = JSON.stringify(staticData);

		// A refused key: an error for the user, state untouched.
		let error: any;
		try {
			await poll({ credentials: { ...credentials, apiKey: sb.keys.revoked }, params: event, staticData });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/^API key has been revoked/);
		expect(JSON.stringify(staticData)).toBe(snapshot);

		// A server failing after retries: logged, state untouched, no item.
		sb.configure({ faults: { errorRate: 1, errorStatuses: [503], routes: ['GET /posts'] } });
		const logs: Array<{ level: string; message: string }> = [];
		const failed = await poll({ credentials, params: event, staticData, logs });
		expect(failed.result).toBeNull();
		expect(sleeps.length).toBeGreaterThan(0);
		expect(logs.some((l) => l.level === 'warn' && /Service Unavailable|could not be completed by the service/.test(l.message) && /nothing was skipped/.test(l.message))).toBe(
			true,
		);
		expect(JSON.stringify(staticData)).toBe(snapshot);

		// A response cut off mid-JSON: same.
		sb.resetFaults();
		sb.configure({ faults: { malformedNext: 1, routes: ['GET /posts'] } });
		expect((await poll({ credentials, params: event, staticData })).result).toBeNull();
		expect(JSON.stringify(staticData)).toBe(snapshot);

		sb.resetFaults();
		const good = await poll({ credentials, params: event, staticData });
		expect(good.items.map((i) => i.publishedAt)).toEqual([1, 2, 3].map((m) => new Date(T0 + m * MINUTE).toISOString()));
		expect(JSON.stringify(staticData)).not.toBe(snapshot);
		expect((await poll({ credentials, params: event, staticData })).result).toBeNull();
	});

	test('the very first poll reports any error (nothing to fall back on)', async () => {
		await start();
		sb.configure({ faults: { errorRate: 1, errorStatuses: [500], routes: ['GET /posts'] } });
		const staticData: IDataObject = {};
		await expect(poll({ credentials, params: event, staticData })).rejects.toBeInstanceOf(NodeApiError);
		expect(staticData).toEqual({});
	});

	test('Fetch Test Event returns the latest post without touching the state', async () => {
		await start();
		const staticData: IDataObject = {};
		const { items, transport } = await poll({ credentials, params: event, staticData, mode: 'manual' });
		const newest = [...account().posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))[0];
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ id: newest.id, publishedAt: newest.publishedAt });
		expect(transport.requests).toHaveLength(1);
		expect(staticData).toEqual({});
		// And it does not disturb an active state either.
		await poll({ credentials, params: event, staticData });
		const snapshot = JSON.stringify(staticData);
		sb.clock.advance(MINUTE);
		publishAt([T0 + 30_000]);
		const manual = await poll({ credentials, params: event, staticData, mode: 'manual' });
		expect(manual.items[0].publishedAt).toBe(new Date(T0 + 30_000).toISOString());
		expect(JSON.stringify(staticData)).toBe(snapshot);
		expect((await poll({ credentials, params: event, staticData })).items).toHaveLength(1);
	});

	test('Fetch Test Event with no post gives a clear message', async () => {
		await start('data-cursor', false);
		sb.state.account(DEFAULT_ACCOUNT_ID).posts = [];
		let error: any;
		try {
			await poll({ credentials, params: event, staticData: {}, mode: 'manual' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^No published post yet/);
		expect(error.description).toMatch(/Publish a post/);
	});
});
