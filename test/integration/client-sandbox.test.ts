/**
 * The client (axios transport) against the real sandbox on 127.0.0.1, random port.
 */
import { PostWriterClient, runGuided } from '../../shared/client';
import { AuthenticationError, MissingScopeError, NetworkError, ServerError, TimeoutError, WorkflowStateError } from '../../shared/errors';
import { createAxiosSend, createStandaloneClient } from '../../sdk';
import { startSandbox, type Sandbox } from '../../sandbox/server';

let sb: Sandbox;
const sleeps: number[] = [];

function client(key = sb.keys.full, extra: Partial<ConstructorParameters<typeof PostWriterClient>[0]> = {}) {
	return new PostWriterClient({
		baseUrl: sb.baseUrl,
		send: createAxiosSend(key),
		sleep: (ms) => {
			sleeps.push(ms);
			return new Promise((r) => setTimeout(r, ms));
		},
		apiKey: key,
		...extra,
	});
}

async function balance(): Promise<number> {
	return (await client().getCredits({})).balance;
}

beforeEach(async () => {
	sleeps.length = 0;
	sb = await startSandbox({ port: 0 });
});
afterEach(async () => {
	jest.restoreAllMocks();
	await sb.close();
});

/**
 * A sleep on a clock of the test's own: it moves Date.now on (the sandbox's rate-limit windows and the client's
 * retry dates read it) instead of waiting. The waits are the ones the client asked for, kept in `sleeps`; the
 * three 429 tests waited about 6 s for real, out of second-long Retry-After values.
 */
function skipAhead(): (ms: number) => Promise<void> {
	const realNow = Date.now.bind(Date);
	let shift = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	return async (ms) => {
		sleeps.push(ms);
		shift += ms;
	};
}

test('every endpoint answers through the client', async () => {
	const c = client();
	const future = new Date(Date.now() + 86_400_000).toISOString();
	const gen = await c.generatePost({ prompt: 'Remote work lessons', numProposals: 2, scheduledAt: future });
	expect(gen.proposals).toHaveLength(2);
	expect(typeof gen.draftId).toBe('string');
	expect(typeof gen.creditsRemaining).toBe('number');
	expect((await c.analyzePost({ text: gen.proposals[0] })).creditsRemaining).toBeDefined();
	expect((await c.rewritePost({ text: gen.proposals[0], instruction: 'Make it shorter' })).text.length).toBeGreaterThan(0);
	expect((await c.predictVirality({ text: gen.proposals[0] })).score).toBeGreaterThanOrEqual(0);
	const draft = await c.createDraft({ text: 'A plain draft' });
	expect(draft.id).toBeTruthy();
	const drafts = await c.listDrafts();
	expect(drafts.map((d) => d.id)).toEqual(expect.arrayContaining([draft.id, gen.draftId]));
	expect((await c.listPosts()).length).toBeGreaterThan(0);
	const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
	const cal = await c.getCalendar({ from: day(Date.now()), to: day(Date.now() + 2 * 86_400_000) });
	expect(cal.entries.some((e) => e.type === 'scheduled' && e.draftId === gen.draftId)).toBe(true);
	expect(Array.isArray(await c.searchInspirations({ minLikes: 0 }))).toBe(true);
	const profile = await c.getAccountProfile({});
	expect(profile.email).toBeTruthy();
	const credits = await c.getCredits({});
	expect(credits.history.length).toBeGreaterThan(0);
	const profiles = await c.listWritingProfiles();
	const target = profiles.find((p) => !p.active) ?? profiles[0];
	const activated = await c.activateWritingProfile({ id: target.id });
	expect(activated.active).toBe(true);
	const after = await c.listWritingProfiles();
	expect(after.filter((p) => p.active).map((p) => p.id)).toEqual([target.id]);
	const ideas = await c.startPostCreation({ topic: 'Hiring juniors' });
	const prep = await c.preparePost({ workflowId: ideas.workflowId, ideaId: ideas.ideas[0].id });
	const write = await c.writePost({ workflowId: ideas.workflowId, answers: prep.questions.map((q) => ({ questionId: q.id, answer: 'We hired four.' })) });
	expect(write.text.length).toBeGreaterThan(0);
	expect(typeof (await c.validatePost({ workflowId: ideas.workflowId })).ready).toBe('boolean');
	expect((await c.refinePost({ workflowId: ideas.workflowId, instruction: 'Make it punchier' })).text.length).toBeGreaterThan(0);
});

test('every list shape the sandbox can answer is read, across pages', async () => {
	for (const listShape of ['data-cursor', 'bare', 'items-offset', 'named'] as const) {
		sb.configure({ listShape });
		const posts = await client().listPosts({}, { pageSize: 5 });
		// The sandbox answers a bare array with the whole list (no cursor to follow).
		expect(posts.length).toBe(12);
		expect(new Set(posts.map((p) => p.id)).size).toBe(posts.length);
	}
});

test.each([
	['revoked', 'API key has been revoked'],
	['expired', 'API key has expired'],
	['unknown', 'Invalid API key'],
	['malformed', 'Missing or invalid Authorization header'],
])('401 messages: %s', async (which, message) => {
	const key =
		which === 'revoked' ? sb.keys.revoked : which === 'expired' ? sb.keys.expired : which === 'unknown' ? 'pw_live_unknownkey0000000000000000000000' : 'not-a-key';
	const e = await client(key).getAccountProfile({}).catch((x) => x);
	expect(e).toBeInstanceOf(AuthenticationError);
	expect(e.message.startsWith(message)).toBe(true);
	expect(e.message).not.toContain(key);
});

