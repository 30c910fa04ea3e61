/**
 * The hidden dropdown triggers page (canPaginate): each page Zapier asks for
 * (bundle.meta.page) is one page of the API, started from the cursor or
 * offset the previous page kept with z.cursor; without a kept cursor the page
 * is reached from the first one, and is the same. Against a sandbox that holds
 * hundreds of drafts, and with nock for the writing profiles.
 */
import nock from 'nock';
import { startSandbox, DEFAULT_ACCOUNT_ID } from '../../sandbox';
import type { ListShape, Sandbox } from '../../sandbox';
import { DROPDOWN_PAGE_SIZE } from '../../zapier/src/triggers/dropdown';
import { App, BASE, ORIGIN, appTester, bundle, trigger } from './helpers';

type Obj = Record<string, any>;

/**
 * Runs a hidden trigger's perform for one page with z.cursor as Zapier keeps
 * it: what page N sets, page N + 1 gets (appTester has no cursor store).
 */
function withCursorStore(key: string, auth: Obj) {
	const kept = new Map<number, string>();
	const perform = trigger(key).operation.perform as (z: any, b: any) => Promise<Obj[]>;
	return {
		kept,
		page: (page: number): Promise<Obj[]> =>
			appTester(async (z: any, b: any) => {
				z.cursor = {
					get: async () => kept.get(page) ?? null,
					set: async (value: string) => {
						kept.set(page + 1, value);
						return null;
					},
				};
				return perform(z, b);
			}, bundle({}, { isFillingDynamicDropdown: true, page }, auth)),
	};
}

test('both dropdown triggers are hidden polling triggers that page', () => {
	for (const key of ['listDrafts', 'listWritingProfiles']) {
		const t = (App.triggers as Obj)[key];
		expect(t.display.hidden).toBe(true);
		expect(t.operation).toMatchObject({ type: 'polling', canPaginate: true });
	}
});

describe('against a sandbox holding hundreds of drafts', () => {
	let sb: Sandbox;
	let auth: Obj;
	let all: string[];
	const TOTAL_ADDED = 300;

	beforeAll(async () => {
		sb = await startSandbox();
		for (let i = 0; i < TOTAL_ADDED; i++) sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Draft number ${i} about paging.`, null);
		auth = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
		all = sb.state.listDrafts(DEFAULT_ACCOUNT_ID).map((d) => d.id);
		expect(all.length).toBeGreaterThan(TOTAL_ADDED);
	});
	afterAll(() => sb.close());
	afterEach(() => sb.configure({ listShape: 'data-cursor' }));

	test.each<ListShape>(['data-cursor', 'items-offset', 'named'])('every draft can be picked, page by page, one request a page (%s)', async (shape) => {
		sb.configure({ listShape: shape });
		const store = withCursorStore('listDrafts', auth);
		const seen: string[] = [];
		const pages = Math.ceil(all.length / DROPDOWN_PAGE_SIZE);
		for (let page = 0; page < pages; page++) {
			sb.resetStats();
			const items = await store.page(page);
			expect(sb.stats.byRoute['GET /drafts']).toBe(1);
			expect(items.length).toBe(page < pages - 1 ? DROPDOWN_PAGE_SIZE : all.length - page * DROPDOWN_PAGE_SIZE);
			expect(items.every((d) => typeof d.label === 'string' && d.label !== '')).toBe(true);
			seen.push(...items.map((d) => d.id));
		}
		expect(seen).toEqual(all); // all of them, in the API's order, none twice
		// The page after the last is empty, without a request: Zapier stops asking.
		sb.resetStats();
		expect(await store.page(pages)).toEqual([]);
		expect(sb.stats.byRoute['GET /drafts'] ?? 0).toBe(0);
	});

	test('without a cursor store (as in appTester), page N is read from the first page, and is the same page', async () => {
		const store = withCursorStore('listDrafts', auth);
		await store.page(0);
		await store.page(1);
		await store.page(2);
		const viaCursor = (await store.page(3)).map((d) => d.id);
		sb.resetStats();
		const walked = ((await appTester(trigger('listDrafts').operation.perform as any, bundle({}, { isFillingDynamicDropdown: true, page: 3 }, auth))) as Obj[]).map((d) => d.id);
		expect(walked).toEqual(viaCursor);
		expect(walked).toEqual(all.slice(3 * DROPDOWN_PAGE_SIZE, 4 * DROPDOWN_PAGE_SIZE));
		expect(sb.stats.byRoute['GET /drafts']).toBe(4);
		// Past the end: empty.
		expect(await appTester(trigger('listDrafts').operation.perform as any, bundle({}, { page: 99 }, auth))).toEqual([]);
	});

	test('a list served whole (no paging in the response): page 0 has it all, page 1 is empty', async () => {
		sb.configure({ listShape: 'bare' });
		const store = withCursorStore('listDrafts', auth);
		expect((await store.page(0)).map((d) => d.id)).toEqual(all);
		expect(await store.page(1)).toEqual([]);
	});
});

describe('writing profiles, from the API cursor (nock)', () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => nock.enableNetConnect());

	test('page 1 is asked with the cursor page 0 got', async () => {
		const profile = (i: number) => ({ id: `wp_${i}`, name: `Profile ${i}`, active: i === 0 });
		nock(ORIGIN)
			.get('/api/v1/writing-profiles')
			.query({ limit: String(DROPDOWN_PAGE_SIZE) })
			.reply(200, { data: Array.from({ length: 50 }, (_, i) => profile(i)), nextCursor: 'abc' });
		nock(ORIGIN)
			.get('/api/v1/writing-profiles')
			.query({ limit: String(DROPDOWN_PAGE_SIZE), cursor: 'abc' })
			.reply(200, { data: Array.from({ length: 7 }, (_, i) => profile(50 + i)), nextCursor: null });
		const store = withCursorStore('listWritingProfiles', { apiKey: 'pw_live_x', baseUrl: BASE });
		const first = await store.page(0);
		expect(first[0]).toMatchObject({ id: 'wp_0', label: 'Profile 0 (active)' });
		const second = await store.page(1);
		expect(second.map((p) => p.id)).toEqual(['wp_50', 'wp_51', 'wp_52', 'wp_53', 'wp_54', 'wp_55', 'wp_56']);
		expect(await store.page(2)).toEqual([]);
		expect(nock.isDone()).toBe(true);
	});
});
