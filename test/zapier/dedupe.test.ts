/**
 * Dedupe proof. Zapier fires a polled item when its id is new: the first poll
 * (made when the Zap is turned on) only seeds the set of seen ids, and each
 * later poll fires the items whose id it has not seen. Both triggers are
 * polled again and again against the sandbox while posts are published and
 * drafts are scheduled and rescheduled; every event must fire exactly once,
 * and a rescheduled draft exactly once more.
 *
 * Time: only Date is faked (timers stay real), so the app, the sandbox clock
 * (which follows Date) and the test move together when the test advances it.
 */
import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { bundle, run, ONLY_DATE } from './helpers';
import { MAX_PAGES, PAGE_SIZE } from '../../zapier/src/triggers/paging';

const MIN = 60_000;

/** Zapier's rule: an id is new once; the first poll seeds. */
class ZapierDedupe {
	private readonly seen = new Set<string>();
	private seeded = false;
	readonly fired: string[] = [];

	accept(items: Array<{ id: string }>): string[] {
		const ids = items.map((i) => i.id);
		expect(new Set(ids).size).toBe(ids.length); // a poll never repeats an id
		if (!this.seeded) {
			this.seeded = true;
			ids.forEach((id) => this.seen.add(id));
			return [];
		}
		const fresh = ids.filter((id) => !this.seen.has(id));
		fresh.forEach((id) => this.seen.add(id));
		this.fired.push(...fresh);
		return fresh;
	}
}

let sb: Sandbox;
const auth = () => ({ apiKey: sb.keys.full, baseUrl: sb.baseUrl });
const advance = (ms: number) => jest.setSystemTime(Date.now() + ms);

beforeEach(async () => {
	jest.useFakeTimers({ doNotFake: ONLY_DATE, now: Date.parse('2026-11-21T10:00:00Z') });
	sb = await startSandbox({ clockTicks: true, now: Date.now() });
});
afterEach(async () => {
	await sb.close();
	jest.useRealTimers();
});

test('New Published Post: each published post fires exactly once', async () => {
	const zap = new ZapierDedupe();
	const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'newPublishedPost', bundle({}, meta, auth()));

	expect(zap.accept(await poll({ isPopulatingDedupe: true }))).toEqual([]); // the 12 seeded posts are history

	const schedule = async (text: string, inMinutes: number) =>
		(await run('creates', 'createDraft', bundle({ text, scheduledAt: new Date(Date.now() + inMinutes * MIN).toISOString() }, {}, auth()))).id as string;
	await schedule('First', 10);
	await schedule('Second', 20);
	await schedule('Third, published at the same instant as the second', 20);
	expect(zap.accept(await poll())).toEqual([]);

	const published: string[] = [];
	for (let minute = 0; minute < 40; minute += 5) {
		advance(5 * MIN);
		published.push(...sb.publishDue().map((p) => p.id));
		zap.accept(await poll());
		zap.accept(await poll()); // the same moment polled twice fires nothing more
	}
	expect(published).toHaveLength(3);
	expect([...zap.fired].sort()).toEqual([...published].sort());
});

