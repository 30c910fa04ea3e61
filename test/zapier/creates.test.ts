import nock from 'nock';
import { App, ORIGIN, bundle, details, rejection, run, ONLY_DATE } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());


const future = () => new Date(Date.now() + 3 * 86_400_000).toISOString();

describe('Generate Post', () => {
	test('sends the prompt and options, returns the proposals, the draft, the first proposal and the credits left', async () => {
		const when = future();
		const scope = nock(ORIGIN)
			.post('/api/v1/generate', { prompt: 'Why we moved to a four-day week', numProposals: 2, saveDraft: true, scheduledAt: when })
			.reply(200, { proposals: ['One.', 'Two.'], draftId: 'drf_9', creditsRemaining: 41 });
		const out = await run('creates', 'generatePost', bundle({ prompt: 'Why we moved to a four-day week', numProposals: '2', saveDraft: 'true', scheduledAt: when.replace('Z', '+00:00') }));
		scope.done();
		expect(out).toEqual({ proposals: ['One.', 'Two.'], draftId: 'drf_9', creditsRemaining: 41, firstProposal: 'One.' });
	});
});

describe('Analyze Post, Rewrite Post, Predict Post Virality', () => {
	test('Analyze Post: the text, or the text of a picked draft', async () => {
		nock(ORIGIN).post('/api/v1/analyze', { text: 'My text' }).reply(200, { rules: ['Short first line'], tactics: ['Hook'], summary: 'ok', creditsRemaining: 40 });
		expect(await run('creates', 'analyzePost', bundle({ text: 'My text' }))).toMatchObject({ rules: ['Short first line'], creditsRemaining: 40 });

		nock(ORIGIN).get('/api/v1/drafts').query(true).reply(200, { data: [{ id: 'drf_2', text: 'Draft text', status: 'draft' }] });
		nock(ORIGIN).post('/api/v1/analyze', { text: 'Draft text' }).reply(200, { rules: [], tactics: [], creditsRemaining: 39 });
		expect(await run('creates', 'analyzePost', bundle({ draftId: 'drf_2' }))).toMatchObject({ creditsRemaining: 39, draftId: 'drf_2', draftText: 'Draft text' });
	});

	test.each([
		['analyzePost', '/api/v1/analyze', { rules: ['Hook'], tactics: [], creditsRemaining: 30 }],
		['rewritePost', '/api/v1/rewrite', { text: 'Rewritten.', instruction: 'Make it shorter', creditsRemaining: 30 }],
		['predictVirality', '/api/v1/virality', { score: 50, level: 'medium', factors: [] }],
	])('%s with a draft picked returns that draft: its id and text, beside the result', async (key, path, reply) => {
		nock(ORIGIN)
			.get('/api/v1/drafts')
			.query(true)
			.reply(200, { data: [{ id: 'drf_1', text: 'Other', status: 'draft' }, { id: 'drf_7', text: 'The picked draft.', status: 'scheduled' }] });
		nock(ORIGIN).post(path, (body) => body.text === 'The picked draft.').reply(200, reply);
		const out = await run('creates', key, bundle({ draftId: 'drf_7', instructionPreset: 'Make it shorter' }));
		expect(out).toMatchObject({ ...reply, draftId: 'drf_7', draftText: 'The picked draft.' });
		expect(nock.isDone()).toBe(true);
		// Text given: no draft was used, and the output says so.
		nock(ORIGIN).post(path).reply(200, reply);
		expect(await run('creates', key, bundle({ text: 'Typed.', instructionPreset: 'Make it shorter' }))).toMatchObject({ draftId: null, draftText: null });
	});

	test('neither text nor draft: refused, naming Text', async () => {
		const e = details(await rejection(run('creates', 'analyzePost', bundle({}))));
		expect(e.message).toMatch(/^Text \(text\): is required: fill in Text, or pick a Draft/);
	});

	test('Rewrite Post: a preset, a custom instruction, or both', async () => {
		nock(ORIGIN).post('/api/v1/rewrite', { text: 'T', instruction: 'Make it shorter' }).reply(200, { text: 'Short', instruction: 'Make it shorter', creditsRemaining: 38 });
		expect(await run('creates', 'rewritePost', bundle({ text: 'T', instructionPreset: 'Make it shorter' }))).toEqual({ text: 'Short', instruction: 'Make it shorter', creditsRemaining: 38, draftId: null, draftText: null });

		nock(ORIGIN).post('/api/v1/rewrite', { text: 'T', instruction: 'Sound like a pirate' }).reply(200, { text: 'Arr', creditsRemaining: 37 });
		await run('creates', 'rewritePost', bundle({ text: 'T', customInstruction: 'Sound like a pirate.' }));

		nock(ORIGIN).post('/api/v1/rewrite', { text: 'T', instruction: 'Make it punchier. End with a question' }).reply(200, { text: 'Q?', creditsRemaining: 36 });
		await run('creates', 'rewritePost', bundle({ text: 'T', instructionPreset: 'Make it punchier', customInstruction: 'End with a question' }));
		expect(nock.isDone()).toBe(true);

		const e = details(await rejection(run('creates', 'rewritePost', bundle({ text: 'T' }))));
		expect(e.message).toMatch(/^Instruction \(instructionPreset\): is required: pick an Instruction, or write a Custom Instruction/);
	});

	test('Rewrite Post offers the preset instructions of the catalogue as a dropdown', () => {
		const fields = (App.creates as any).rewritePost.operation.inputFields as any[];
		const preset = fields.find((f) => f.key === 'instructionPreset');
		expect(preset.choices.map((c: any) => c.label)).toEqual(['Punchier', 'Shorter', 'More Professional', 'More Personal', 'Add a Call to Action', 'Fix Grammar']);
		expect(fields.find((f) => f.key === 'customInstruction')).toBeDefined();
		expect(fields.find((f) => f.key === 'instruction')).toBeUndefined();
	});

	test('Predict Post Virality', async () => {
		nock(ORIGIN).post('/api/v1/virality', { text: 'T' }).reply(200, { score: 72, level: 'high', factors: ['Hook'] });
		expect(await run('creates', 'predictVirality', bundle({ text: 'T' }))).toEqual({ score: 72, level: 'high', factors: ['Hook'], draftId: null, draftText: null });
	});
});

