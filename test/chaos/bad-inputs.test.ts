/**
 * The bad-input table: invalid inputs across the operations of both
 * platforms (n8n node parameters, n8n trigger parameters and credential;
 * Zapier inputData and connection). Each one must be refused before any
 * request (the sandbox counts 0 requests around the single call) with an
 * error that names the field, and without the key.
 * Last, a Base URL that answers with a redirect, on every platform and for
 * each redirect status: to another host, the call fails naming the status
 * and the address, and that host receives nothing; within the Base URL's
 * origin, it is followed.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { CUSTOM } from '../../n8n/nodes/PostWriter/helpers/layout';
import { poll, runNode, runNodeError } from '../n8n/helpers/context';
import { bundle, details, run, runAuthTest } from '../zapier/helpers';
import { createStandaloneClient } from '../../sdk';
import { REDIRECT_STATUSES } from '../../shared/client';
import { REDIRECT_TEST_KEY, useRedirectServers, type RedirectKind } from '../helpers/redirect-servers';
import { record } from './harness';

const LONG = (n: number) => 'x'.repeat(n);
const PAST = '2020-01-01T09:00:00Z';
const KEY_FORMAT = /pw_live_[0-9a-f]{32}/;

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ keySeed: 'chaos-bad-inputs' });
});
afterAll(async () => {
	await sb.close();
});

/** Runs `call` and returns the error it throws plus the requests the sandbox received meanwhile. */
async function refused(call: () => Promise<unknown>): Promise<{ message: string; requests: number }> {
	const before = sb.stats.requests;
	let error: unknown;
	try {
		const out = await call();
		record('output(unexpected)', out);
	} catch (e) {
		error = e;
		record('error', e);
	}
	const requests = sb.stats.requests - before;
	if (error === undefined) throw new Error(`accepted (${requests} request(s) sent)`);
	const message = error instanceof Error ? (error.name === 'AppError' || error.name === 'ThrottledError' ? details(error).message : error.message) : String(error);
	return { message, requests };
}

// ---------------------------------------------------------------------------
// n8n: [case, resource, operation, params, field named, item json]

type N8nRow = [string, string, string, IDataObject, RegExp, IDataObject?];

