/**
 * The chaos matrix, run once per platform driver: every fault class of the
 * sandbox through an action (Generate, 4 items; Get Many Drafts; Create Post
 * (Guided)) and through the five trigger events over successive polls with
 * persisted state. For each: items in = items out or a clear per-item error; 0 duplicate
 * and 0 missed trigger fires; credits spent = calls that were charged.
 *
 * Faults are aimed at one request (the n-th to a route) through the sandbox's
 * fault injection, before or after the call was handled (and charged). A
 * redirect fault points at another host (which must receive nothing) or at
 * the request's own address (followed).
 * WORKFLOW_BUSY is injected by marking each new creation workflow busy in the
 * sandbox state for 300 ms; it only exists on creation routes, so the
 * triggers (GET /posts, /calendar, /drafts, /credits) have no WORKFLOW_BUSY
 * case. Credits Low skips the "credits exhausted" case: a balance set to 0 is
 * the very event it watches. A revoked
 * key is revoked in the sandbox state mid-run; for the triggers the user then
 * replaces it, and the next poll must catch up without a miss.
 *
 * Drivers that run items in parallel (the n8n node, the core on one shared
 * client) run every action fault class again at their maximum concurrency,
 * with a credit floor set: items in = items out, credits = charged calls, no
 * paid call sent twice, the floor never crossed. Which item meets the fault
 * is then a race, so the faults are counted (the next request to arrive),
 * and the assertions count items rather than name them.
 */
import type { FaultOptions, RetryHeader } from '../../sandbox/server';
import { REDIRECT_STATUSES } from '../../shared/client';
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
	requests: number | ((driver: Driver) => number);
}

const burst = (n: number): FaultOptions => ({ burst429: n, burstRetryAfterSec: 1 });

const AMBIGUOUS_KINDS: Array<[string, FaultOptions, RegExp]> = [
		['500', { errorRate: 1, errorStatuses: [500] }, /500|service side/i],
		['502', { errorRate: 1, errorStatuses: [502] }, /502|service side/i],
		['503', { errorRate: 1, errorStatuses: [503] }, /503|service side/i],
		['connection reset', { resetNext: 1 }, /connection|reset|socket hang up/i],
		['timeout', { timeoutNext: 1 }, /time(d)?\s*out/i],
		['malformed JSON', { malformedNext: 1 }, /JSON|malformed|unreadable|not valid/i],
		['HTML error page', { htmlNext: 1 }, /HTML|502|Bad Gateway/i],
];

