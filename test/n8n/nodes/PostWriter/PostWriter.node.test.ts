/**
 * Every operation of the Post Writer node, run through its execute() with a
 * fake n8n context against the sandbox (127.0.0.1, port 0). n8n's sleep is
 * replaced by a recorder, so waits are asserted without being waited.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../../../sandbox';
import type { Sandbox } from '../../../../sandbox';
import { CUSTOM } from '../../../../n8n/nodes/PostWriter/helpers/layout';
import { listWritingProfiles } from '../../../../n8n/nodes/PostWriter/methods/listSearch';
import type { Credentials } from '../../helpers/context';
import { loadOptionsContext, runNode, runNodeError } from '../../helpers/context';

const sleeps: number[] = [];
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async (ms: number) => {
		sleeps.push(ms);
	}),
}));

const DAY = 86_400_000;
let sb: Sandbox;
let credentials: Credentials;

beforeEach(async () => {
	sleeps.length = 0;
	sb = await startSandbox({ quota: { default: { limit: 100_000, windowMs: 60_000 }, generate: { limit: 100_000, windowMs: 60_000 } } });
	credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
});

afterEach(async () => {
	await sb.close();
});

const account = () => sb.state.account(DEFAULT_ACCOUNT_ID);

/** A wall time N days ahead, without zone, as n8n's date picker gives it. */
function wallTimeIn(days: number): string {
	return new Date(Date.now() + days * DAY).toISOString().slice(0, 11) + '09:00:00';
}

