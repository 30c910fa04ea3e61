/**
 * Every trigger, create and search of the Zapier app, run through
 * zapier-platform-core's appTester against the local sandbox (127.0.0.1).
 */
import { startSandbox } from '../../sandbox';
import type { ListShape, Sandbox } from '../../sandbox';
import { bundle, details, rejection, run, runAuthTest } from './helpers';

let sb: Sandbox;
const full = (inputData: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => bundle(inputData, meta, { apiKey: sb.keys.full, baseUrl: sb.baseUrl });
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

beforeAll(async () => {
	sb = await startSandbox({ clockTicks: true });
});
afterAll(() => sb.close());
afterEach(() => {
	sb.resetFaults();
	sb.configure({ listShape: 'data-cursor', retryHeader: 'seconds', creationLatencyMs: 0 });
});

describe('authentication against the sandbox', () => {
	test('the full key: the test passes and labels the connection with the account', async () => {
		const result = await runAuthTest(full());
		expect(result).toMatchObject({ name: 'Sandbox User', connectionLabel: 'Sandbox User (sandbox.user@example.com)' });
	});

	test.each([
		['revoked', /^API key has been revoked\. This key can no longer be used: create a new key in .+, then reconnect/],
		['expired', /^API key has expired\. This key can no longer be used: create a new key in .+, then reconnect/],
	] as const)('the %s key (KEY_%s): ExpiredAuthError, in the connection test and in a step', async (which, message) => {
		const auth = { apiKey: sb.keys[which], baseUrl: sb.baseUrl };
		for (const attempt of [runAuthTest(bundle({}, {}, auth)), run('triggers', 'newPublishedPost', bundle({}, {}, auth)), run('creates', 'createDraft', bundle({ text: 'x' }, {}, auth))]) {
			const e = details(await rejection(attempt));
			expect(e.name).toBe('ExpiredAuthError');
			expect(e.message).toMatch(message);
			expect(e.message).not.toContain(sb.keys[which]);
		}
	});

	test('an unknown key, and no key at all', async () => {
		let e = details(await rejection(runAuthTest(bundle({}, {}, { apiKey: 'pw_live_0000000000000000000000000000dead', baseUrl: sb.baseUrl }))));
		expect(e).toMatchObject({ code: 'AUTH_INVALID', message: expect.stringMatching(/^Invalid API key\./) });
		e = details(await rejection(runAuthTest(bundle({}, {}, { apiKey: '', baseUrl: sb.baseUrl }))));
		expect(e).toMatchObject({ name: 'AppError', code: 'AUTH_MISSING', message: expect.stringMatching(/^Missing or invalid Authorization header\./) });
	});

	test('a key without the scope names it', async () => {
		const e = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'x' }, {}, { apiKey: sb.keys.readonly, baseUrl: sb.baseUrl }))));
		expect(e).toMatchObject({ code: 'MISSING_SCOPE', status: 403 });
		expect(e.message).toMatch(/"posts:generate"/);
	});
});

describe('triggers', () => {
	test.each<ListShape>(['data-cursor', 'bare', 'items-offset', 'named'])('New Published Post, newest first (list shape %s)', async (shape) => {
		sb.configure({ listShape: shape });
		const posts = await run('triggers', 'newPublishedPost', full({}, { timezone: 'Europe/Paris' }));
		expect(posts.length).toBeGreaterThanOrEqual(12);
		const times = posts.map((p: any) => Date.parse(p.publishedAt));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		expect(posts[0].id).toMatch(/^pst_/);
		expect(posts[0].publishedAtLocal).toMatch(/\+0[12]:00$/);
	});

	test('Upcoming Scheduled Draft: the seeded draft three days ahead, with a four-day notice', async () => {
		const out = await run('triggers', 'upcomingScheduledDraft', full({ notifyBefore: 4, notifyBeforeUnit: 'days' }, { timezone: 'America/New_York' }));
		const seeded = out.find((e: any) => e.text === 'Three lessons from shipping our API in public.');
		expect(seeded).toBeDefined();
		expect(seeded.id).toBe(`${seeded.draftId}:${seeded.scheduledAt}`);
		expect(seeded.scheduledAtLocal).toMatch(/-0[45]:00$/);
		expect(await run('triggers', 'upcomingScheduledDraft', full({ notifyBefore: 1, notifyBeforeUnit: 'hours' }))).toEqual([]);
	});

	test('the hidden dropdown triggers', async () => {
		const profiles = await run('triggers', 'listWritingProfiles', full({}, { isFillingDynamicDropdown: true }));
		expect(profiles.map((p: any) => p.id)).toEqual(['wp_founder', 'wp_storyteller', 'wp_analyst']);
		sb.configure({ listShape: 'items-offset' });
		const drafts = await run('triggers', 'listDrafts', full({}, { isFillingDynamicDropdown: true, page: 0 }));
		expect(drafts.length).toBeGreaterThanOrEqual(2);
		expect(drafts.every((d: any) => typeof d.label === 'string' && d.id.startsWith('drf_'))).toBe(true);
	});
});