describe('Create Draft, Activate Writing Profile', () => {
	test('Create Draft, optionally scheduled (sent in UTC)', async () => {
		nock(ORIGIN).post('/api/v1/drafts', { text: 'Plain' }).reply(201, { id: 'drf_1', text: 'Plain', status: 'draft', scheduledAt: null });
		expect(await run('creates', 'createDraft', bundle({ text: 'Plain' }))).toMatchObject({ id: 'drf_1', status: 'draft' });
		const local = '2031-03-02T10:00:00+01:00';
		nock(ORIGIN).post('/api/v1/drafts', { text: 'Later', scheduledAt: '2031-03-02T09:00:00.000Z' }).reply(201, { id: 'drf_2', text: 'Later', status: 'scheduled', scheduledAt: '2031-03-02T09:00:00.000Z' });
		expect(await run('creates', 'createDraft', bundle({ text: 'Later', scheduledAt: local }))).toMatchObject({ id: 'drf_2', status: 'scheduled' });
	});

	test('Activate Writing Profile: the id from the dropdown goes in the path', async () => {
		nock(ORIGIN).post('/api/v1/writing-profiles/wp_storyteller/activate').reply(200, { id: 'wp_storyteller', name: 'Storyteller', active: true });
		expect(await run('creates', 'activateWritingProfile', bundle({ id: 'wp_storyteller' }))).toMatchObject({ id: 'wp_storyteller', active: true });
		const field = (App.creates as any).activateWritingProfile.operation.inputFields[0];
		expect(field).toMatchObject({ key: 'id', dynamic: 'listWritingProfiles.id.label', search: 'listWritingProfiles.id', required: true });
	});
});