describe('Post', () => {
	test('Generate sends the catalogue defaults, saves a draft and outputs creditsRemaining', async () => {
		const { output, transport } = await runNode({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'Why we ship on Fridays' } });
		expect(transport.requests).toHaveLength(1);
		expect(transport.requests[0]).toMatchObject({
			method: 'POST',
			body: { prompt: 'Why we ship on Fridays', numProposals: 1, saveDraft: true },
			headers: { Authorization: `Bearer ${sb.keys.full}`, 'Content-Type': 'application/json' },
		});
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json.proposals).toHaveLength(1);
		expect(typeof output[0].json.draftId).toBe('string');
		expect(output[0].json.creditsRemaining).toBe(99);
		expect(account().drafts.some((d) => d.id === output[0].json.draftId)).toBe(true);
	});

	test('Generate with proposals, no draft, and a schedule given in the workflow timezone', async () => {
		const wall = wallTimeIn(10);
		const { output, transport } = await runNode({
			credentials,
			timezone: 'Asia/Kolkata',
			params: { resource: 'post', operation: 'generate', prompt: 'Hiring juniors', numProposals: 3, saveDraft: true, scheduledAt: wall },
		});
		// Kolkata is UTC+05:30 all year.
		const expected = new Date(Date.parse(`${wall}Z`) - 5.5 * 3_600_000).toISOString();
		expect(transport.requests[0].body).toEqual({ prompt: 'Hiring juniors', numProposals: 3, saveDraft: true, scheduledAt: expected });
		expect(output[0].json.proposals).toHaveLength(3);
		const draft = account().drafts.find((d) => d.id === output[0].json.draftId);
		expect(draft?.scheduledAt).toBe(expected);

		const noDraft = await runNode({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'x', saveDraft: false } });
		expect(noDraft.transport.requests[0].body).toEqual({ prompt: 'x', numProposals: 1, saveDraft: false });
		expect(noDraft.output[0].json.draftId).toBeNull();
	});

	test('Generate refuses a bad value before any request, naming the field', async () => {
		const error = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'x', numProposals: 12 } });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Number of Proposals: must be between 1 and 10, got 12');
		expect(error.context.itemIndex).toBe(0);
		expect(sb.stats.requests).toBe(0);

		const past = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'x', scheduledAt: '2020-01-01T09:00:00Z' } });
		expect(past).toBeInstanceOf(NodeOperationError);
		expect(past.message).toMatch(/^Schedule At: .*in the past/);
		const empty = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: '  ' } });
		expect(empty.message).toMatch(/^Prompt: is required/);
	});

	test('Minimum Credits to Keep refuses to spend below the floor', async () => {
		sb.state.account(DEFAULT_ACCOUNT_ID).credits = 5;
		const error = await runNodeError({
			credentials,
			params: { resource: 'post', operation: 'analyze', text: 'Some text', options: { minCreditsToKeep: 5 } },
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/was not sent: it costs 1 credit, the balance is 5, and Minimum Credits to Keep is 5/);
		expect(sb.stats.paidCalls).toBe(0);
		const ok = await runNode({ credentials, params: { resource: 'post', operation: 'analyze', text: 'Some text', options: { minCreditsToKeep: 4 } } });
		expect(ok.output[0].json.creditsRemaining).toBe(4);
	});

	test('Analyze and Predict Post Virality', async () => {
		const text = 'We cut onboarding time in half.\n\nHere is how.';
		const analyzed = await runNode({ credentials, params: { resource: 'post', operation: 'analyze', text } });
		expect(analyzed.transport.requests[0]).toMatchObject({ method: 'POST', body: { text } });
		expect(analyzed.output[0].json).toHaveProperty('creditsRemaining', 99);
		const virality = await runNode({ credentials, params: { resource: 'post', operation: 'predictVirality', text } });
		expect(typeof virality.output[0].json.score).toBe('number');
		expect(sb.stats.creditsSpent).toBe(1);
	});

	test('Rewrite with a preset and with a custom instruction', async () => {
		const preset = await runNode({ credentials, params: { resource: 'post', operation: 'rewrite', text: 'A long text about meetings.' } });
		expect(preset.transport.requests[0].body).toEqual({ text: 'A long text about meetings.', instruction: 'Make it punchier' });
		expect(typeof preset.output[0].json.text).toBe('string');
		expect(preset.output[0].json.creditsRemaining).toBe(99);

		const custom = await runNode({
			credentials,
			params: { resource: 'post', operation: 'rewrite', text: 'A text.', instruction: CUSTOM, instructionCustom: 'Write it as a haiku' },
		});
		expect(custom.transport.requests[0].body).toEqual({ text: 'A text.', instruction: 'Write it as a haiku' });
		const missing = await runNodeError({ credentials, params: { resource: 'post', operation: 'rewrite', text: 'A text.', instruction: CUSTOM } });
		expect(missing.message).toMatch(/^Instruction: is required/);
	});

	test('Get Many published posts: limit, return all, simplify', async () => {
		const limited = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', limit: 5 } });
		expect(limited.output).toHaveLength(5);
		expect(Object.keys(limited.output[0].json).sort()).toEqual(
			['comments', 'draftId', 'id', 'impressions', 'likes', 'publishedAt', 'shares', 'text'].sort(),
		);
		expect(limited.output.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
		const all = await runNode({ credentials, params: { resource: 'post', operation: 'getMany', returnAll: true, simplify: false } });
		expect(all.output).toHaveLength(account().posts.length);
		expect(all.output[0].json.metrics).toBeDefined();
	});
});

