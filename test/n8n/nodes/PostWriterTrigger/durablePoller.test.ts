/**
 * Post Writer Trigger under n8n's durable poller (2.36+, opt-in in 2.41 with
 * N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE and N8N_POLLER_DURABLE_CURSORS_ENABLED).
 *
 * The fake below does what n8n 2.41 does (trigger-execution-context.factory.js,
 * poll-trigger-executor.js, poll-trigger-task-handler.js):
 *   - each poll gets a deep copy of the stored cursor as its static data;
 *   - a poll that returns items commits its copy with the execution;
 *   - a scheduled poll that returns null commits its copy (`__commitCursor`);
 *   - the poll n8n runs when it activates the workflow is a test: its copy is
 *     dropped unless the node commits it itself.
 * Events that happen between the activation and the first scheduled poll
 * must fire once, as under the classic poller.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID } from '../../../../sandbox';
import { MINUTE, account, credentials, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';

beforeEach(async () => {
	await startTriggerSandbox();
});

/** n8n 2.41's durable cursor for one trigger node. */
class DurableCursor {
	stored: IDataObject = {};
	commits = 0;

	/** One poll: `test` is the activation poll, whose staged cursor n8n does not commit itself. */
	async poll(params: IDataObject, test = false) {
		const snapshot = structuredClone(this.stored);
		const seed = JSON.stringify(snapshot);
		const commit = async () => {
			if (JSON.stringify(snapshot) === seed) return;
			this.stored = structuredClone(snapshot);
			this.commits++;
		};
		const run = await poll({ credentials, params, staticData: snapshot, extra: { __commitCursor: commit } });
		// With items: committed with the execution (also for the activation poll). Without: only a scheduled poll commits.
		if (run.result !== null || !test) await commit();
		return run.items;
	}
}


function publishNow(text: string): string {
	sb.state.createDraft(DEFAULT_ACCOUNT_ID, text, new Date(sb.clock.now() - 1000).toISOString());
	const published = sb.publishDue();
	return published[published.length - 1].id;
}

describe('durable poller: what happens between activation and the first scheduled poll fires once', () => {
	test('New Published Post', async () => {
		const cursor = new DurableCursor();
		const params = { event: 'newPublishedPost' };
		expect(await cursor.poll(params, true)).toEqual([]);
		expect(cursor.stored).toMatchObject({ newPublishedPost: { initialised: true } });
		sb.clock.advance(10_000);
		const id = publishNow('Published right after the activation.');
		sb.clock.advance(MINUTE);
		expect((await cursor.poll(params)).map((p) => p.id)).toEqual([id]);
		sb.clock.advance(MINUTE);
		expect(await cursor.poll(params)).toEqual([]);
		const later = publishNow('Published later.');
		sb.clock.advance(MINUTE);
		expect((await cursor.poll(params)).map((p) => p.id)).toEqual([later]);
		expect(await cursor.poll(params)).toEqual([]);
	});

	test('Post Metric Milestone', async () => {
		const cursor = new DurableCursor();
		const params = { event: 'postMetricMilestone', metric: 'likes', threshold: 100000, withinDays: 7 };
		expect(await cursor.poll(params, true)).toEqual([]);
		const recent = account().posts.filter((p) => Date.parse(p.publishedAt) > sb.clock.now() - 6 * 86_400_000);
		sb.state.setMetrics(DEFAULT_ACCOUNT_ID, recent[0].id, { likes: 100007 });
		sb.clock.advance(MINUTE);
		expect((await cursor.poll(params)).map((p) => p.id)).toEqual([`${recent[0].id}:likes:100000`]);
		sb.clock.advance(MINUTE);
		expect(await cursor.poll(params)).toEqual([]);
	});

	test('Upcoming Scheduled Draft: once per scheduled time, again after a reschedule', async () => {
		const cursor = new DurableCursor();
		const params = { event: 'upcomingScheduledDraft', notifyAmount: 2, notifyUnit: 'hours' };
		const before = await cursor.poll(params, true);
		const draft = sb.state.createDraft(DEFAULT_ACCOUNT_ID, 'Soon.', new Date(sb.clock.now() + 30 * MINUTE).toISOString());
		sb.clock.advance(MINUTE);
		expect((await cursor.poll(params)).map((e) => e.draftId)).toEqual([draft.id]);
		sb.clock.advance(MINUTE);
		expect(await cursor.poll(params)).toEqual([]);
		draft.scheduledAt = new Date(sb.clock.now() + 45 * MINUTE).toISOString();
		sb.clock.advance(MINUTE);
		expect((await cursor.poll(params)).map((e) => [e.draftId, e.scheduledAt])).toEqual([[draft.id, draft.scheduledAt]]);
		expect(await cursor.poll(params)).toEqual([]);
		expect(before.map((e) => e.draftId)).not.toContain(draft.id);
	});

	test('a quiet scheduled poll writes nothing; the seed is written once', async () => {
		const cursor = new DurableCursor();
		const params = { event: 'newPublishedPost' };
		await cursor.poll(params, true);
		expect(cursor.commits).toBe(1);
		for (let i = 0; i < 3; i++) {
			sb.clock.advance(MINUTE);
			await cursor.poll(params);
		}
		expect(cursor.commits).toBe(1);
	});
});