describe('the creation steps', () => {
	test('Start Post Creation returns the workflow, its ideas and the first idea for mapping', async () => {
		nock(ORIGIN)
			.post('/api/v1/creation/ideas', { topic: 'Remote onboarding', language: 'en' })
			.reply(200, { workflowId: 'wf_1', ideas: [{ id: 'idea_1', title: 'A' }, { id: 'idea_2', title: 'B' }] });
		expect(await run('creates', 'startPostCreation', bundle({ topic: 'Remote onboarding', language: 'en' }))).toMatchObject({
			workflowId: 'wf_1',
			firstIdeaId: 'idea_1',
			firstIdeaTitle: 'A',
		});
	});

	test('Prepare, Write (line items of answers), Validate, Refine', async () => {
		nock(ORIGIN).post('/api/v1/creation/prepare', { workflowId: 'wf_1', ideaId: 'idea_2' }).reply(200, { workflowId: 'wf_1', questions: [{ id: 'q_1', question: 'What changed?' }] });
		expect(await run('creates', 'preparePost', bundle({ workflowId: 'wf_1', ideaId: 'idea_2' }))).toMatchObject({ questions: [{ id: 'q_1' }] });

		nock(ORIGIN)
			.post('/api/v1/creation/write', { workflowId: 'wf_1', answers: [{ questionId: 'q_1', answer: 'Everything' }] })
			.reply(200, { workflowId: 'wf_1', text: 'Written.' });
		expect(await run('creates', 'writePost', bundle({ workflowId: 'wf_1', answers: [{ questionId: 'q_1', answer: 'Everything' }] }))).toEqual({ workflowId: 'wf_1', text: 'Written.' });

		nock(ORIGIN).post('/api/v1/creation/validate', { workflowId: 'wf_1' }).reply(200, { verdict: { ready: false, score: 55, issues: ['Too long'] } });
		expect(await run('creates', 'validatePost', bundle({ workflowId: 'wf_1' }))).toMatchObject({ workflowId: 'wf_1', ready: false, verdict: { score: 55 } });

		nock(ORIGIN).post('/api/v1/creation/refine', { workflowId: 'wf_1', instruction: 'Make it shorter' }).reply(200, { text: 'Short.' });
		expect(await run('creates', 'refinePost', bundle({ workflowId: 'wf_1', instructionPreset: 'Make it shorter' }))).toEqual({ workflowId: 'wf_1', text: 'Short.' });
	});

	test('the steps of one workflow are serialised by a Zapier lock per connection', () => {
		for (const key of ['preparePost', 'writePost', 'validatePost', 'refinePost']) {
			expect((App.creates as any)[key].operation.lock).toEqual({ key: 'creation-workflow-{{bundle.inputData.workflowId}}', scope: ['auth'], timeout: 60 });
		}
	});

	test('an out-of-sequence call keeps the service message', async () => {
		nock(ORIGIN)
			.post('/api/v1/creation/write')
			.reply(409, { error: { code: 'WORKFLOW_OUT_OF_SEQUENCE', message: 'Cannot write yet: choose an idea first with POST /creation/prepare (workflowId, ideaId).' } });
		const e = details(await rejection(run('creates', 'writePost', bundle({ workflowId: 'wf_1', answers: [{ questionId: 'q', answer: 'a' }] }))));
		expect(e).toMatchObject({ code: 'WORKFLOW_OUT_OF_SEQUENCE', status: 409 });
		expect(e.message).toMatch(/^Cannot write yet/);
	});
});

