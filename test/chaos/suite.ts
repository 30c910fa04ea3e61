/**
 * The chaos matrix, run once per platform driver: every fault class of the
 * sandbox through an action (Generate, 4 items; Get Many Drafts; Create Post
 * (Guided)) and through the five trigger events over successive polls with
 * persisted state. For each: items in = items out or a clear per-item error; 0 duplicate
 * and 0 missed trigger fires; credits spent = calls that were charged.
 *
 * Faults are aimed at one request (the n-th to a route) through the sandbox's
 * fault injection, before or after the call was handled (and charged).
 * WORKFLOW_BUSY is injected by marking each new creation workflow busy in the
 * sandbox state for 300 ms; it only exists on creation routes, so the
 * triggers (GET /posts, /calendar, /drafts, /credits) have no WORKFLOW_BUSY
 * case. Credits Low skips the "credits exhausted" case: a balance set to 0 is
 * the very event it watches. A revoked
 * key is revoked in the sandbox state mid-run; for the triggers the user then
 * replaces it, and the next poll must catch up without a miss.
 */
import type { FaultOptions, RetryHeader } from '../../sandbox/server';
import { CREDITS_THRESHOLD, MILESTONE_LIKES, startChaos, type Chaos } from './harness';
import type { ActionRun, Driver, DriverContext, PollResult, TriggerPoller } from './drivers/types';

const KEY_FORMAT = /pw_live_[0-9a-f]{32}/;
const N = 4;
const PROMPTS = Array.from({ length: N }, (_, i) => `Chaos prompt ${i + 1}: lessons from a failed launch`);
const GENERATE = 'POST /generate';

interface ActionCase {
	name: string;
	retryHeader?: RetryHeader;
	setup(c: Chaos, key: string): void;
	/** Indexes of the items that must end in a per-item error. */
	failed: number[];
	error?: RegExp;
	/** Expected sandbox creditsSpent (= charged calls). */
	credits: number;
	/** Expected POST /generate requests (no paid call sent twice after an ambiguous failure). */
	requests: number;
}

const burst = (n: number): FaultOptions => ({ burst429: n, burstRetryAfterSec: 1 });

function ambiguousCases(): ActionCase[] {
	const out: ActionCase[] = [];
	const kinds: Array<[string, FaultOptions, RegExp]> = [
		['500', { errorRate: 1, errorStatuses: [500] }, /500|service side/i],
		['502', { errorRate: 1, errorStatuses: [502] }, /502|service side/i],
		['503', { errorRate: 1, errorStatuses: [503] }, /503|service side/i],
		['connection reset', { resetNext: 1 }, /connection|reset|socket hang up/i],
		['timeout', { timeoutNext: 1 }, /time(d)?\s*out/i],
		['malformed JSON', { malformedNext: 1 }, /JSON|malformed|unreadable|not valid/i],
		['HTML error page', { htmlNext: 1 }, /HTML|502|Bad Gateway/i],
	];
	for (const [name, faults, error] of kinds) {
		out.push({
			name: `${name} (before the call is handled: nothing charged)`,
			setup: (c) => c.faultNth(GENERATE, 2, faults),
			failed: [1],
			error,
			credits: N - 1,
			requests: N,
		});
		out.push({
			name: `${name} (after the call was handled and charged: ambiguous, never resent)`,
			setup: (c) => c.faultNth(GENERATE, 2, { ...faults, faultAfterHandling: true }),
			failed: [1],
			error,
			credits: N,
			requests: N,
		});
	}
	return out;
}

const ACTION_CASES: ActionCase[] = [
	...(['seconds', 'http-date', 'reset'] as const).map(
		(h): ActionCase => ({
			name: `429 burst, delay as ${h === 'reset' ? 'X-RateLimit-Reset only' : `Retry-After ${h}`}`,
			retryHeader: h,
			setup: (c) => c.faultNth(GENERATE, 2, burst(1)),
			failed: [],
			credits: N,
			requests: N + 1,
		}),
	),
	...ambiguousCases(),
	{
		name: 'key revoked mid-run (after the 2nd item)',
		setup: (c, key) => c.afterAnswer(GENERATE, '200', 2, () => c.revoke(key)),
		failed: [2, 3],
		error: /revoked[\s\S]*new key/i,
		credits: 2,
		requests: N,
	},
	{
		name: 'credits exhausted mid-run (balance 2 for 4 items)',
		setup: (c) => c.setCredits(2),
		failed: [2, 3],
		error: /credit/i,
		credits: 2,
		requests: N,
	},
];

function noKeyIn(texts: Array<string | undefined>, key: string): void {
	for (const t of texts) {
		if (t === undefined) continue;
		expect(t).not.toContain(key);
		expect(t).not.toMatch(KEY_FORMAT);
	}
}

