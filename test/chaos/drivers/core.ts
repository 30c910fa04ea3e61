/**
 * The core driver: PostWriterClient over the axios transport (sdk/),
 * with the shared polling logic. It is what both platforms are built on.
 */
import { PostWriterClient, runGuided } from '../../../shared/client';
import { fetchCredits, fetchUpcoming, readDraftsSince, readPostsInWindow, readPostsSince, milestoneConfig, selectCreditsLow, selectMilestones, selectNewDrafts, selectNewPosts, selectUpcoming, type PostWatermarkState, type UpcomingState } from '../../../shared/triggers';
import type { CreditsLowState, MilestoneState, NewDraftState } from '../../../shared/triggers';
import { createAxiosSend, realSleep } from '../../../sdk';
import { record } from '../harness';
import type { ActionRun, Driver, DriverContext, Outcome, TriggerPoller } from './types';
import { upcomingFireKey } from './types';

const RETRY = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 2000, maxTotalWaitMs: 8000 };

/** The core's most calls at once in the chaos suite: the n8n node's maximum. */
const MAX_CONCURRENCY = 20;

function client(ctx: DriverContext): PostWriterClient {
	const key = ctx.key();
	const axiosSend = createAxiosSend(key);
	const events = ctx.events;
	const send: typeof axiosSend = events
		? async (request) => {
				events.push(`send ${request.method} ${new URL(request.url).pathname.replace(/^.*\/api\/v1/, '')}`);
				try {
					const response = await axiosSend(request);
					events.push(`answer ${response.status}`);
					return response;
				} catch (e) {
					events.push('answer none');
					throw e;
				}
			}
		: axiosSend;
	return new PostWriterClient({ baseUrl: ctx.baseUrl, send, sleep: realSleep, apiKey: key, retry: RETRY, timeoutMs: ctx.timeoutMs });
}

/** Items on one shared client (one pacing, one credit ledger), at most `concurrency` at once, outcomes in input order. */
async function parallel<T>(inputs: T[], concurrency: number, fn: (input: T) => Promise<unknown>): Promise<ActionRun> {
	const outcomes: Outcome[] = new Array<Outcome>(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const i = next++;
			try {
				const json = (await fn(inputs[i])) as Record<string, unknown>;
				record('output', json);
				outcomes[i] = { ok: true, json };
			} catch (e) {
				record('error', e);
				outcomes[i] = { ok: false, error: e instanceof Error ? e.message : String(e) };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
	return { outcomes };
}

async function each<T>(inputs: T[], fn: (input: T) => Promise<unknown>): Promise<ActionRun> {
	const outcomes: Outcome[] = [];
	for (const input of inputs) {
		try {
			const json = (await fn(input)) as Record<string, unknown>;
			record('output', json);
			outcomes.push({ ok: true, json });
		} catch (e) {
			record('error', e);
			outcomes.push({ ok: false, error: e instanceof Error ? e.message : String(e) });
		}
	}
	return { outcomes };
}

/** A poller over a pure state function: the state is saved (as JSON) only after a good poll. */
function statePoller<S>(poll: (state: S) => Promise<{ fired: string[]; records: unknown[]; state: S }>): TriggerPoller {
	let saved = '{}';
	return {
		async poll() {
			try {
				const next = await poll(JSON.parse(saved) as S);
				saved = JSON.stringify(next.state);
				for (const r of next.records) record('fire', r);
				return { fired: next.fired };
			} catch (e) {
				record('error(poll)', e);
				return { error: e instanceof Error ? e.message : String(e) };
			}
		},
		stateBytes: () => Buffer.byteLength(saved),
	};
}

export const coreDriver: Driver = {
	milestoneTrigger: (ctx, threshold) =>
		statePoller<MilestoneState>(async (state) => {
			const config = milestoneConfig({ metric: 'likes', threshold, watchDays: 7 });
			const now = Date.now();
			const { records } = await readPostsInWindow(client(ctx), config, now, { pageSize: 10 });
			const next = selectMilestones(records, state, config, now);
			return { fired: next.fresh.map((c) => c.id), records: next.fresh.map((c) => c.record), state: next.state };
		}),
	newDraftTrigger: (ctx) =>
		statePoller<NewDraftState>(async (state) => {
			const { records } = await readDraftsSince(client(ctx), state, { pageSize: 10 });
			const next = selectNewDrafts(records, state);
			return { fired: next.fresh.map((d) => d.id), records: next.fresh.map((d) => d.record), state: next.state };
		}),
	creditsLowTrigger: (ctx, threshold) =>
		statePoller<CreditsLowState>(async (state) => {
			const next = selectCreditsLow(await fetchCredits(client(ctx)), state, threshold, Date.now());
			return { fired: next.fresh.map((e) => e.id), records: next.fresh, state: next.state };
		}),
	name: 'core',
	skipReason: () => undefined,
	maxConcurrency: MAX_CONCURRENCY,
	generate: (ctx, prompts, options) => {
		if (options?.concurrency === undefined && options?.minCreditsToKeep === undefined) return each(prompts, (prompt) => client(ctx).generatePost({ prompt }));
		const shared = client(ctx);
		return parallel(prompts, options.concurrency ?? 1, (prompt) => shared.generatePost({ prompt }, { minCreditsToKeep: options.minCreditsToKeep }));
	},
	listDrafts: (ctx, count) => each(Array.from({ length: count }, (_, i) => i), async () => ({ drafts: await client(ctx).listDrafts({}, { limit: 5 }) })),
	guided: (ctx, topics) => each(topics, (topic) => runGuided(client(ctx), { topic }, { retry: RETRY })),
	newPostTrigger(ctx): TriggerPoller {
		let saved = '{}';
		return {
			async poll() {
				const state = JSON.parse(saved) as PostWatermarkState;
				try {
					const { records } = await readPostsSince(client(ctx), state, { pageSize: 10 });
					const next = selectNewPosts(records, state);
					saved = JSON.stringify(next.state);
					for (const r of next.fresh) record('fire', r);
					return { fired: next.fresh.map((r) => String(r.id)) };
				} catch (e) {
					record('error(poll)', e);
					return { error: e instanceof Error ? e.message : String(e) };
				}
			},
			stateBytes: () => Buffer.byteLength(saved),
		};
	},
	upcomingTrigger(ctx, lookaheadMinutes): TriggerPoller {
		let saved = '{}';
		const lookahead = lookaheadMinutes * 60_000;
		return {
			async poll() {
				const state = JSON.parse(saved) as UpcomingState;
				const now = Date.now();
				try {
					const entries = await fetchUpcoming(client(ctx), now, lookahead);
					const next = selectUpcoming(entries, state, now, lookahead);
					saved = JSON.stringify(next.state);
					for (const r of next.fresh) record('fire', r);
					return { fired: next.fresh.map((e) => upcomingFireKey(e as unknown as Record<string, unknown>)) };
				} catch (e) {
					record('error(poll)', e);
					return { error: e instanceof Error ? e.message : String(e) };
				}
			},
			stateBytes: () => Buffer.byteLength(saved),
		};
	},
};