// 40 polls of up to 3 pages each against the sandbox: about 13 s alone, past jest's 30 s on a machine loaded by other suites.
test('New Published Post on an oldest-first /posts spanning pages: each post fires exactly once, in a bounded number of requests', async () => {
	sb.configure({ listOrder: 'oldest-first' });
	const account = sb.state.account(DEFAULT_ACCOUNT_ID);
	const publishAt = (times: number[]) => {
		for (const t of times) sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Post at ${new Date(t).toISOString()}`, new Date(t).toISOString());
		return sb.publishDue().map((p) => p.id);
	};
	// A history longer than one page, so that the newest posts are on the last page.
	publishAt(Array.from({ length: 230 }, (_, i) => Date.now() - (i + 1) * 3_600_000));
	const zap = new ZapierDedupe();
	const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'newPublishedPost', bundle({}, meta, auth()));
	expect(zap.accept(await poll({ isPopulatingDedupe: true }))).toEqual([]);

	let seed = 5;
	const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
	const published: string[] = [];
	const requests: number[] = [];
	for (let round = 0; round < 40; round++) {
		const before = Date.now();
		advance(5 * MIN);
		const count = rnd() < 0.3 ? 0 : 1 + Math.floor(rnd() * 8);
		const times = Array.from({ length: count }, () => before + 1 + Math.floor(rnd() * 5 * MIN));
		if (count > 1) times.push(times[0]); // two posts in the same millisecond
		published.push(...publishAt(times));
		sb.resetStats();
		zap.accept(await poll());
		requests.push(sb.stats.byRoute['GET /posts']);
		expect(requests[requests.length - 1]).toBe(Math.ceil(account.posts.length / PAGE_SIZE));
	}
	expect(published.length).toBeGreaterThan(100);
	expect([...zap.fired].sort()).toEqual([...published].sort());
	expect(Math.max(...requests)).toBeLessThanOrEqual(MAX_PAGES);
	process.stdout.write(
		`Zapier oldest first: ${account.posts.length} posts, ${Math.min(...requests)}..${Math.max(...requests)} requests per poll (pages of ${PAGE_SIZE}, at most ${MAX_PAGES})\n`,
	);
}, 90_000);

test('Upcoming Scheduled Draft: each (draft, time) fires once; a rescheduled draft fires exactly once more', async () => {
	const zap = new ZapierDedupe();
	const input = { notifyBefore: 60, notifyBeforeUnit: 'minutes' };
	const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'upcomingScheduledDraft', bundle(input, { timezone: 'Europe/Paris', ...meta }, auth()));
	const createAt = async (text: string, inMinutes: number) =>
		(await run('creates', 'createDraft', bundle({ text, scheduledAt: new Date(Date.now() + inMinutes * MIN).toISOString() }, {}, auth()))).id as string;
	const reschedule = (id: string, inMinutes: number) => {
		const draft = sb.state.account(DEFAULT_ACCOUNT_ID).drafts.find((d) => d.id === id);
		if (!draft) throw new Error(`no draft ${id}`);
		draft.scheduledAt = new Date(Date.now() + inMinutes * MIN).toISOString();
		draft.updatedAt = new Date().toISOString();
	};

	expect(zap.accept(await poll({ isPopulatingDedupe: true }))).toEqual([]);
	const a = await createAt('Draft A', 90);
	const b = await createAt('Draft B', 150);

	const firedAt: Record<string, number> = {};
	const step = async (minutes: number) => {
		advance(minutes * MIN);
		sb.publishDue();
		for (const id of zap.accept(await poll())) firedAt[id] = Date.now();
	};

	await step(15); // A at +75: not yet within the hour
	expect(zap.fired).toEqual([]);
	await step(20); // A at +55: fires
	expect(zap.fired).toEqual([expect.stringMatching(new RegExp(`^${a}:`))]);
	await step(5);
	await step(5); // polled again while A stays in the window: nothing more

	reschedule(a, 100); // A moves out of the window
	await step(5);
	expect(zap.fired).toHaveLength(1);
	for (let i = 0; i < 12; i++) await step(5); // A comes back within the hour, B enters it; then both are published

	const forA = zap.fired.filter((id) => id.startsWith(`${a}:`));
	const forB = zap.fired.filter((id) => id.startsWith(`${b}:`));
	expect(forA).toHaveLength(2); // the first time, and once more after the reschedule
	expect(new Set(forA).size).toBe(2);
	expect(forB).toHaveLength(1);
	expect(zap.fired).toHaveLength(3);
	// Each fired while its time still lay ahead, within the notice.
	for (const id of zap.fired) {
		const at = Date.parse(id.slice(id.indexOf(':') + 1));
		expect(at).toBeGreaterThan(firedAt[id]);
		expect(at - firedAt[id]).toBeLessThanOrEqual(60 * MIN);
	}
});

describe('the later triggers under Zapier\'s dedupe', () => {
	const DAY = 86_400_000;
	const account = () => sb.state.account(DEFAULT_ACCOUNT_ID);
	let seed = 9;
	const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

	test('New Post Milestone: once per post crossing the threshold, newest post first, none of those there at activation; 60 polls over 15 days', async () => {
		const input = { metric: 'likes', threshold: '450', watchDays: '7' };
		const zap = new ZapierDedupe();
		const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'postMetricMilestone', bundle(input, meta, auth()));
		const overNow = () => {
			const since = Date.now() - 7 * DAY;
			return account().posts.filter((p) => Date.parse(p.publishedAt) >= since && p.metrics.likes >= 450).map((p) => p.id);
		};
		const seeded = await poll({ isPopulatingDedupe: true });
		expect(zap.accept(seeded)).toEqual([]);
		const atActivation = new Set(overNow());
		const expected = new Set<string>();
		for (let round = 0; round < 60; round++) {
			advance(Math.floor(rnd() * 6 * 3_600_000));
			if (rnd() < 0.3) {
				sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Post ${round}`, new Date(Date.now() - 1000).toISOString());
				sb.publishDue();
			}
			for (const p of account().posts.filter((x) => Date.parse(x.publishedAt) > Date.now() - 9 * DAY)) {
				if (rnd() < 0.2) sb.state.setMetrics(DEFAULT_ACCOUNT_ID, p.id, { likes: p.metrics.likes + Math.floor(rnd() * 60) });
			}
			for (const id of overNow()) if (!atActivation.has(id)) expected.add(id);
			const items = await poll();
			const at = items.map((i: { publishedAt: string }) => Date.parse(i.publishedAt));
			expect([...at].sort((a, b) => b - a)).toEqual(at); // newest first
			zap.accept(items);
			expect([...zap.fired].sort()).toEqual([...expected].map((id) => `${id}:likes:450`).sort());
		}
		expect(expected.size).toBeGreaterThan(5);
	});

	test('New Draft: once per draft, by any route, newest first; 40 polls', async () => {
		const zap = new ZapierDedupe();
		const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'newDraft', bundle({}, { timezone: 'Europe/Paris', ...meta }, auth()));
		expect(zap.accept(await poll({ isPopulatingDedupe: true }))).toEqual([]);
		const created: string[] = [];
		for (let round = 0; round < 40; round++) {
			advance(Math.floor(1 + rnd() * 10) * MIN);
			const n = rnd() < 0.3 ? 0 : 1 + Math.floor(rnd() * 3);
			for (let i = 0; i < n; i++) {
				if (rnd() < 0.5) created.push((await run('creates', 'createDraft', bundle({ text: `Zap draft ${round}.${i}` }, {}, auth()))).id);
				else created.push(sb.state.createDraft(DEFAULT_ACCOUNT_ID, `App draft ${round}.${i}`, null).id);
			}
			const items = await poll();
			const at = items.map((i: { createdAt: string }) => Date.parse(i.createdAt));
			expect([...at].sort((a, b) => b - a)).toEqual(at);
			zap.accept(items);
			expect([...zap.fired].sort()).toEqual([...created].sort());
		}
		expect(created.length).toBeGreaterThan(30);
	});

	test('Low Credit Balance: once per fall below the threshold, re-armed by a top-up, a fall and top-up between polls included', async () => {
		const zap = new ZapierDedupe();
		const threshold = 60;
		const poll = (meta: Record<string, unknown> = {}) => run('triggers', 'creditsLow', bundle({ threshold: String(threshold) }, meta, auth()));
		sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -50); // 50: below at activation
		expect(zap.accept(await poll({ isPopulatingDedupe: true }))).toEqual([]);
		const from = account().history.length;
		for (let round = 0; round < 50; round++) {
			advance(MIN);
			const r = rnd();
			if (r < 0.4) sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -Math.floor(rnd() * 10));
			else if (r < 0.7) sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, Math.floor(rnd() * 20), 'grant');
			else if (r < 0.8 && account().credits >= threshold) {
				sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, threshold - 1 - account().credits);
				sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 30, 'grant');
			}
			zap.accept(await poll());
			const expected = account()
				.history.slice(from)
				.filter((tx) => tx.balanceAfter - tx.amount >= threshold && tx.balanceAfter < threshold)
				.map((tx) => `${tx.id}:${threshold}`);
			expect(zap.fired).toEqual(expected);
		}
		expect(zap.fired.length).toBeGreaterThan(2);
	});
});