const N8N_NODE: N8nRow[] = [
	['Generate: empty prompt', 'post', 'generate', { prompt: '' }, /^Prompt\b/],
	['Generate: blank prompt', 'post', 'generate', { prompt: '   ' }, /^Prompt\b/],
	['Generate: 0 proposals', 'post', 'generate', { prompt: 'p', numProposals: 0 }, /^Number of Proposals\b/],
	['Generate: 11 proposals', 'post', 'generate', { prompt: 'p', numProposals: 11 }, /^Number of Proposals\b/],
	['Generate: 2.5 proposals', 'post', 'generate', { prompt: 'p', numProposals: 2.5 }, /^Number of Proposals\b/],
	['Generate: proposals from an expression that is text', 'post', 'generate', { prompt: 'p', numProposals: '={{ $json.n }}' }, /^Number of Proposals\b/, { n: 'three' }],
	['Generate: Schedule At in the past', 'post', 'generate', { prompt: 'p', scheduledAt: PAST }, /^Schedule At\b/],
	['Generate: Schedule At not a date', 'post', 'generate', { prompt: 'p', scheduledAt: 'next tuesday' }, /^Schedule At\b/],
	['Generate: Schedule At on Feb 30', 'post', 'generate', { prompt: 'p', scheduledAt: '2031-02-30T09:00:00Z' }, /^Schedule At\b/],
	['Generate: prompt over 20000 characters', 'post', 'generate', { prompt: LONG(20001) }, /^Prompt\b/],
	['Analyze: empty text', 'post', 'analyze', { text: '' }, /^Text\b/],
	['Analyze: text over 20000 characters', 'post', 'analyze', { text: LONG(20001) }, /^Text\b/],
	['Analyze: negative credit floor', 'post', 'analyze', { text: 't', options: { minCreditsToKeep: -1 } }, /Minimum Credits to Keep|minCreditsToKeep/],
	['Rewrite: empty text', 'post', 'rewrite', { text: '' }, /^Text\b/],
	['Rewrite: Custom instruction left empty', 'post', 'rewrite', { text: 't', instruction: CUSTOM, instructionCustom: '' }, /^Instruction\b/],
	['Predict Post Virality: empty text', 'post', 'predictVirality', { text: '' }, /^Text\b/],
	['Create Draft: empty text', 'draft', 'create', { text: '' }, /^Text\b/],
	['Create Draft: Schedule At in the past', 'draft', 'create', { text: 't', scheduledAt: PAST }, /^Schedule At\b/],
	['Calendar: From is a word', 'calendar', 'get', { from: 'yesterday', to: '2026-01-02' }, /^From\b/],
	['Calendar: From month 13', 'calendar', 'get', { from: '2026-13-01', to: '2026-12-02' }, /^From\b/],
	['Calendar: To before From', 'calendar', 'get', { from: '2026-02-02', to: '2026-01-30' }, /^To\b/],
	['Calendar: To on Feb 30', 'calendar', 'get', { from: '2026-02-01', to: '2026-02-30' }, /^To\b/],
	['Search Inspirations: negative Minimum Likes', 'inspiration', 'search', { filters: { minLikes: -1 } }, /^Minimum Likes\b/],
	['Search Inspirations: search over 500 characters', 'inspiration', 'search', { filters: { search: LONG(501) } }, /^Search\b/],
	['Activate Writing Profile: no profile', 'writingProfile', 'activate', { id: { mode: 'id', value: '' } }, /^Writing Profile\b/],
	['Activate Writing Profile: blank id', 'writingProfile', 'activate', { id: { mode: 'id', value: '   ' } }, /^Writing Profile\b/],
	['Start Post Creation: empty topic', 'creation', 'start', { topic: '' }, /^Topic\b/],
	['Start Post Creation: language over 35 characters', 'creation', 'start', { topic: 't', additionalFields: { language: LONG(36) } }, /^Language\b/],
	['Prepare Post: empty workflow id', 'creation', 'prepare', { workflowId: '', ideaId: 'idea_1' }, /^Creation Workflow ID\b/],
	['Prepare Post: empty idea id', 'creation', 'prepare', { workflowId: 'wf_1', ideaId: '' }, /^Idea ID\b/],
	['Write Post: answers JSON that is not JSON', 'creation', 'write', { workflowId: 'wf_1', answersInput: 'json', answersJson: 'q_1 = yes' }, /^Answers\b/],
	['Write Post: empty answers list', 'creation', 'write', { workflowId: 'wf_1', answersInput: 'json', answersJson: '[]' }, /^Answers\b/],
	['Write Post: an answer left empty', 'creation', 'write', { workflowId: 'wf_1', answersInput: 'json', answersJson: '[{"questionId":"q_1","answer":""}]' }, /^answers\[0\]\.answer|^Answers\b/],
	['Write Post: answers that are not objects', 'creation', 'write', { workflowId: 'wf_1', answersInput: 'json', answersJson: '["yes"]' }, /^answers\[0\]|^Answers\b/],
	['Validate Post: empty workflow id', 'creation', 'validate', { workflowId: '' }, /^Creation Workflow ID\b/],
	['Refine Post: Custom instruction left empty', 'creation', 'refine', { workflowId: 'wf_1', instruction: CUSTOM, instructionCustom: '' }, /^Instruction\b/],
	['Create Guided Post: empty topic', 'creation', 'createGuided', { topic: '' }, /^Topic\b/],
	['Create Guided Post: 9 refinements', 'creation', 'createGuided', { topic: 't', maxRefinements: 9 }, /Maximum Refinements|maxRefinements/],
	['Create Guided Post: text match without text', 'creation', 'createGuided', { topic: 't', ideaSelection: 'match', ideaMatch: '' }, /Idea Text to Match|ideaMatch/],
	['Create Guided Post: idea number 0', 'creation', 'createGuided', { topic: 't', ideaSelection: 'index', ideaIndex: 0 }, /Idea Number|ideaIndex/],
];