describe('Draft, Calendar, Inspiration, Account, Writing Profile', () => {
	test('Create Draft, unscheduled then scheduled; Get Many', async () => {
		const plain = await runNode({ credentials, params: { resource: 'draft', operation: 'create', text: 'Draft one' } });
		expect(plain.transport.requests[0].body).toEqual({ text: 'Draft one' });
		expect(plain.output[0].json).toMatchObject({ text: 'Draft one', status: 'draft' });

		const at = new Date(Date.now() + 3 * DAY).toISOString();
		const scheduled = await runNode({ credentials, params: { resource: 'draft', operation: 'create', text: 'Draft two', scheduledAt: at } });
		expect(scheduled.output[0].json).toMatchObject({ text: 'Draft two', status: 'scheduled', scheduledAt: at });

		const many = await runNode({ credentials, params: { resource: 'draft', operation: 'getMany', returnAll: true } });
		expect(many.output.map((o) => o.json.text)).toEqual(expect.arrayContaining(['Draft one', 'Draft two']));
		const readonly = await runNodeError({
			credentials: { ...credentials, apiKey: sb.keys.readonly },
			params: { resource: 'draft', operation: 'create', text: 'x' },
		});
		expect(readonly).toBeInstanceOf(NodeApiError);
		expect(readonly.httpCode).toBe('403');
		expect(readonly.message).toMatch(/lacks the scope "posts:write"/);
		expect(readonly.description).toMatch(/Create a key that includes the scope "posts:write"/);
	});

	test('Get Calendar defaults to today → +7 days (UTC) and accepts dates', async () => {
		const { output, transport } = await runNode({ credentials, params: { resource: 'calendar', operation: 'get' } });
		const today = new Date().toISOString().slice(0, 10);
		const week = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * DAY).toISOString().slice(0, 10);
		expect(new URL(transport.requests[0].url).search).toBe(`?from=${today}&to=${week}`);
		expect(output[0].json).toMatchObject({ from: today, to: week });
		expect(Array.isArray(output[0].json.entries)).toBe(true);

		const explicit = await runNode({ credentials, params: { resource: 'calendar', operation: 'get', from: '2026-01-30', to: '2026-02-02T10:00:00' } });
		expect(new URL(explicit.transport.requests[0].url).search).toBe('?from=2026-01-30&to=2026-02-02');
		const reversed = await runNodeError({ credentials, params: { resource: 'calendar', operation: 'get', from: '2026-02-02', to: '2026-01-30' } });
		expect(reversed.message).toMatch(/^To: 2026-01-30 is before from/);
	});

	test('Search Inspirations with filters', async () => {
		const { output, transport } = await runNode({
			credentials,
			params: { resource: 'inspiration', operation: 'search', returnAll: true, filters: { minLikes: 1000, format: 'text' } },
		});
		const url = new URL(transport.requests[0].url);
		expect(url.searchParams.get('minLikes')).toBe('1000');
		expect(url.searchParams.get('format')).toBe('text');
		expect(output.length).toBeGreaterThan(0);
		expect(output.every((o) => (o.json.likes as number) >= 1000 && o.json.format === 'text')).toBe(true);
		const custom = await runNode({
			credentials,
			params: { resource: 'inspiration', operation: 'search', filters: { format: CUSTOM, formatCustom: 'document', search: 'fired' } },
		});
		expect(new URL(custom.transport.requests[0].url).searchParams.get('format')).toBe('document');
	});

	test('Account: Get Profile and Get Credits', async () => {
		const profile = await runNode({ credentials, params: { resource: 'account', operation: 'getProfile' } });
		expect(profile.output[0].json).toMatchObject({ id: 'acc_1', credits: 100 });
		const credits = await runNode({ credentials, params: { resource: 'account', operation: 'getCredits' } });
		expect(credits.output[0].json.balance).toBe(100);
		expect(Array.isArray(credits.output[0].json.history)).toBe(true);
	});

	test('Writing Profile: the dropdown lists profiles, Activate takes one from the list or by ID', async () => {
		const { ctx } = loadOptionsContext(credentials);
		const list = await listWritingProfiles.call(ctx);
		expect(list.results.map((r) => r.value)).toEqual(['wp_founder', 'wp_storyteller', 'wp_analyst']);
		expect(list.results[0].name).toBe('Founder voice (active)');
		const filtered = await listWritingProfiles.call(ctx, 'story');
		expect(filtered.results.map((r) => r.value)).toEqual(['wp_storyteller']);

		const many = await runNode({ credentials, params: { resource: 'writingProfile', operation: 'getMany', returnAll: true } });
		expect(many.output).toHaveLength(3);

		const fromList = await runNode({
			credentials,
			params: { resource: 'writingProfile', operation: 'activate', id: { __rl: true, mode: 'list', value: 'wp_storyteller' } },
		});
		expect(fromList.transport.requests[0]).toMatchObject({ method: 'POST' });
		expect(new URL(fromList.transport.requests[0].url).pathname).toBe('/api/v1/writing-profiles/wp_storyteller/activate');
		expect(fromList.output[0].json).toMatchObject({ id: 'wp_storyteller', active: true });
		expect(account().writingProfiles.find((p) => p.active)?.id).toBe('wp_storyteller');

		const byId = await runNode({ credentials, params: { resource: 'writingProfile', operation: 'activate', id: { __rl: true, mode: 'id', value: 'wp_analyst' } } });
		expect(byId.output[0].json.id).toBe('wp_analyst');
		const unknown = await runNodeError({ credentials, params: { resource: 'writingProfile', operation: 'activate', id: { __rl: true, mode: 'id', value: 'wp_nope' } } });
		expect(unknown).toBeInstanceOf(NodeApiError);
		expect(unknown.httpCode).toBe('404');
		const none = await runNodeError({ credentials, params: { resource: 'writingProfile', operation: 'activate' } });
		expect(none.message).toMatch(/^Writing Profile: is required/);
	});
});