function ambiguousCases(): ActionCase[] {
	const out: ActionCase[] = [];
	for (const [name, faults, error] of AMBIGUOUS_KINDS) {
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

/** A redirect of the 2nd /generate: to another host it fails that item alone, uncharged; to its own address it is followed. */
function redirectCases(): ActionCase[] {
	return [...REDIRECT_STATUSES].flatMap((status): ActionCase[] => [
		{
			name: `redirect ${status} to another host (nothing sent there, nothing charged)`,
			setup: (c) => c.faultNth(GENERATE, 2, { redirectNext: 1, redirectStatus: status, redirectTo: c.elsewhere.origin }),
			failed: [1],
			error: new RegExp(`answered ${status} [A-Za-z ]+, pointing to http://localhost:\\d+/api/v1/generate`),
			credits: N - 1,
			requests: N,
		},
		// A 303 within the origin is followed with a GET, which /generate does not answer: a case of its own would test the sandbox.
		...(status === 303
			? []
			: [
					{
						name: `redirect ${status} to its own address (followed)`,
						setup: (c: Chaos) => c.faultNth(GENERATE, 2, { redirectNext: 1, redirectStatus: status, redirectTo: 'self' }),
						failed: [],
						credits: N,
						requests: N + 1,
					},
				]),
	]);
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
	...redirectCases(),
	{
		name: 'key revoked mid-run (after the 2nd item)',
		setup: (c, key) => c.afterAnswer(GENERATE, '200', 2, () => c.revoke(key)),
		failed: [2, 3],
		error: /revoked[\s\S]*new key/i,
		credits: 2,
		// One client per run: nothing is sent after the first 401 (the 4th item fails at once with its message).
		requests: (driver) => (driver.oneClientPerRun ? N - 1 : N),
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
	...[...REDIRECT_STATUSES].flatMap((status): TriggerCase[] => [
		{
			name: `redirect ${status} to another host (the poll fails and says so; the next one catches up)`,
			before: (c, route, round) => round === 1 && c.faultNth(route, 1, { redirectNext: 1, redirectStatus: status, redirectTo: c.elsewhere.origin }),
			mustFail: { rounds: [1], error: new RegExp(`answered ${status} [A-Za-z ]+, pointing to http://localhost`) },
		},
		{
			name: `redirect ${status} to its own address (followed)`,
			before: (c, route, round) => round === 1 && c.faultNth(route, 1, { redirectNext: 1, redirectStatus: status, redirectTo: 'self' }),
		},
	]),
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

/**
 * A step replayed after an ambiguous failure: the SDK's caller or Zapier
 * (Replay, autoreplay) sends it again as one new call, for one item. Neither
 * keeps a memory between calls (only the n8n node does, within its process),
 * so the replay may be charged once more: one extra charge at most, for that
 * item alone, and docs/paid-calls.md says no more.
 */
export function replayCase(driver: Driver, seed: string): void {
	if (driver.skipReason()) return;
	describe(`${driver.name}: a step replayed after an ambiguous failure`, () => {
		const h = chaosContext(seed);
		test.each(AMBIGUOUS_KINDS.filter(([name]) => ['502', 'timeout'].includes(name)))(
			'%s after the charge, then one replay: the prompt charged twice at most, one request per call, no other prompt charged',
			async (_name, faults) => {
				const c = h.chaos;
				const [prompt, other] = PROMPTS;
				c.faultNth(GENERATE, 1, { ...faults, faultAfterHandling: true });
				c.sb.resetStats();
				const failed = await driver.generate(h.ctx(), [prompt], { continueOnFail: true });
				expect(failed.outcomes.map((o) => o.ok)).toEqual([false]);
				expect(failed.outcomes[0].error).toMatch(/may already have been carried out|may have received it|charged/i);
				c.clearFaults();
				const replayed = await driver.generate(h.ctx(), [prompt], { continueOnFail: true });
				expect(replayed.outcomes.map((o) => o.ok)).toEqual([true]);
				// Each call sent its request once: the client never resends a paid call itself.
				expect(c.sb.stats.byRoute[GENERATE]).toBe(2);
				expect(c.sb.stats.chargesByInput).toEqual({ [`generate:${prompt}`]: 2 });
				expect(c.sb.stats.chargesByInput[`generate:${other}`]).toBeUndefined();
			},
		);
	});
}

/**
 * The matrix runs on a paging convention other than the sandbox's default:
 * `{object: 'list', data, has_more}` paged by `starting_after=<last id>`, with
 * pages of at most 20 (below the 50 or 100 the platforms ask for).
 */
export const CHAOS_PAGING = { listShape: 'keyset', listPageMax: 20 } as const;

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
		chaos = await startChaos(seed, CHAOS_PAGING);
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
			expect(chaos.sb.stats.byRoute[GENERATE]).toBe(typeof kase.requests === 'function' ? kase.requests(driver) : kase.requests);
			expect(chaos.sb.stats.creditsSpent).toBe(kase.credits);
			expect(chaos.sb.stats.paidCalls).toBe(kase.credits);
			expect(chaos.elsewhere.requests).toEqual([]);
			// Every successful item carries the balance it left.
			for (const o of run.outcomes.filter((x) => x.ok)) expect(typeof o.json?.creditsRemaining).toBe('number');
		});
	});

	if (driver.maxConcurrency !== undefined) concurrentCases(driver, driver.maxConcurrency, ctx, () => chaos, () => key);

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
				expect(chaos.elsewhere.requests).toEqual([]);
			});
		});
	}
}