describe('n8n node parameters', () => {
	// One argument per row: rows of different lengths would make jest read the last parameter as a done callback.
	test.each(N8N_NODE.map((row) => [row[0], row] as const))('%s', async (_name, [, resource, operation, params, field, json]) => {
		const items: INodeExecutionData[] = [{ json: json ?? {} }];
		const r = await refused(() => runNodeError({ credentials: { apiKey: sb.keys.full, baseUrl: sb.baseUrl }, params: { resource, operation, ...params }, items }).then((e) => Promise.reject(e)));
		expect(r.message).toMatch(field);
		expect(r.message).not.toMatch(KEY_FORMAT);
		expect(r.requests).toBe(0);
	});
});

describe('n8n credential and trigger parameters', () => {
	test.each([
		['credential: Base URL over plain http to a remote host', { baseUrl: 'http://api.example.com/api/v1' }, /Base URL/],
		['credential: Base URL that is not a URL', { baseUrl: 'post writer' }, /Base URL/],
		['credential: Base URL of another API version', { baseUrl: 'https://api.example.com/api/v2' }, /Base URL/],
	] as const)('%s', async (_n, creds, field) => {
		const r = await refused(() =>
			runNodeError({ credentials: { apiKey: sb.keys.full, ...creds }, params: { resource: 'account', operation: 'getProfile' } }).then((e) => Promise.reject(e)),
		);
		expect(r.message).toMatch(field);
		expect(r.requests).toBe(0);
	});

	test.each([
		['trigger: Notify Me Before 0', { event: 'upcomingScheduledDraft', notifyAmount: 0, notifyUnit: 'hours' }, /Notify Me Before/],
		['trigger: Notify Me Before 400 days', { event: 'upcomingScheduledDraft', notifyAmount: 400, notifyUnit: 'days' }, /Notify Me Before|notifyBefore/],
		['trigger: Notify Me Before -5 minutes', { event: 'upcomingScheduledDraft', notifyAmount: -5, notifyUnit: 'minutes' }, /Notify Me Before/],
	] as const)('%s', async (_n, params, field) => {
		const r = await refused(() => poll({ credentials: { apiKey: sb.keys.full, baseUrl: sb.baseUrl }, params: { ...params }, staticData: {} }));
		expect(r.message).toMatch(field);
		expect(r.requests).toBe(0);
	});
});

// ---------------------------------------------------------------------------
// Zapier: [case, kind, key, inputData, field named]

type ZapRow = [string, 'creates' | 'searches' | 'triggers', string, IDataObject, RegExp];