function expectItems(run: ActionRun, count: number, failed: number[], error?: RegExp): void {
	expect(run.thrown).toBeUndefined();
	expect(run.outcomes).toHaveLength(count);
	run.outcomes.forEach((o, i) => {
		if (failed.includes(i)) {
			expect({ i, ok: o.ok }).toEqual({ i, ok: false });
			expect(o.error).toBeTruthy();
			if (error) expect(o.error).toMatch(error);
		} else {
			expect({ i, ok: o.ok, error: o.error }).toEqual({ i, ok: true, error: undefined });
		}
	});
}

interface TriggerCase {
	name: string;
	retryHeader?: RetryHeader;
	/** Before the poll of round `round` (1 or 2). */
	before(c: Chaos, route: string, round: number, swapKey: (k: string) => void): void;
	/** Round(s) whose poll must fail with this message: the user must be told. */
	mustFail?: { rounds: number[]; error: RegExp };
	/** Round(s) whose poll must fire nothing: it failed, loudly (an error) or quietly (a logged warning, n8n's choice for transient faults). */
	quiet?: number[];
}

const TRIGGER_CASES: TriggerCase[] = [
	...(['seconds', 'http-date', 'reset'] as const).map(
		(h): TriggerCase => ({
			name: `429 burst, delay as ${h === 'reset' ? 'X-RateLimit-Reset only' : `Retry-After ${h}`}`,
			retryHeader: h,
			before: (c, route, round) => {
				if (round === 1) c.faultNth(route, 1, burst(1));
			},
		}),
	),
	...[500, 502, 503].map(
		(s): TriggerCase => ({
			name: `${s} on the poll request`,
			before: (c, route) => c.faultNth(route, 1, { errorRate: 1, errorStatuses: [s] }),
		}),
	),
	{ name: 'connection reset', before: (c, route) => c.faultNth(route, 1, { resetNext: 1 }) },
	{ name: 'timeout', before: (c, route, round) => round === 1 && c.faultNth(route, 1, { timeoutNext: 1 }) },
	{
		name: 'malformed JSON (not retried: the poll fails and the next one catches up)',
		before: (c, route, round) => round === 1 && c.faultNth(route, 1, { malformedNext: 1 }),
		quiet: [1],
	},
	{ name: 'HTML error page', before: (c, route, round) => round === 1 && c.faultNth(route, 1, { htmlNext: 1 }) },
	{
		name: 'key revoked mid-run, then replaced by the user',
		before: (c, _route, round, swapKey) => {
			if (round === 1) c.revoke(c.sb.keys.full);
			if (round === 3) swapKey(c.newKey('replacement'));
		},
		mustFail: { rounds: [1, 2], error: /revoked[\s\S]*new key/i },
	},
	{
		name: 'credits exhausted (reads are free: polling goes on)',
		before: (c, _route, round) => round === 1 && c.setCredits(0),
	},
];

function firedOf(results: PollResult[]): string[] {
	return results.flatMap((r) => ('fired' in r ? r.fired : []));
}

function duplicates(list: string[]): string[] {
	const seen = new Set<string>();
	return list.filter((x) => (seen.has(x) ? true : (seen.add(x), false)));
}

/** Starts a chaos sandbox per test and gives the driver context; for driver-specific tests next to the matrix. */
export function chaosContext(seed: string) {
	const handle: { chaos: Chaos; key: string; ctx: () => DriverContext } = {
		chaos: undefined as unknown as Chaos,
		key: '',
		ctx: () => ({ baseUrl: handle.chaos.sb.baseUrl, key: () => handle.key, timeoutMs: 1500 }),
	};
	beforeEach(async () => {
		handle.chaos = await startChaos(seed);
		handle.key = handle.chaos.sb.keys.full;
	});
	afterEach(async () => {
		await handle.chaos.close();
	});
	return handle;
}

export { PROMPTS, GENERATE, noKeyIn };

export function chaosSuite(driver: Driver, seed: string): void {
	const reason = driver.skipReason();
	if (reason) {
		test.todo(`${driver.name}: chaos suite not run: ${reason}`);
		return;
	}
	describe(`${driver.name}: chaos matrix`, () => matrix(driver, seed));
}