describe('creates', () => {
	test('Generate Post spends a credit and returns the balance', async () => {
		const before = sb.stats.creditsSpent;
		const out = await run('creates', 'generatePost', full({ prompt: 'Why we moved to a four-day week', numProposals: 3 }));
		expect(out.proposals).toHaveLength(3);
		expect(out.firstProposal).toBe(out.proposals[0]);
		expect(out.draftId).toMatch(/^drf_/);
		expect(out.creditsRemaining).toEqual(expect.any(Number));
		expect(sb.stats.creditsSpent).toBe(before + 1);
	});

	test('Analyze Post, Rewrite Post, Predict Post Virality (also from a picked draft)', async () => {
		const text = 'We cut our onboarding time in half.\n\nThree changes did it. Here is the first one.';
		expect(await run('creates', 'analyzePost', full({ text }))).toMatchObject({ creditsRemaining: expect.any(Number) });
		const rewritten = await run('creates', 'rewritePost', full({ text, instructionPreset: 'Make it shorter', customInstruction: 'Keep the number' }));
		expect(rewritten).toMatchObject({ text: expect.any(String), creditsRemaining: expect.any(Number) });
		const [draft] = await run('searches', 'listDrafts', full({ status: 'scheduled' }));
		const virality = await run('creates', 'predictVirality', full({ draftId: draft.id }));
		expect(virality.score).toEqual(expect.any(Number));
		expect(virality).toMatchObject({ draftId: draft.id, draftText: draft.text });
	});

	test('Find or Create Draft: nothing found, Create Draft returns the draft it made, Find Draft then finds that draft', async () => {
		const words = `Find or create ${Date.now()}`;
		expect(await run('searches', 'listDrafts', full({ search: words }))).toEqual([]);
		const created = await run('creates', 'createDraft', full({ text: `${words}: a draft made by the create half.` }));
		expect(created).toMatchObject({ id: expect.stringMatching(/^drf_/), text: `${words}: a draft made by the create half.`, status: 'draft' });
		const found = await run('searches', 'listDrafts', full({ search: words }));
		expect(found.map((d: any) => d.id)).toEqual([created.id]);
		expect(await run('searches', 'listDrafts', full({ draftId: created.id }))).toMatchObject([{ id: created.id, text: created.text }]);
	});

	test('Create Draft (scheduled) and Activate Writing Profile', async () => {
		const when = inDays(2);
		const draft = await run('creates', 'createDraft', full({ text: 'A scheduled draft from Zapier.', scheduledAt: when }));
		expect(draft).toMatchObject({ id: expect.stringMatching(/^drf_/), status: 'scheduled', scheduledAt: when });
		const activated = await run('creates', 'activateWritingProfile', full({ id: 'wp_storyteller' }));
		expect(activated).toMatchObject({ id: 'wp_storyteller', active: true });
		const [active] = await run('searches', 'listWritingProfiles', full({ activeOnly: true }));
		expect(active.id).toBe('wp_storyteller');
		await run('creates', 'activateWritingProfile', full({ id: 'wp_founder' }));
	});

	test('the creation steps, one by one', async () => {
		const started = await run('creates', 'startPostCreation', full({ topic: 'Remote onboarding', context: 'We hired 12 people in 2026.' }));
		expect(started.workflowId).toMatch(/^wf_/);
		const prepared = await run('creates', 'preparePost', full({ workflowId: started.workflowId, ideaId: started.firstIdeaId }));
		expect(prepared.questions.length).toBeGreaterThan(0);
		const answers = prepared.questions.map((q: any) => ({ questionId: q.id, answer: 'A buddy for each new hire, and written checklists.' }));
		const written = await run('creates', 'writePost', full({ workflowId: started.workflowId, answers }));
		expect(written.text.length).toBeGreaterThan(20);
		const validated = await run('creates', 'validatePost', full({ workflowId: started.workflowId }));
		expect(typeof validated.ready).toBe('boolean');
		const refined = await run('creates', 'refinePost', full({ workflowId: started.workflowId, instructionPreset: 'Make it punchier' }));
		expect(refined).toMatchObject({ workflowId: started.workflowId, text: expect.any(String) });
	});

	test('Create Guided Post, refining until ready', async () => {
		sb.configure({ validateReadyAfterRefines: 1 });
		try {
			const out = await run('creates', 'createPostGuided', full({ topic: 'What a four-day week taught us', answers: ['Fewer meetings', 'Output went up'] }));
			expect(out).toMatchObject({ workflowId: expect.stringMatching(/^wf_/), ready: true, refinements: 1 });
		} finally {
			sb.configure({ validateReadyAfterRefines: 0 });
		}
	});

	test('Create Guided Post stays inside Zapier’s 30 s on a slow service, and names the workflow', async () => {
		// A slow service, on the app's clock: "start" takes 23.8 s (it answers at once, and the app's clock is moved on
		// to 23.8 s after the step began as it answers), then "prepare" takes 5 s for real. The run stops at its 25 s
		// deadline, in the middle of "prepare": that request's timeout is cut to the 1.2 s left (a step is begun with at
		// least MIN_ATTEMPT_MS, 1 s, left). Were it not, "prepare" would answer at 28.8 s and the run stop before
		// "write". (Waiting 13 s a step for real made this test 25 s long.)
		const realNow = Date.now.bind(Date);
		let shift = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		const started = Date.now();
		sb.configure({
			log: (line) => {
				if (!/\/creation\/ideas -> 200$/.test(line)) return;
				shift = started + 23_800 - realNow();
				sb.configure({ creationLatencyMs: 5_000 });
			},
		});
		try {
			const e = details(await rejection(run('creates', 'createPostGuided', full({ topic: 'Slow service' }))));
			const elapsed = Date.now() - started;
			expect(shift).toBeGreaterThan(0);
			expect(elapsed).toBeGreaterThan(24_000);
			expect(elapsed).toBeLessThan(27_000);
			expect(e.code).toBe('GUIDED_INCOMPLETE');
			expect(e.message).toMatch(/^Create Guided Post stopped at the "prepare" step of workflow wf_\w+: POST \/creation\/prepare timed out/);
		} finally {
			jest.restoreAllMocks();
			sb.configure({ log: () => undefined });
		}
	});
});