const ZAPIER: ZapRow[] = [
	['Generate Post: empty prompt', 'creates', 'generatePost', { prompt: '' }, /^Prompt\b/],
	['Generate Post: 0 proposals', 'creates', 'generatePost', { prompt: 'p', numProposals: '0' }, /^Number of Proposals\b/],
	['Generate Post: proposals "abc"', 'creates', 'generatePost', { prompt: 'p', numProposals: 'abc' }, /^Number of Proposals\b/],
	['Generate Post: Schedule At in the past', 'creates', 'generatePost', { prompt: 'p', scheduledAt: PAST }, /^Schedule At\b/],
	['Generate Post: Schedule At without a zone', 'creates', 'generatePost', { prompt: 'p', scheduledAt: '2031-12-01T09:00:00' }, /^Schedule At\b/],
	['Generate Post: Save as Draft "maybe"', 'creates', 'generatePost', { prompt: 'p', saveDraft: 'maybe' }, /^Save as Draft\b/],
	['Analyze Post: no text and no draft', 'creates', 'analyzePost', { text: '' }, /^Text\b/],
	['Rewrite Post: no text and no draft', 'creates', 'rewritePost', { text: '', instructionPreset: 'Make it shorter' }, /^Text\b/],
	['Rewrite Post: no instruction', 'creates', 'rewritePost', { text: 't' }, /^Instruction\b/],
	['Predict Post Virality: text over 20000 characters', 'creates', 'predictVirality', { text: LONG(20001) }, /^Text\b/],
	['Create Draft: empty text', 'creates', 'createDraft', { text: '' }, /^Text\b/],
	['Create Draft: Schedule At "tomorrow"', 'creates', 'createDraft', { text: 't', scheduledAt: 'tomorrow' }, /^Schedule At\b/],
	['Activate Writing Profile: no profile', 'creates', 'activateWritingProfile', { id: '' }, /^Writing Profile\b/],
	['Start Post Creation: empty topic', 'creates', 'startPostCreation', { topic: '' }, /^Topic\b/],
	['Prepare Post: empty workflow id', 'creates', 'preparePost', { workflowId: '', ideaId: 'idea_1' }, /^Creation Workflow ID\b/],
	['Prepare Post: empty idea id', 'creates', 'preparePost', { workflowId: 'wf_1', ideaId: '' }, /^Idea ID\b/],
	['Write Post: no answers', 'creates', 'writePost', { workflowId: 'wf_1', answers: [] }, /^Answers\b/],
	['Write Post: an answer left empty', 'creates', 'writePost', { workflowId: 'wf_1', answers: [{ questionId: 'q_1', answer: '' }] }, /^Answers\b|^answers\[0\]/],
	['Validate Post: empty workflow id', 'creates', 'validatePost', { workflowId: '' }, /^Creation Workflow ID\b/],
	['Refine Post: no instruction', 'creates', 'refinePost', { workflowId: 'wf_1' }, /^Instruction\b/],
	['Create Guided Post: empty topic', 'creates', 'createPostGuided', { topic: '' }, /^Topic\b/],
	['Create Guided Post: 9 refinements', 'creates', 'createPostGuided', { topic: 't', maxRefinements: '9' }, /^Maximum Refinements\b/],
	['Create Guided Post: text match without text', 'creates', 'createPostGuided', { topic: 't', ideaSelection: 'match' }, /^Idea Text to Match\b/],
	['Create Guided Post: idea number 0', 'creates', 'createPostGuided', { topic: 't', ideaSelection: 'index', ideaIndex: '0' }, /^Idea Number\b/],
	['Find Inspiration: Minimum Likes -5', 'searches', 'searchInspirations', { minLikes: '-5' }, /^Minimum Likes\b/],
	['Find Inspiration: Minimum Likes "lots"', 'searches', 'searchInspirations', { minLikes: 'lots' }, /^Minimum Likes\b/],
	// Find Draft with nothing to search by is not an input error: it finds nothing (test/zapier/searches.test.ts).
	['Find Credit Balance: Minimum Balance "ten"', 'searches', 'getCredits', { minBalance: 'ten' }, /^Minimum Balance\b/],
	['Find Credit Balance: Minimum Balance -1', 'searches', 'getCredits', { minBalance: '-1' }, /^Minimum Balance\b/],
	['Upcoming Scheduled Draft: Notify Before 0', 'triggers', 'upcomingScheduledDraft', { notifyBefore: '0', notifyBeforeUnit: 'minutes' }, /^Notify Me Before\b/],
	['Upcoming Scheduled Draft: unit "weeks"', 'triggers', 'upcomingScheduledDraft', { notifyBefore: '2', notifyBeforeUnit: 'weeks' }, /^Unit\b|notifyBeforeUnit/],
	['Upcoming Scheduled Draft: Notify Before 90 days', 'triggers', 'upcomingScheduledDraft', { notifyBefore: '90', notifyBeforeUnit: 'days' }, /^Notify Me Before\b/],
];