describe('Creation', () => {
	test('Start → Prepare → Write → Validate → Refine, each taking the workflow ID from the previous item', async () => {
		const started = await runNode({ credentials, params: { resource: 'creation', operation: 'start', topic: 'Four-day week', additionalFields: { language: 'en' } } });
		const ideas = started.output[0].json;
		expect(started.transport.requests[0].body).toEqual({ topic: 'Four-day week', language: 'en' });
		expect(typeof ideas.workflowId).toBe('string');

		const prepared = await runNode({ credentials, items: [{ json: ideas }], params: { resource: 'creation', operation: 'prepare' } });
		expect(prepared.transport.requests[0].body).toEqual({ workflowId: ideas.workflowId, ideaId: (ideas.ideas as Array<{ id: string }>)[0].id });
		const questions = prepared.output[0].json.questions as Array<{ id: string }>;
		expect(questions.length).toBeGreaterThan(0);

		const written = await runNode({
			credentials,
			items: [prepared.output[0]],
			params: {
				resource: 'creation',
				operation: 'write',
				answers: { answer: questions.map((q) => ({ questionId: q.id, answer: `Answer to ${q.id}` })) },
			},
		});
		expect(written.transport.requests[0].body).toEqual({
			workflowId: ideas.workflowId,
			answers: questions.map((q) => ({ questionId: q.id, answer: `Answer to ${q.id}` })),
		});
		expect(typeof written.output[0].json.text).toBe('string');

		const validated = await runNode({ credentials, items: [written.output[0]], params: { resource: 'creation', operation: 'validate' } });
		expect(validated.output[0].json).toMatchObject({ workflowId: ideas.workflowId });
		expect(typeof validated.output[0].json.ready).toBe('boolean');

		const refined = await runNode({ credentials, items: [validated.output[0]], params: { resource: 'creation', operation: 'refine', instruction: 'Make it shorter' } });
		expect(refined.transport.requests[0].body).toEqual({ workflowId: ideas.workflowId, instruction: 'Make it shorter' });
		expect(refined.output[0].json.workflowId).toBe(ideas.workflowId);
	});

	test('Write accepts answers as JSON, and says which field is wrong', async () => {
		const started = await runNode({ credentials, params: { resource: 'creation', operation: 'start', topic: 'Mentoring' } });
		const prepared = await runNode({ credentials, items: [started.output[0]], params: { resource: 'creation', operation: 'prepare' } });
		const questions = prepared.output[0].json.questions as Array<{ id: string }>;
		const q = questions[0];
		const answers = questions.map((x) => ({ questionId: x.id, answer: 'Yes' }));
		const json = await runNode({
			credentials,
			items: [prepared.output[0]],
			params: { resource: 'creation', operation: 'write', answersInput: 'json', answersJson: JSON.stringify(answers) },
		});
		expect(json.transport.requests[0].body).toEqual({ workflowId: started.output[0].json.workflowId, answers });
		expect(typeof json.output[0].json.text).toBe('string');
		const bad = await runNodeError({ credentials, items: [prepared.output[0]], params: { resource: 'creation', operation: 'write', answersInput: 'json', answersJson: '[{' } });
		expect(bad.message).toMatch(/^Answers: is not valid JSON/);
		const blank = await runNodeError({
			credentials,
			items: [prepared.output[0]],
			params: { resource: 'creation', operation: 'write', answers: { answer: [{ questionId: q.id, answer: ' ' }] } },
		});
		expect(blank.message).toBe('Answers #1.answer: must be a non-empty text (question q_1)');
		const noWorkflow = await runNodeError({ credentials, params: { resource: 'creation', operation: 'validate' } });
		expect(noWorkflow.message).toMatch(/^Creation Workflow ID: is required/);
	});

	test('Create Guided Post returns text, verdict, ready and workflowId, and saves nothing', async () => {
		const draftsBefore = account().drafts.length;
		const { output, transport } = await runNode({ credentials, params: { resource: 'creation', operation: 'createGuided', topic: 'Remote onboarding' } });
		expect(output[0].json).toMatchObject({ ready: true, refinements: 0 });
		expect(typeof output[0].json.text).toBe('string');
		expect(output[0].json.verdict).toMatchObject({ ready: true });
		expect(typeof output[0].json.workflowId).toBe('string');
		expect(transport.requests.map((r) => new URL(r.url).pathname.replace('/api/v1', ''))).toEqual([
			'/creation/ideas',
			'/creation/prepare',
			'/creation/write',
			'/creation/validate',
		]);
		expect(account().drafts.length).toBe(draftsBefore);
	});

	test('Create Guided Post: idea by index or text, answers in order or by question, refinements', async () => {
		sb.configure({ validateReadyAfterRefines: 1 });
		const started = await runNode({ credentials, params: { resource: 'creation', operation: 'start', topic: 'Pricing' } });
		const ideas = started.output[0].json.ideas as Array<{ id: string; title: string }>;
		expect(ideas.length).toBeGreaterThan(1);

		const byIndex = await runNode({
			credentials,
			params: {
				resource: 'creation',
				operation: 'createGuided',
				topic: 'Pricing',
				ideaSelection: 'index',
				ideaIndex: 2,
				answers: { answer: [{ answer: 'First answer' }, { answer: 'Second answer' }] },
				maxRefinements: 3,
			},
		});
		expect(byIndex.output[0].json).toMatchObject({ ready: true, refinements: 1 });
		expect((byIndex.output[0].json.idea as { id: string }).id).toBe(ideas[1].id);
		const sentAnswers = byIndex.transport.requests.find((r) => r.url.endsWith('/creation/write'))?.body as { answers: Array<{ answer: string }> };
		expect(sentAnswers.answers.slice(0, 2).map((a) => a.answer)).toEqual(['First answer', 'Second answer']);

		const word = ideas[ideas.length - 1].title.split(' ').slice(-1)[0];
		const byMatch = await runNode({
			credentials,
			params: { resource: 'creation', operation: 'createGuided', topic: 'Pricing', ideaSelection: 'match', ideaMatch: word, maxRefinements: 0 },
		});
		expect(byMatch.output[0].json.ready).toBe(false);
		expect(byMatch.output[0].json.refinements).toBe(0);

		const mixed = await runNodeError({
			credentials,
			params: { resource: 'creation', operation: 'createGuided', topic: 'Pricing', answers: { answer: [{ question: 'q_1', answer: 'a' }, { answer: 'b' }] } },
		});
		expect(mixed).toBeInstanceOf(NodeOperationError);
		expect(mixed.message).toMatch(/^Answers: fill Question on every answer or on none/);
		const outOfRange = await runNodeError({ credentials, params: { resource: 'creation', operation: 'createGuided', topic: 'Pricing', ideaSelection: 'index', ideaIndex: 99 } });
		expect(outOfRange.message).toMatch(/^Idea Number: must be a whole number from 1 to/);
	});
});