describe('searches', () => {
	test('Find Inspiration by words, likes and format; a miss is []', async () => {
		const all = await run('searches', 'searchInspirations', full({}));
		expect(all.length).toBeGreaterThan(0);
		const popular = await run('searches', 'searchInspirations', full({ minLikes: 1000, format: all[0].format }));
		expect(popular.every((i: any) => i.likes >= 1000 && i.format === all[0].format)).toBe(true);
		expect(await run('searches', 'searchInspirations', full({ search: 'zzzz no such words zzzz' }))).toEqual([]);
	});

	test('Find Draft and Find Writing Profile; misses are []', async () => {
		const found = await run('searches', 'listDrafts', full({ search: 'story points' }));
		expect(found[0].text).toMatch(/story points/);
		expect(await run('searches', 'listDrafts', full({ search: 'nothing matches this' }))).toEqual([]);
		expect((await run('searches', 'listWritingProfiles', full({ name: 'Analyst' })))[0].id).toBe('wp_analyst');
		expect(await run('searches', 'listWritingProfiles', full({ name: 'Poet' }))).toEqual([]);
	});

	test('the account profile (connection test) and Find Credit Balance agree', async () => {
		const profile = await runAuthTest(full());
		const [credits] = await run('searches', 'getCredits', full());
		expect(profile).toMatchObject({ id: 'acc_1', email: 'sandbox.user@example.com', activeWritingProfile: { id: 'wp_founder' } });
		expect(credits.balance).toBe(profile.credits);
		expect(credits.lastTransaction).toMatchObject({ balanceAfter: credits.balance });
	});
});