describe('Zapier inputData', () => {
	test.each(ZAPIER.map((row) => [row[0], row] as const))('%s', async (_name, [, kind, key, inputData, field]) => {
		const r = await refused(() => run(kind, key, bundle(inputData, {}, { apiKey: sb.keys.full, baseUrl: sb.baseUrl })));
		expect(r.message).toMatch(field);
		expect(r.message).not.toMatch(KEY_FORMAT);
		expect(r.requests).toBe(0);
	});
});

describe('Zapier connection', () => {
	test.each([
		['auth test: Base URL over plain http to a remote host', 'http://api.example.com/api/v1'],
		['auth test: Base URL that is not a URL', 'post writer'],
	])('%s', async (_n, baseUrl) => {
		const r = await refused(() => runAuthTest(bundle({}, {}, { apiKey: sb.keys.full, baseUrl })));
		expect(r.message).toMatch(/Base URL/);
		expect(r.requests).toBe(0);
	});

	test('a create on a connection whose Base URL is ftp://', async () => {
		const r = await refused(() => run('creates', 'generatePost', bundle({ prompt: 'p' }, {}, { apiKey: sb.keys.full, baseUrl: 'ftp://127.0.0.1/api/v1' })));
		expect(r.message).toMatch(/Base URL/);
		expect(r.requests).toBe(0);
	});
});

// ---------------------------------------------------------------------------
// A Base URL that answers with a redirect: [platform, call on a connection]

type Connection = { apiKey: string; baseUrl: string };
const PLATFORMS: Array<[string, 'POST' | 'GET', (c: Connection) => Promise<unknown>]> = [
	['n8n node, Generate', 'POST', (c) => runNode({ credentials: c, params: { resource: 'post', operation: 'generate', prompt: 'p' } })],
	['n8n trigger, Credits Low', 'GET', (c) => poll({ credentials: c, params: { event: 'creditsLow', threshold: 10 }, staticData: {} })],
	['Zapier create, Generate Post', 'POST', (c) => run('creates', 'generatePost', bundle({ prompt: 'p' }, {}, c))],
	['Zapier connection test', 'GET', (c) => runAuthTest(bundle({}, {}, c))],
	['SDK, Generate Post', 'POST', (c) => createStandaloneClient(c).generatePost({ prompt: 'p' })],
];

describe('a Base URL that answers with a redirect', () => {
	const redirects = useRedirectServers();
	const rows = PLATFORMS.flatMap(([platform, method, call]) =>
		[...REDIRECT_STATUSES].flatMap((status) => (['elsewhere', 'same'] as RedirectKind[]).map((kind) => [`${platform}: ${status} ${kind === 'same' ? 'within the origin' : 'to another host'}`, { method, call, status, kind }] as const)),
	);
	test.each(rows)('%s', async (_name, { method, call, status, kind }) => {
		const servers = redirects();
		const connection = { apiKey: REDIRECT_TEST_KEY, baseUrl: servers.baseUrl(status, kind) };
		let error: unknown;
		await call(connection).catch((e: unknown) => {
			error = e;
		});
		// The error goes to the log the secret scan reads; an output is not logged (the n8n helper's carries the requests sent, with their key).
		record(error === undefined ? 'output' : 'error', error ?? `${status} within the origin: followed`);
		expect(servers.elsewhere).toEqual([]);
		if (kind === 'same') {
			expect(error).toBeUndefined();
			expect(servers.front).toHaveLength(2);
			return;
		}
		const message = error instanceof Error ? (error.name === 'AppError' ? details(error).message : error.message) : String(error);
		expect(message).toMatch(new RegExp(`^${method} /[a-z/]+ was answered ${status} [A-Za-z ]+, pointing to ${servers.elsewhereOrigin}/api/v1/`));
		expect(message).not.toContain(REDIRECT_TEST_KEY);
		expect(servers.front).toHaveLength(1);
	});
});

test('the table holds at least 40 invalid inputs', () => {
	expect(N8N_NODE.length + 6 + ZAPIER.length + 3).toBeGreaterThanOrEqual(40);
});
