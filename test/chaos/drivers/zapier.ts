/**
 * The Zapier driver: the app (zapier/src) through zapier-platform-core's
 * appTester (the copy in zapier/node_modules), with what Zapier itself does
 * around a step simulated:
 *   - a step that throws ThrottledError is replayed after its delay (as Zapier
 *     replays throttled steps), at most 3 times;
 *   - polling triggers go through Zapier's dedupe: the first poll only seeds
 *     the seen ids, then an id fires once.
 * Zapier's own request logging (LOG_TO_STDOUT, DETAILED_LOG_TO_STDOUT) is
 * turned on and captured into the secret-scan log: it prints every request
 * and response, headers included.
 *
 * One change to the app for bounded runs: a beforeRequest middleware caps each
 * request's timeout (20 s in the app) to the context's timeoutMs. A held
 * connection then ends in the same timeout error, sooner.
 */
import { App, details, zapier } from '../../zapier/helpers';
import { record, sleepReal } from '../harness';
import type { ActionRun, Driver, DriverContext, Outcome, PollResult, TriggerPoller } from './types';
import { upcomingFireKey } from './types';

type Obj = Record<string, unknown>;
/** Runs the app function at a dotted path ("creates.generatePost.operation.perform"). */
type AppTester = (method: string, bundle: Obj) => Promise<unknown>;

function at(app: Obj, path: string): unknown {
	const fn = path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Obj)[k] : undefined), app);
	if (typeof fn !== 'function') throw new Error(`no function at ${path} in the Zapier app`);
	return fn;
}

const testers = new Map<number, { app: Obj; run: AppTester }>();

/** A tester on the app with request timeouts capped at `timeoutMs` (one per cap). */
export function zapierTester(timeoutMs: number): { app: Obj; run: AppTester } {
	const known = testers.get(timeoutMs);
	if (known) return known;
	const app = App as unknown as Obj;
	const capTimeout = (request: Obj) => {
		if (typeof request.timeout !== 'number' || request.timeout > timeoutMs) request.timeout = timeoutMs;
		return request;
	};
	const capped = { ...app, beforeRequest: [...((app.beforeRequest as unknown[]) ?? []), capTimeout] };
	const tester = zapier.createAppTester(capped as never) as unknown as (fn: unknown, bundle: Obj) => Promise<unknown>;
	const run: AppTester = async (method, bundle) => {
		const saved = { log: console.log, env: { a: process.env.LOG_TO_STDOUT, b: process.env.DETAILED_LOG_TO_STDOUT } };
		process.env.LOG_TO_STDOUT = '1';
		process.env.DETAILED_LOG_TO_STDOUT = '1';
		console.log = (...args: unknown[]) => record('zapier-log', args.map(String).join(' '));
		try {
			return await tester(at(capped, method), bundle);
		} finally {
			console.log = saved.log;
			if (saved.env.a === undefined) delete process.env.LOG_TO_STDOUT;
			else process.env.LOG_TO_STDOUT = saved.env.a;
			if (saved.env.b === undefined) delete process.env.DETAILED_LOG_TO_STDOUT;
			else process.env.DETAILED_LOG_TO_STDOUT = saved.env.b;
		}
	};
	testers.set(timeoutMs, { app, run });
	return { app, run };
}

/** The text a Zapier user sees (zapier-platform-core errors carry JSON). */
export function zapierMessage(e: unknown): string {
	return e instanceof Error ? details(e).message : String(e);
}

export function throttleDelaySec(e: unknown): number | undefined {
	if (!(e instanceof Error) || e.name !== 'ThrottledError') return undefined;
	try {
		const d = (JSON.parse(e.message) as { delay?: unknown }).delay;
		return typeof d === 'number' ? d : undefined;
	} catch {
		return undefined;
	}
}

/** Runs a step as Zapier does: replays it after a ThrottledError's delay. */
export async function runStep(run: AppTester, method: string, bundle: Obj, maxReplays = 3): Promise<Outcome> {
	let throttled = 0;
	for (;;) {
		try {
			const json = (await run(method, bundle)) as Obj;
			record('output', json);
			return { ok: true, json, throttled };
		} catch (e) {
			record('error', e);
			const delay = throttleDelaySec(e);
			if (delay !== undefined && throttled < maxReplays) {
				throttled++;
				await sleepReal(delay * 1000);
				continue;
			}
			return { ok: false, error: zapierMessage(e), throttled };
		}
	}
}

function authData(ctx: DriverContext): Obj {
	return { apiKey: ctx.key(), baseUrl: ctx.baseUrl };
}

async function steps(ctx: DriverContext, method: string, inputs: Obj[]): Promise<ActionRun> {
	const { run } = zapierTester(ctx.timeoutMs);
	const outcomes: Outcome[] = [];
	for (const inputData of inputs) outcomes.push(await runStep(run, method, { authData: authData(ctx), inputData }));
	return { outcomes };
}

/** Zapier's dedupe: the first successful poll seeds the seen ids; then each new id fires once. */
function dedupePoller(ctx: DriverContext, method: string, inputData: Obj, keyOf: (item: Obj) => string): TriggerPoller {
	const seen = new Set<string>();
	let seeded = false;
	return {
		async poll(): Promise<PollResult> {
			const { run } = zapierTester(ctx.timeoutMs);
			try {
				const items = (await run(method, {
					authData: authData(ctx),
					inputData,
					meta: { isPopulatingDedupe: !seeded, timezone: 'Europe/Paris', limit: -1 },
				})) as Obj[];
				const fresh = items.filter((i) => !seen.has(String(i.id)));
				for (const i of items) seen.add(String(i.id));
				if (!seeded) {
					seeded = true;
					return { fired: [] };
				}
				for (const i of fresh) record('fire', i);
				return { fired: fresh.map(keyOf) };
			} catch (e) {
				record('error(poll)', e);
				return { error: zapierMessage(e) };
			}
		},
		stateBytes: () => Buffer.byteLength(JSON.stringify([...seen])),
	};
}

export const zapierDriver: Driver = {
	name: 'zapier',
	skipReason: () => undefined,
	generate: (ctx, prompts) => steps(ctx, 'creates.generatePost.operation.perform', prompts.map((prompt) => ({ prompt }))),
	listDrafts: (ctx, count) =>
		steps(
			ctx,
			'searches.listDrafts.operation.perform',
			Array.from({ length: count }, () => ({ status: 'draft' })),
		),
	guided: (ctx, topics) => steps(ctx, 'creates.createPostGuided.operation.perform', topics.map((topic) => ({ topic }))),
	newPostTrigger: (ctx) => dedupePoller(ctx, 'triggers.newPublishedPost.operation.perform', {}, (i) => String(i.id)),
	upcomingTrigger: (ctx, lookaheadMinutes) =>
		dedupePoller(ctx, 'triggers.upcomingScheduledDraft.operation.perform', { notifyBefore: String(lookaheadMinutes), notifyBeforeUnit: 'minutes' }, upcomingFireKey),
	milestoneTrigger: (ctx, threshold) =>
		dedupePoller(ctx, 'triggers.postMetricMilestone.operation.perform', { metric: 'likes', threshold: String(threshold), watchDays: '7' }, (i) => String(i.id)),
	newDraftTrigger: (ctx) => dedupePoller(ctx, 'triggers.newDraft.operation.perform', {}, (i) => String(i.id)),
	creditsLowTrigger: (ctx, threshold) => dedupePoller(ctx, 'triggers.creditsLow.operation.perform', { threshold: String(threshold) }, (i) => String(i.id)),
};