// ---------------------------------------------------------------------------
// The action at the maximum concurrency

/** Items per concurrent case: all in flight at once at the maximum concurrency. */
const NC = 12;
const PROMPTS_C = Array.from({ length: NC }, (_, i) => `Chaos prompt ${i + 1} at full concurrency`);
/** The credit floor set in every concurrent case (the balance starts at NC + FLOOR: every item may be paid for). */
const FLOOR = 2;

interface ConcurrentCase {
	name: string;
	retryHeader?: RetryHeader;
	setup(c: Chaos, key: string): void;
	/** Items that must fail (a number, or any number). */
	failed: number | 'any';
	error?: RegExp;
	/** Failed items whose call was charged (a fault after the call was handled). */
	chargedFailures: number;
	floor?: number;
	credits?: number;
}

/** A fault that hits exactly the next request, however many arrive at once (errorRate → errorNext). */
function once(faults: FaultOptions): FaultOptions {
	return faults.errorRate ? { ...faults, errorRate: 0, errorNext: 1 } : faults;
}

function concurrentCaseList(): ConcurrentCase[] {
	return [
		...(['seconds', 'http-date', 'reset'] as const).map(
			(h): ConcurrentCase => ({
				name: `429 burst, delay as ${h === 'reset' ? 'X-RateLimit-Reset only' : `Retry-After ${h}`}`,
				retryHeader: h,
				setup: (c) => c.faultNth(GENERATE, 1, burst(1)),
				failed: 0,
				chargedFailures: 0,
			}),
		),
		...AMBIGUOUS_KINDS.flatMap(([name, faults, error]): ConcurrentCase[] => [
			{ name: `${name} (before the call is handled: nothing charged)`, setup: (c) => c.faultNth(GENERATE, 1, once(faults)), failed: 1, error, chargedFailures: 0 },
			{
				name: `${name} (after the call was handled and charged: ambiguous, never resent)`,
				setup: (c) => c.faultNth(GENERATE, 1, { ...once(faults), faultAfterHandling: true }),
				failed: 1,
				error,
				chargedFailures: 1,
			},
		]),
		{
			name: 'key revoked mid-run (after the 2nd answer)',
			setup: (c, key) => c.afterAnswer(GENERATE, '200', 2, () => c.revoke(key)),
			failed: 'any',
			error: /revoked[\s\S]*new key/i,
			chargedFailures: 0,
		},
		{ name: 'credits exhausted mid-run (balance 2, no floor)', setup: () => undefined, credits: 2, floor: 0, failed: NC - 2, error: /credit/i, chargedFailures: 0 },
	];
}