describe('limits and busy workflows against the sandbox', () => {
	test.each(['seconds', 'http-date', 'reset'] as const)('429 with %s: ThrottledError with the delay', async (retryHeader) => {
		sb.configure({ retryHeader, faults: { burst429: 1, burstRetryAfterSec: 120, routes: ['GET /credits'] } });
		const e = details(await rejection(run('searches', 'getCredits', full())));
		expect(e.name).toBe('ThrottledError');
		expect(e.delay).toBeGreaterThanOrEqual(118);
		expect(e.delay).toBeLessThanOrEqual(121);
	});

	test('a 429 burst whose Retry-After is past the step budget: ThrottledError at once, not a step killed at 30 s', async () => {
		sb.configure({ faults: { burst429: 5, burstRetryAfterSec: 30, routes: ['GET /posts'] } });
		sb.resetStats();
		const started = performance.now();
		const e = details(await rejection(run('triggers', 'newPublishedPost', full())));
		expect(performance.now() - started).toBeLessThan(3_000);
		expect(e).toMatchObject({ name: 'ThrottledError', delay: 30 });
		expect(sb.stats.byRoute['GET /posts']).toBe(1);
	});

	test('the step deadline (25 s) refuses a 429 wait the retry budget alone would take', async () => {
		// Each request "takes" 20 s on the app's clock: after the first, 5 s are left, and a 5 s wait would leave nothing.
		const realNow = Date.now.bind(Date);
		let shift = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		sb.configure({ faults: { burst429: 1, burstRetryAfterSec: 5, routes: ['POST /generate'] }, log: () => (shift += 20_000) });
		sb.resetStats();
		try {
			const started = performance.now();
			const e = details(await rejection(run('creates', 'generatePost', full({ prompt: 'Deadline' }))));
			expect(performance.now() - started).toBeLessThan(3_000);
			expect(e).toMatchObject({ name: 'ThrottledError', delay: 5 });
			expect(sb.stats.byRoute['POST /generate']).toBe(1);
			expect(sb.stats.paidCalls).toBe(0);
		} finally {
			jest.restoreAllMocks();
			sb.configure({ log: () => undefined });
		}
	});

	test('a short 429 is waited out within the step', async () => {
		sb.configure({ faults: { burst429: 1, burstRetryAfterSec: 1, routes: ['POST /generate'] } });
		await expect(run('creates', 'generatePost', full({ prompt: 'Patience' }))).resolves.toMatchObject({ creditsRemaining: expect.any(Number) });
	});

	test('WORKFLOW_BUSY: two steps on one workflow at once both succeed, the second after a retry', async () => {
		const started = await run('creates', 'startPostCreation', full({ topic: 'Busy workflows' }));
		// The first holds the workflow 0.8 s; the second, refused with Retry-After: 1, comes back after it is done.
		sb.configure({ creationLatencyMs: 800 });
		const [a, b] = await Promise.all([
			run('creates', 'preparePost', full({ workflowId: started.workflowId, ideaId: started.firstIdeaId })),
			run('creates', 'preparePost', full({ workflowId: started.workflowId, ideaId: started.firstIdeaId })),
		]);
		expect(a.questions.length).toBeGreaterThan(0);
		expect(b.questions.length).toBeGreaterThan(0);
	}, 20_000);
});
