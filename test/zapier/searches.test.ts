import nock from 'nock';
import { App, ORIGIN, bundle, details, rejection, run, runAuthTest } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Find Inspiration', () => {
	test('passes search, minimum likes and format as filters', async () => {
		nock(ORIGIN)
			.get('/api/v1/inspirations')
			.query({ search: 'fired', minLikes: '1000', format: 'text', limit: '25' })
			.reply(200, { data: [{ id: 'ins_1', text: 'I was fired on a Tuesday…', likes: 5120, format: 'text' }] });
		const out = await run('searches', 'searchInspirations', bundle({ search: 'fired', minLikes: 1000, format: 'text' }));
		expect(out).toEqual([{ id: 'ins_1', text: 'I was fired on a Tuesday…', likes: 5120, format: 'text' }]);
	});

	test('a miss is []', async () => {
		nock(ORIGIN).get('/api/v1/inspirations').query(true).reply(200, { data: [] });
		expect(await run('searches', 'searchInspirations', bundle({ search: 'nothing like this' }))).toEqual([]);
	});

	test('a negative minimum is refused before any request', async () => {
		const e = details(await rejection(run('searches', 'searchInspirations', bundle({ minLikes: -1 }))));
		expect(e.message).toMatch(/^Minimum Likes \(minLikes\): must be between 0 and/);
	});
});

const DRAFTS = [
	{ id: 'drf_1', text: 'Why we stopped estimating in story points', status: 'draft', scheduledAt: null },
	{ id: 'drf_2', text: 'Three lessons from shipping our API in public', status: 'scheduled', scheduledAt: '2030-01-01T09:00:00.000Z' },
];

describe('Find Draft', () => {
	test('by words of the text, by status, or by the draft picked', async () => {
		nock(ORIGIN).get('/api/v1/drafts').query(true).times(3).reply(200, { data: DRAFTS });
		expect((await run('searches', 'listDrafts', bundle({ search: 'API public' }))).map((d: any) => d.id)).toEqual(['drf_2']);
		expect((await run('searches', 'listDrafts', bundle({ status: 'draft' }))).map((d: any) => d.id)).toEqual(['drf_1']);
		expect((await run('searches', 'listDrafts', bundle({ draftId: 'drf_1' }))).map((d: any) => d.id)).toEqual(['drf_1']);
	});

	test('a miss is []', async () => {
		nock(ORIGIN).get('/api/v1/drafts').query(true).reply(200, { data: DRAFTS });
		expect(await run('searches', 'listDrafts', bundle({ search: 'no such words' }))).toEqual([]);
	});

	test('an empty search is not an error: every field empty finds nothing, without a request', async () => {
		// nock has no interceptor: a request would fail the step.
		expect(await run('searches', 'listDrafts', bundle({}))).toEqual([]);
		expect(await run('searches', 'listDrafts', bundle({ search: '  ', status: '', draftId: '' }))).toEqual([]);
	});
});

describe('Find Writing Profile', () => {
	const PROFILES = [
		{ id: 'wp_founder', name: 'Founder voice', active: true },
		{ id: 'wp_storyteller', name: 'Storyteller', active: false },
		{ id: 'wp_story_short', name: 'Story', active: false },
	];
	test('the exact name first, then names containing it; the active one', async () => {
		nock(ORIGIN).get('/api/v1/writing-profiles').query(true).times(2).reply(200, { writingProfiles: PROFILES });
		expect((await run('searches', 'listWritingProfiles', bundle({ name: 'story' }))).map((p: any) => p.id)).toEqual(['wp_story_short', 'wp_storyteller']);
		expect((await run('searches', 'listWritingProfiles', bundle({ activeOnly: true }))).map((p: any) => p.id)).toEqual(['wp_founder']);
	});

	test('a miss is []', async () => {
		nock(ORIGIN).get('/api/v1/writing-profiles').query(true).reply(200, { writingProfiles: PROFILES });
		expect(await run('searches', 'listWritingProfiles', bundle({ name: 'Poet' }))).toEqual([]);
	});
});

describe('the account profile (read by the connection test), Find Credit Balance', () => {
	test('the profile, with the balance as a number and the active writing profile', async () => {
		nock(ORIGIN)
			.get('/api/v1/account/profile')
			.reply(200, { id: 'acc_1', name: 'Dana', email: 'd@example.com', credits: { balance: 42 }, writingProfiles: [{ id: 'wp_a', name: 'A', active: true }] });
		const profile = await runAuthTest(bundle());
		expect(profile).toMatchObject({ id: 'acc_1', name: 'Dana', credits: 42, activeWritingProfile: { id: 'wp_a', name: 'A' }, connectionLabel: 'Dana (d@example.com)' });
		expect((App.searches as Record<string, unknown>).getAccountProfile).toBeUndefined();
	});

	test('Minimum Balance: the balance is found only when it is at least that much (D009: a search field)', async () => {
		nock(ORIGIN).get('/api/v1/credits').times(3).reply(200, { balance: 5, history: [] });
		expect(await run('searches', 'getCredits', bundle({ minBalance: '5' }))).toMatchObject([{ balance: 5 }]);
		expect(await run('searches', 'getCredits', bundle({ minBalance: 6 }))).toEqual([]);
		expect(await run('searches', 'getCredits', bundle({ minBalance: '' }))).toMatchObject([{ balance: 5 }]);
		const e = details(await rejection(run('searches', 'getCredits', bundle({ minBalance: 'ten' }))));
		expect(e.message).toMatch(/^Minimum Balance \(minBalance\): must be a whole number of credits of at least 0, got "ten"/);
	});

	test('the balance and the latest transactions', async () => {
		const history = Array.from({ length: 30 }, (_, i) => ({ id: `tx_${30 - i}`, amount: -1, operation: 'generate', balanceAfter: 70 + i, createdAt: '2026-11-21T09:00:00.000Z' }));
		nock(ORIGIN).get('/api/v1/credits').reply(200, { balance: 70, history });
		const [credits] = await run('searches', 'getCredits', bundle());
		expect(credits).toMatchObject({ id: 'credits', balance: 70, lastTransaction: { id: 'tx_30' } });
		expect(credits.history).toHaveLength(20);
	});
});