function concurrentCases(driver: Driver, max: number, ctx: () => DriverContext, chaos: () => Chaos, key: () => string): void {
	describe(`${driver.name} action: Generate, ${NC} items at the maximum concurrency (${max}), Minimum Credits to Keep ${FLOOR}`, () => {
		test.each(concurrentCaseList().map((c) => [c.name, c] as const))('%s', async (_name, kase) => {
			const c = chaos();
			const floor = kase.floor ?? FLOOR;
			c.setCredits(kase.credits ?? NC + FLOOR);
			const start = kase.credits ?? NC + FLOOR;
			if (kase.retryHeader) c.sb.configure({ retryHeader: kase.retryHeader });
			kase.setup(c, key());
			c.sb.resetStats();
			const run = await driver.generate(ctx(), PROMPTS_C, { concurrency: max, minCreditsToKeep: floor || undefined });
			// Items in = items out, each an output or a clear error.
			expect(run.thrown).toBeUndefined();
			expect(run.outcomes).toHaveLength(NC);
			const failed = run.outcomes.filter((o) => !o.ok);
			if (kase.failed !== 'any') expect(failed).toHaveLength(kase.failed);
			for (const o of failed) {
				expect(o.error).toBeTruthy();
				if (kase.error) expect(o.error).toMatch(kase.error);
			}
			noKeyIn(run.outcomes.map((o) => o.error), key());
			const ok = run.outcomes.filter((o) => o.ok).length;
			// Credits = the calls the service charged = the successful items (+ the failures charged after handling).
			expect(c.sb.stats.creditsSpent).toBe(c.sb.stats.paidCalls);
			expect(c.sb.stats.creditsSpent).toBe(ok + kase.chargedFailures);
			// No paid call sent twice: apart from the 429 refusals, one request per item at most.
			const refused = c.count(GENERATE, '429');
			expect(c.count(GENERATE) - refused).toBeLessThanOrEqual(NC);
			if (kase.failed !== 'any') expect((c.sb.stats.byRoute[GENERATE] ?? 0) - refused).toBe(NC);
			// The floor is never crossed.
			expect(start - c.sb.stats.creditsSpent).toBeGreaterThanOrEqual(floor);
			for (const o of run.outcomes.filter((x) => x.ok)) expect(typeof o.json?.creditsRemaining).toBe('number');
		});

		test(`the floor holds exactly: ${FLOOR + 5} credits, floor ${FLOOR}, ${NC} items at once → 5 paid, ${NC - 5} refused before sending, one balance read`, async () => {
			const c = chaos();
			c.setCredits(FLOOR + 5);
			c.sb.resetStats();
			const run = await driver.generate(ctx(), PROMPTS_C, { concurrency: max, minCreditsToKeep: FLOOR });
			expect(run.outcomes).toHaveLength(NC);
			expect(run.outcomes.filter((o) => o.ok)).toHaveLength(5);
			for (const o of run.outcomes.filter((x) => !x.ok)) expect(o.error).toMatch(/Minimum Credits to Keep/);
			expect(c.sb.stats.creditsSpent).toBe(5);
			expect(c.sb.stats.byRoute[GENERATE]).toBe(5);
			expect(c.sb.stats.byRoute['GET /credits']).toBe(1);
			expect(c.sb.state.account('acc_1').credits).toBe(FLOOR);
		});

		test(`a key revoked mid-run: no call is sent after the first 401, and the remaining items fail at once with its message`, async () => {
			const c = chaos();
			const items = Array.from({ length: 3 * max }, (_, i) => `Revocation prompt ${i + 1}`);
			// Sized from the items, not the sandbox's defaults (100 credits, /generate 60 per minute): with the
			// n8n maximum (128) the revocation comes after 133 charged answers, which those defaults never allow.
			// The quota and the balance are not what this case tests: every item may be admitted and paid for.
			c.setCredits(items.length);
			c.sb.configure({ faults: { latencyMs: 150 }, quota: { generate: { limit: 2 * items.length, windowMs: 60_000 } } });
			c.afterAnswer(GENERATE, '200', max + 5, () => c.revoke(key()));
			c.sb.resetStats();
			const events: string[] = [];
			const run = await driver.generate({ ...ctx(), events }, items, { concurrency: max });
			expect(run.outcomes).toHaveLength(items.length);
			const ok = run.outcomes.filter((o) => o.ok).length;
			expect(ok).toBeGreaterThanOrEqual(max + 5);
			const failed = run.outcomes.filter((o) => !o.ok);
			expect(failed.length).toBeGreaterThan(0);
			for (const o of failed) expect(o.error).toMatch(/revoked[\s\S]*new key/i);
			noKeyIn(failed.map((o) => o.error), key());
			const first401 = events.indexOf('answer 401');
			expect(first401).toBeGreaterThan(0);
			expect(events.slice(first401).filter((e) => e.startsWith('send'))).toEqual([]);
			// Items never sent failed too: fewer requests than items.
			expect(c.sb.stats.byRoute[GENERATE]).toBeLessThan(items.length);
			expect(c.sb.stats.creditsSpent).toBe(ok);
		});
	});
}