function matrix(driver: Driver, seed: string): void {
	let chaos: Chaos;
	let key: string;
	const ctx = (): DriverContext => ({ baseUrl: chaos.sb.baseUrl, key: () => key, timeoutMs: 1500 });

	beforeEach(async () => {
		chaos = await startChaos(seed);
		key = chaos.sb.keys.full;
	});
	afterEach(async () => {
		await chaos.close();
	});

	describe(`${driver.name} action: Generate, ${N} items`, () => {
		test.each(ACTION_CASES.map((c) => [c.name, c] as const))('%s', async (_name, kase) => {
			if (kase.retryHeader) chaos.sb.configure({ retryHeader: kase.retryHeader });
			kase.setup(chaos, key);
			chaos.sb.resetStats();
			const run = await driver.generate(ctx(), PROMPTS, { continueOnFail: true });
			expectItems(run, N, kase.failed, kase.error);
			noKeyIn([run.thrown, ...run.outcomes.map((o) => o.error)], key);
			expect(chaos.sb.stats.byRoute[GENERATE]).toBe(kase.requests);
			expect(chaos.sb.stats.creditsSpent).toBe(kase.credits);
			expect(chaos.sb.stats.paidCalls).toBe(kase.credits);
			// Every successful item carries the balance it left.
			for (const o of run.outcomes.filter((x) => x.ok)) expect(typeof o.json?.creditsRemaining).toBe('number');
		});
	});

	describe(`${driver.name} action: Get Many Drafts (GET, retried)`, () => {
		test.each([
			['503', { errorRate: 1, errorStatuses: [503] }],
			['connection reset', { resetNext: 1 }],
			['timeout', { timeoutNext: 1 }],
			['HTML error page', { htmlNext: 1 }],
		] as const)('one %s is retried and the item succeeds', async (_n, faults) => {
			chaos.faultNth('GET /drafts', 1, faults as FaultOptions);
			const run = await driver.listDrafts(ctx(), 1);
			expectItems(run, 1, []);
			expect(chaos.count('GET /drafts')).toBeGreaterThanOrEqual(2);
		});
	});

	describe(`${driver.name} action: Create Guided Post`, () => {
		test('WORKFLOW_BUSY on every workflow is waited out; nothing is charged or saved', async () => {
			const drafts = chaos.sb.state.account('acc_1').drafts.length;
			const busy = chaos.injectBusy(300);
			const run = await driver.guided(ctx(), ['Why we write docs first', 'Hiring our first designer']);
			expectItems(run, 2, []);
			for (const o of run.outcomes) expect(typeof o.json?.text).toBe('string');
			expect(busy.injected).toBeGreaterThanOrEqual(2);
			expect(chaos.answers.filter((a) => a.path.startsWith('/creation/') && a.outcome === '409').length).toBeGreaterThanOrEqual(2);
			expect(chaos.sb.stats.creditsSpent).toBe(0);
			expect(chaos.sb.state.account('acc_1').drafts.length).toBe(drafts);
		});
	});

	/** Each trigger: the route it polls, its poller and how the sandbox makes `n` events for it. */
	const TRIGGERS: Record<string, { route: string; poller: () => TriggerPoller; produce: (n: number) => string[] }> = {
		'New Published Post': { route: 'GET /posts', poller: () => driver.newPostTrigger(ctx()), produce: (n) => chaos.publishPosts(n) },
		'Upcoming Scheduled Draft': { route: 'GET /calendar', poller: () => driver.upcomingTrigger(ctx(), 60), produce: (n) => chaos.scheduleDrafts(n, 20 * 60_000) },
		'Post Metric Milestone': { route: 'GET /posts', poller: () => driver.milestoneTrigger(ctx(), MILESTONE_LIKES), produce: (n) => chaos.reachMilestones(n) },
		'New Draft': { route: 'GET /drafts', poller: () => driver.newDraftTrigger(ctx()), produce: (n) => chaos.createDrafts(n) },
		'Credits Low': { route: 'GET /credits', poller: () => driver.creditsLowTrigger(ctx(), CREDITS_THRESHOLD), produce: (n) => chaos.creditFalls(n) },
	};
	for (const trigger of Object.keys(TRIGGERS)) {
		describe(`${driver.name} trigger: ${trigger}`, () => {
			const { route } = TRIGGERS[trigger];
			// Setting the balance to 0 is itself a fall below the threshold: not a fault for Credits Low.
			const cases = trigger === 'Credits Low' ? TRIGGER_CASES.filter((c) => !c.name.startsWith('credits exhausted')) : TRIGGER_CASES;
			test.each(cases.map((c) => [c.name, c] as const))('%s: every event fires exactly once', async (_name, kase) => {
				if (kase.retryHeader) chaos.sb.configure({ retryHeader: kase.retryHeader });
				const poller: TriggerPoller = TRIGGERS[trigger].poller();
				const produce = TRIGGERS[trigger].produce;

				const activation = await poller.poll();
				expect(activation).toEqual({ fired: [] }); // nothing that existed at activation fires
				const expected: string[] = [];
				const results: PollResult[] = [];
				for (const round of [1, 2, 3]) {
					expected.push(...produce(round === 3 ? 1 : 2));
					kase.before(chaos, route, round, (k) => {
						key = k;
					});
					const r = await poller.poll();
					results.push(r);
					chaos.clearFaults();
					if (kase.mustFail?.rounds.includes(round)) {
						expect(r).toEqual({ error: expect.stringMatching(kase.mustFail.error) });
					}
					if (kase.quiet?.includes(round)) {
						if ('error' in r) expect(r.error).toMatch(/JSON|malformed|unreadable|not valid/i);
						else expect(r.fired).toEqual([]);
					}
				}
				results.push(await poller.poll());
				const last = await poller.poll();
				results.push(last);
				expect(last).toEqual({ fired: [] });
				const fired = firedOf(results);
				expect(duplicates(fired)).toEqual([]);
				expect([...fired].sort()).toEqual([...expected].sort());
				noKeyIn(results.map((r) => ('error' in r ? r.error : undefined)), chaos.sb.keys.full);
				expect(chaos.sb.stats.creditsSpent).toBe(0);
			});
		});
	}
}