describe('Create Guided Post', () => {
	test('runs ideas → prepare → write → validate (→ refine → validate) in one step', async () => {
		nock(ORIGIN).post('/api/v1/creation/ideas').reply(200, { workflowId: 'wf_g', ideas: [{ id: 'i1', title: 'First' }, { id: 'i2', title: 'Second idea about meetings' }] });
		nock(ORIGIN).post('/api/v1/creation/prepare', { workflowId: 'wf_g', ideaId: 'i2' }).reply(200, { questions: [{ id: 'q1', question: 'What?' }, { id: 'q2', question: 'Why?' }] });
		nock(ORIGIN)
			.post('/api/v1/creation/write', {
				workflowId: 'wf_g',
				answers: [
					{ questionId: 'q1', answer: 'We cut meetings' },
					{ questionId: 'q2', answer: 'Focus' },
				],
			})
			.reply(200, { text: 'Draft 1' });
		nock(ORIGIN).post('/api/v1/creation/validate').reply(200, { ready: false, verdict: { ready: false, suggestions: ['Shorter'] } });
		nock(ORIGIN).post('/api/v1/creation/refine', { workflowId: 'wf_g', instruction: 'Shorter' }).reply(200, { text: 'Draft 2' });
		nock(ORIGIN).post('/api/v1/creation/validate').reply(200, { ready: true, verdict: { ready: true, score: 88 } });
		const out = await run(
			'creates',
			'createPostGuided',
			bundle({ topic: 'Meetings', ideaSelection: 'match', ideaMatch: 'meetings', answers: ['We cut meetings', 'Focus'], maxRefinements: '2' }),
		);
		expect(nock.isDone()).toBe(true);
		expect(out).toMatchObject({ workflowId: 'wf_g', text: 'Draft 2', ready: true, refinements: 1, idea: { id: 'i2' }, verdict: { score: 88 } });
	});

	test('out of time: fails clearly, naming the workflow and what a Zap builder can do (the steps are hidden in Zapier)', async () => {
		// Only Date is faked: the clock jumps 26 s while the service prepares.
		jest.useFakeTimers({ doNotFake: ONLY_DATE, now: Date.now() });
		try {
			nock(ORIGIN).post('/api/v1/creation/ideas').reply(200, { workflowId: 'wf_slow', ideas: [{ id: 'i1' }] });
			nock(ORIGIN)
				.post('/api/v1/creation/prepare')
				.reply(() => {
					jest.setSystemTime(Date.now() + 26_000);
					return [200, { questions: [{ id: 'q1' }] }];
				});
			const e = details(await rejection(run('creates', 'createPostGuided', bundle({ topic: 'Slow' }))));
			expect(e).toMatchObject({ name: 'AppError', code: 'GUIDED_INCOMPLETE' });
			expect(e.message).toBe(
				'Create Guided Post ran out of time before the "write" step (workflow wf_slow). Replay the step from the Zap history to run it again, or lower Maximum Refinements so that it finishes sooner.',
			);
			expect(nock.isDone()).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});

	test('a step that stays busy fails naming the workflow too', async () => {
		nock(ORIGIN).post('/api/v1/creation/ideas').reply(200, { workflowId: 'wf_busy', ideas: [{ id: 'i1' }] });
		nock(ORIGIN).post('/api/v1/creation/prepare').reply(200, { questions: [{ id: 'q1' }] });
		nock(ORIGIN).post('/api/v1/creation/write').reply(409, { error: { code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' } }, { 'Retry-After': '30' });
		const e = details(await rejection(run('creates', 'createPostGuided', bundle({ topic: 'Busy' }))));
		expect(e).toMatchObject({ name: 'AppError', code: 'GUIDED_INCOMPLETE' });
		expect(e.message).toMatch(/stopped at the "write" step of workflow wf_busy: WORKFLOW_BUSY/);
	});

	test('the deadline leaves room inside Zapier’s 30 s', async () => {
		const { STEP_DEADLINE_MS } = await import('../../zapier/src/client');
		expect(STEP_DEADLINE_MS).toBeLessThanOrEqual(25_000);
	});
});