describe('Every operation', () => {
	test('items are processed in order, each output paired with its item', async () => {
		const texts = ['one', 'two', 'three'];
		const { output, transport } = await runNode({
			credentials,
			items: texts.map((text) => ({ json: { text } })),
			params: (i) => ({ resource: 'draft', operation: 'create', text: texts[i] }),
		});
		expect(transport.requests.map((r) => (r.body as { text: string }).text)).toEqual(texts);
		expect(output.map((o) => [o.json.text, o.pairedItem])).toEqual(texts.map((t, i) => [t, { item: i }]));
	});

	test('continueOnFail: a failed item gives an error item paired with it, the others go on', async () => {
		const { output } = await runNode({
			credentials,
			continueOnFail: true,
			items: [{ json: {} }, { json: {} }, { json: {} }],
			params: (i) => ({ resource: 'post', operation: 'generate', prompt: 'ok', numProposals: i === 1 ? 0 : 1 }),
		});
		expect(output).toHaveLength(3);
		expect(output[1]).toEqual({ json: { error: 'Number of Proposals: must be between 1 and 10, got 0.' }, pairedItem: { item: 1 } });
		expect(output[0].json.proposals).toBeDefined();
		expect(output[2].json.proposals).toBeDefined();
		expect(output[2].pairedItem).toEqual({ item: 2 });
	});

	test('without continueOnFail the first failure stops the run with the item index', async () => {
		const error = await runNodeError({
			credentials,
			items: [{ json: {} }, { json: {} }],
			params: (i) => ({ resource: 'post', operation: 'generate', prompt: i === 0 ? 'ok' : '' }),
		});
		expect(error.context.itemIndex).toBe(1);
		expect(sb.stats.paidCalls).toBe(1);
	});

	test('a 429 is waited out with n8n sleep, using the server delay, and not failed', async () => {
		sb.configure({ faults: { burst429: 2, burstRetryAfterSec: 3, routes: ['POST /generate'] } });
		const { output } = await runNode({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'Patience' } });
		expect(output[0].json.proposals).toBeDefined();
		expect(sleeps).toHaveLength(2);
		for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(3000);
		expect(sb.stats.paidCalls).toBe(1);
	});

	test('a paid call is never sent twice after an ambiguous failure', async () => {
		sb.configure({ faults: { errorRate: 1, errorStatuses: [502], routes: ['POST /generate'], faultAfterHandling: true } });
		const error = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'Once' } });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('502');
		expect(error.message).toMatch(/^POST \/generate could not be completed by the service \(502 Bad Gateway\)/);
		expect(error.description).toMatch(/^It was not retried, because the call may already have been carried out/);
		expect(sb.stats.byRoute['POST /generate']).toBe(1);
		expect(sleeps).toEqual([]);
	});

	test('authentication errors say what to do, and never show the key', async () => {
		const error = await runNodeError({ credentials: { ...credentials, apiKey: sb.keys.revoked }, params: { resource: 'account', operation: 'getCredits' } });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('401');
		expect(error.message).toMatch(/^API key has been revoked/);
		expect(error.description).toMatch(/Create a new key in Post Writer under Settings › API keys/);
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain(sb.keys.revoked);
	});

	test('an unusable Base URL in the credential is reported as such', async () => {
		const error = await runNodeError({ credentials: { ...credentials, baseUrl: 'http://example.com/api/v1' }, params: { resource: 'account', operation: 'getCredits' } });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^Base URL in the credential: must use https/);
		const continued = await runNode({
			credentials: { ...credentials, baseUrl: 'ftp://x' },
			continueOnFail: true,
			params: { resource: 'account', operation: 'getCredits' },
		});
		expect(continued.output[0]).toMatchObject({ pairedItem: { item: 0 } });
		expect(String(continued.output[0].json.error)).toMatch(/^Base URL in the credential/);
	});

	test('a network failure on a GET is retried, then reported with the code kept', async () => {
		const port = sb.port;
		await sb.close();
		const error = await runNodeError({ credentials: { ...credentials, baseUrl: `http://127.0.0.1:${port}/api/v1` }, params: { resource: 'account', operation: 'getCredits' } });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/could not reach the service \(ECONNREFUSED\)/);
		sb = await startSandbox({});
	});
});