test('classic poller (no __commitCursor, the static data itself persisted): unchanged', async () => {
	const staticData: IDataObject = {};
	const params = { event: 'newPublishedPost' };
	expect((await poll({ credentials, params, staticData })).items).toEqual([]);
	const id = publishNow('Published after the activation.');
	sb.clock.advance(MINUTE);
	expect((await poll({ credentials, params, staticData })).items.map((p) => p.id)).toEqual([id]);
	expect((await poll({ credentials, params, staticData })).items).toEqual([]);
});

test('Fetch Test Event (manual) never commits a cursor', async () => {
	const commit = jest.fn(async () => undefined);
	publishNow('A post to show.');
	const run = await poll({ credentials, params: { event: 'newPublishedPost' }, staticData: {}, mode: 'manual', extra: { __commitCursor: commit } });
	expect(run.items).toHaveLength(1);
	expect(commit).not.toHaveBeenCalled();
});

describe("n8n's poll budget (getPollBudgetMs, 2.36+)", () => {
	test('a poll out of time sends nothing, keeps its state and warns; the next poll with time catches up', async () => {
		const staticData: IDataObject = {};
		const params = { event: 'newPublishedPost' };
		await poll({ credentials, params, staticData });
		const before = structuredClone(staticData);
		const id = publishNow('Published while a poll is short of time.');
		const calls = sb.stats.requests;
		const starved = await poll({ credentials, params, staticData, extra: { getPollBudgetMs: () => 10 } });
		expect(starved.result).toBeNull();
		expect(sb.stats.requests).toBe(calls);
		expect(staticData).toEqual(before);
		expect(starved.logs.map((l) => l.message).join('\n')).toMatch(/time allowed for this run.*nothing was skipped/is);
		const next = await poll({ credentials, params, staticData, extra: { getPollBudgetMs: () => 36_000 } });
		expect(next.items.map((p) => p.id)).toEqual([id]);
	});

	test('the first poll out of time is an error that says so', async () => {
		await expect(poll({ credentials, params: { event: 'newPublishedPost' }, staticData: {}, extra: { getPollBudgetMs: () => 10 } })).rejects.toThrow(/time allowed/i);
	});
});

test('a cursor commit that fails does not fail the poll: a warning says so', async () => {
	const commit = jest.fn(async () => {
		throw new Error('database is locked');
	});
	const run = await poll({ credentials, params: { event: 'newPublishedPost' }, staticData: {}, extra: { __commitCursor: commit } });
	expect(run.result).toBeNull();
	expect(commit).toHaveBeenCalledTimes(1);
	expect(run.logs.map((l) => `${l.level} ${l.message}`).join('\n')).toMatch(/warn .*could not save where the trigger starts \(database is locked\)/);
});