test('403 names the scope', async () => {
	const e = await client(sb.keys.readonly).generatePost({ prompt: 'x' }).catch((x) => x);
	expect(e).toBeInstanceOf(MissingScopeError);
	expect(e.scope).toBe('posts:generate');
	expect(sb.stats.creditsSpent).toBe(0);
});

test('credits go down by exactly 1 per paid call and 0 for virality', async () => {
	const c = client();
	const start = await balance();
	await c.generatePost({ prompt: 'a' });
	expect(await balance()).toBe(start - 1);
	await c.analyzePost({ text: 'a' });
	expect(await balance()).toBe(start - 2);
	await c.rewritePost({ text: 'a', instruction: 'shorter' });
	expect(await balance()).toBe(start - 3);
	await c.predictVirality({ text: 'a' });
	expect(await balance()).toBe(start - 3);
	expect(sb.stats.creditsSpent).toBe(3);
});

test.each(['seconds', 'http-date', 'reset'] as const)('a 429 (%s) is waited out', async (retryHeader) => {
	sb.configure({ retryHeader, quota: { generate: { limit: 2, windowMs: 1000 } } });
	const c = client(sb.keys.full, { sleep: skipAhead() });
	for (let i = 0; i < 4; i++) await c.generatePost({ prompt: `p${i}` });
	expect(sleeps.length).toBeGreaterThan(0);
	expect(sb.stats.paidCalls).toBe(4);
	expect(sb.stats.creditsSpent).toBe(4);
});

test('a WORKFLOW_BUSY is waited out', async () => {
	sb.configure({ creationLatencyMs: 400 });
	const c = client();
	const ideas = await c.startPostCreation({ topic: 'Busy test' });
	const first = c.preparePost({ workflowId: ideas.workflowId, ideaId: ideas.ideas[0].id });
	await new Promise((r) => setTimeout(r, 50));
	// second call while the first runs → WORKFLOW_BUSY, retried until the first is done, then out of sequence or ok
	const second = c.validatePost({ workflowId: ideas.workflowId }).catch((e) => e);
	await first;
	const r = await second;
	expect(sleeps.length).toBeGreaterThan(0);
	expect(r).toBeInstanceOf(WorkflowStateError); // validate before write is out of sequence, after the busy wait
});

test('an out-of-sequence creation call keeps the actionable message', async () => {
	const c = client();
	const ideas = await c.startPostCreation({ topic: 'Order' });
	const e = await c.writePost({ workflowId: ideas.workflowId, answers: [{ questionId: 'q_1', answer: 'a' }] }).catch((x) => x);
	expect(e).toBeInstanceOf(WorkflowStateError);
	expect(e.message).toMatch(/prepare/i);
});

test('a workflow older than 7 days is refused', async () => {
	const c = client();
	const ideas = await c.startPostCreation({ topic: 'Old' });
	sb.clock.advance(7 * 86_400_000 + 1);
	const e = await c.preparePost({ workflowId: ideas.workflowId, ideaId: ideas.ideas[0].id }).catch((x) => x);
	expect(e).toBeInstanceOf(WorkflowStateError);
	expect(e.status).toBe(410);
	expect(e.message).toMatch(/ideas/);
});

test('another account cannot use the workflow', async () => {
	const ideas = await client().startPostCreation({ topic: 'Mine' });
	const e = await client(sb.keys.other).preparePost({ workflowId: ideas.workflowId, ideaId: ideas.ideas[0].id }).catch((x) => x);
	expect(e).toBeInstanceOf(WorkflowStateError);
	expect(e.status).toBe(404);
});

describe('no paid call is retried after an ambiguous failure', () => {
	test.each([
		['5xx', { errorRate: 1, faultAfterHandling: true }, ServerError],
		['reset', { resetNext: 1, faultAfterHandling: true }, NetworkError],
		['timeout', { timeoutNext: 1, faultAfterHandling: true }, TimeoutError],
	] as const)('%s', async (_n, faults, klass) => {
		sb.configure({ faults: { ...faults, routes: ['POST /generate'] } });
		const c = client(sb.keys.full, { timeoutMs: 500 });
		const e = await c.generatePost({ prompt: 'charged once' }).catch((x) => x);
		expect(e).toBeInstanceOf(klass);
		expect(sb.stats.byRoute['POST /generate']).toBe(1);
		expect(sb.stats.creditsSpent).toBe(1);
		expect(sleeps).toHaveLength(0);
	});

	test('a GET is retried after 5xx', async () => {
		sb.configure({ faults: { errorRate: 1, routes: ['GET /credits'] } });
		const c = client(sb.keys.full, { retry: { maxAttempts: 3, baseDelayMs: 10 } });
		await expect(c.getCredits({})).rejects.toBeInstanceOf(ServerError);
		expect(sb.stats.byRoute['GET /credits']).toBe(3);
	});
});

test('guided creation runs end to end, with refinement, and saves nothing', async () => {
	sb.configure({ validateReadyAfterRefines: 1 });
	const draftsBefore = (await client().listDrafts()).length;
	const out = await runGuided(client(), { topic: 'Why we write docs first', context: 'We ship faster', maxRefinements: 2 });
	expect(out.ready).toBe(true);
	expect(out.refinements).toBe(1);
	expect(out.text.length).toBeGreaterThan(20);
	expect((await client().listDrafts()).length).toBe(draftsBefore);
});

test('the standalone SDK works with only a base URL and a key', async () => {
	const sdk = createStandaloneClient({ baseUrl: sb.baseUrl.replace('/api/v1', ''), apiKey: sb.keys.full });
	expect((await sdk.getAccountProfile({})).email).toBeTruthy();
});
