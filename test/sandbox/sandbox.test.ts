/**
 * The sandbox server, driven with plain fetch (and, at the end, with the
 * shared client), on 127.0.0.1 port 0. Every server is closed by its block.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startSandbox } from '../../sandbox';
import type { Sandbox, SandboxOptions } from '../../sandbox';
import { createClient, parseRetryDelay, readRateLimit } from '../../shared/client';
import { extractErrorInfo } from '../../shared/errors';
import type { HttpResponse, Send } from '../../shared/base';
import { normaliseList } from '../../shared/lists';

const T0 = Date.parse('2026-11-21T09:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

interface Reply {
	status: number;
	headers: Headers;
	text: string;
	json: any;
}

interface CallOptions {
	key?: string | null;
	body?: unknown;
	raw?: string;
	authorization?: string;
	signal?: AbortSignal;
}

async function call(sb: Sandbox, method: string, route: string, options: CallOptions = {}): Promise<Reply> {
	const headers: Record<string, string> = {};
	if (options.authorization !== undefined) headers.Authorization = options.authorization;
	else if (options.key !== null) headers.Authorization = `Bearer ${options.key ?? sb.keys.full}`;
	let body: string | undefined;
	if (options.raw !== undefined) body = options.raw;
	else if (options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	const res = await fetch(`${sb.baseUrl}${route}`, { method, headers, body, signal: options.signal });
	const text = await res.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

const errorOf = (r: Reply) => r.json?.error as { code: string; message: string };

async function withSandbox(options: Partial<SandboxOptions>, fn: (sb: Sandbox) => Promise<void>): Promise<void> {
	const sb = await startSandbox({ now: T0, ...options });
	try {
		await fn(sb);
	} finally {
		await sb.close();
	}
}

/** Walks a creation workflow up to (and including) write. */
async function writtenWorkflow(sb: Sandbox, topic = 'a four-day week'): Promise<string> {
	const ideas = await call(sb, 'POST', '/creation/ideas', { body: { topic } });
	const workflowId = ideas.json.workflowId as string;
	const prep = await call(sb, 'POST', '/creation/prepare', { body: { workflowId, ideaId: 'idea_2' } });
	const answers = (prep.json.questions as { id: string }[]).map((q) => ({ questionId: q.id, answer: `Answer to ${q.id}` }));
	const write = await call(sb, 'POST', '/creation/write', { body: { workflowId, answers } });
	expect(write.status).toBe(200);
	return workflowId;
}

describe('sandbox: endpoints', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ now: T0 });
	});
	afterAll(() => sb.close());

	test('handle: base URL, keys, clock', () => {
		expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}/api/v1`);
		for (const key of Object.values(sb.keys)) expect(key).toMatch(/^pw_live_[0-9a-f]{32}$/);
		expect(new Set(Object.values(sb.keys)).size).toBe(6);
		expect(sb.clock.now()).toBe(T0);
	});

	test('POST /generate: proposals, saved draft, credits, prompt words in the text, deterministic', async () => {
		const before = sb.state.account('acc_1').credits;
		const r = await call(sb, 'POST', '/generate', { body: { prompt: 'remote onboarding', numProposals: 3 } });
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toMatch(/application\/json/);
		expect(r.json.proposals).toHaveLength(3);
		expect(new Set(r.json.proposals).size).toBe(3);
		for (const p of r.json.proposals) expect(p).toContain('remote onboarding');
		expect(r.json.draftId).toMatch(/^drf_/);
		expect(r.json.creditsRemaining).toBe(before - 1);
		const drafts = await call(sb, 'GET', '/drafts');
		const draft = drafts.json.data.find((d: { id: string }) => d.id === r.json.draftId);
		expect(draft).toMatchObject({ text: r.json.proposals[0], status: 'draft', scheduledAt: null });
		const again = await call(sb, 'POST', '/generate', { body: { prompt: 'remote onboarding', numProposals: 3, saveDraft: false } });
		expect(again.json.proposals).toEqual(r.json.proposals);
		expect(again.json.draftId).toBeNull();
	});

	test('POST /generate with scheduledAt schedules the draft; default numProposals is 1', async () => {
		const at = new Date(T0 + 2 * DAY).toISOString();
		const r = await call(sb, 'POST', '/generate', { body: { prompt: 'pricing', scheduledAt: at } });
		expect(r.status).toBe(200);
		expect(r.json.proposals).toHaveLength(1);
		const draft = sb.state.account('acc_1').drafts.find((d) => d.id === r.json.draftId);
		expect(draft).toMatchObject({ status: 'scheduled', scheduledAt: at });
	});

	test('POST /generate validation names the field', async () => {
		const cases: [unknown, string, RegExp][] = [
			[{}, 'prompt', /prompt is required/],
			[{ prompt: '   ' }, 'prompt', /prompt must not be empty/],
			[{ prompt: 7 }, 'prompt', /prompt must be a string/],
			[{ prompt: 'x', numProposals: 11 }, 'numProposals', /numProposals must be an integer between 1 and 10/],
			[{ prompt: 'x', numProposals: 1.5 }, 'numProposals', /numProposals must be an integer between 1 and 10/],
			[{ prompt: 'x', saveDraft: 'yes' }, 'saveDraft', /saveDraft must be a boolean/],
			[{ prompt: 'x', scheduledAt: '2026-12-01T09:00:00' }, 'scheduledAt', /scheduledAt must be an ISO 8601 UTC timestamp/],
			[{ prompt: 'x', scheduledAt: '2020-01-01T09:00:00Z' }, 'scheduledAt', /scheduledAt must be in the future/],
			[{ prompt: 'x', saveDraft: false, scheduledAt: '2027-01-01T09:00:00Z' }, 'scheduledAt', /requires saveDraft/],
		];
		const before = sb.state.account('acc_1').credits;
		for (const [body, field, message] of cases) {
			const r = await call(sb, 'POST', '/generate', { body });
			expect(r.status).toBe(400);
			expect(errorOf(r).code).toBe('VALIDATION_ERROR');
			expect(errorOf(r).message).toMatch(message);
			expect(r.json.error.field).toBe(field);
		}
		expect(sb.state.account('acc_1').credits).toBe(before);
	});

	test('POST /analyze, /rewrite, /virality', async () => {
		const text = 'I was wrong about hiring.\n\nWe hired 3 people in 2 weeks, and it hurt.\n\nWhat would you do?';
		const a = await call(sb, 'POST', '/analyze', { body: { text } });
		expect(a.status).toBe(200);
		expect(a.json.rules.length).toBeGreaterThan(0);
		expect(a.json.tactics.length).toBeGreaterThan(0);
		expect(typeof a.json.summary).toBe('string');
		expect(typeof a.json.creditsRemaining).toBe('number');
		const rw = await call(sb, 'POST', '/rewrite', { body: { text, instruction: 'Make it shorter' } });
		expect(rw.status).toBe(200);
		expect(rw.json.instruction).toBe('Make it shorter');
		expect(rw.json.text).toContain('I was wrong about hiring');
		expect(rw.json.creditsRemaining).toBe(a.json.creditsRemaining - 1);
		const v = await call(sb, 'POST', '/virality', { body: { text } });
		expect(v.status).toBe(200);
		expect(v.json.score).toBeGreaterThanOrEqual(0);
		expect(v.json.score).toBeLessThanOrEqual(100);
		expect(['low', 'medium', 'high']).toContain(v.json.level);
		expect(Array.isArray(v.json.factors)).toBe(true);
		expect(v.json.creditsRemaining).toBeUndefined();
	});

	test('POST /drafts: 201, plain and scheduled; scheduling needs posts:schedule', async () => {
		const plain = await call(sb, 'POST', '/drafts', { body: { text: 'Plain draft' } });
		expect(plain.status).toBe(201);
		expect(plain.json).toMatchObject({ text: 'Plain draft', status: 'draft', scheduledAt: null });
		expect(plain.json.id).toMatch(/^drf_/);
		const at = '2026-11-25T10:00:00+02:00';
		const sched = await call(sb, 'POST', '/drafts', { body: { text: 'Scheduled draft', scheduledAt: at } });
		expect(sched.status).toBe(201);
		expect(sched.json).toMatchObject({ status: 'scheduled', scheduledAt: '2026-11-25T08:00:00.000Z' });

		const writer = 'pw_live_writer0000000000000000000000000';
		sb.state.addKey({ key: writer, name: 'writer', accountId: 'acc_1', scopes: ['posts:write', 'posts:generate'], revoked: false, expiresAt: null });
		const ok = await call(sb, 'POST', '/drafts', { key: writer, body: { text: 'no schedule' } });
		expect(ok.status).toBe(201);
		const refused = await call(sb, 'POST', '/drafts', { key: writer, body: { text: 'x', scheduledAt: '2027-01-01T00:00:00Z' } });
		expect(refused.status).toBe(403);
		expect(errorOf(refused)).toEqual({ code: 'MISSING_SCOPE', message: 'Missing required scope: posts:schedule' });
		const gen = await call(sb, 'POST', '/generate', { key: writer, body: { prompt: 'x', scheduledAt: '2027-01-01T00:00:00Z' } });
		expect(gen.status).toBe(403);
		expect(errorOf(gen).message).toBe('Missing required scope: posts:schedule');
	});

	test('GET /posts: newest first, metrics, pagination by opaque cursor', async () => {
		const first = await call(sb, 'GET', '/posts?limit=5');
		expect(first.status).toBe(200);
		expect(first.json.data).toHaveLength(5);
		const post = first.json.data[0];
		expect(post).toMatchObject({ id: expect.stringMatching(/^pst_/), text: expect.any(String), publishedAt: expect.any(String) });
		expect(Object.keys(post.metrics).sort()).toEqual(['comments', 'impressions', 'likes', 'shares']);
		const all: { publishedAt: string; id: string }[] = [...first.json.data];
		let cursor: string | null = first.json.nextCursor;
		expect(typeof cursor).toBe('string');
		while (cursor) {
			const page = await call(sb, 'GET', `/posts?limit=5&cursor=${encodeURIComponent(cursor)}`);
			all.push(...page.json.data);
			cursor = page.json.nextCursor;
		}
		expect(all).toHaveLength(12);
		const sorted = [...all].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.id.localeCompare(b.id));
		expect(all).toEqual(sorted);
		const dflt = await call(sb, 'GET', '/posts');
		expect(dflt.json.data).toHaveLength(12);
		expect(dflt.json.nextCursor).toBeNull();
		expect((await call(sb, 'GET', '/posts?limit=0')).status).toBe(400);
		const bad = await call(sb, 'GET', '/posts?cursor=bm9wZQ');
		expect(bad.status).toBe(400);
		expect(errorOf(bad).message).toMatch(/cursor/);
	});

	test('GET /calendar: entries of both kinds sorted by date; date validation', async () => {
		const r = await call(sb, 'GET', '/calendar?from=2026-11-18&to=2026-11-30');
		expect(r.status).toBe(200);
		expect(r.json.from).toBe('2026-11-18');
		expect(r.json.to).toBe('2026-11-30');
		const types = new Set(r.json.entries.map((e: { type: string }) => e.type));
		expect(types).toEqual(new Set(['scheduled', 'published']));
		const dates = r.json.entries.map((e: { date: string }) => e.date);
		expect(dates).toEqual([...dates].sort());
		for (const e of r.json.entries) {
			if (e.type === 'published') expect(e.postId).toBe(e.id);
			else expect(e.draftId).toBe(e.id);
			expect(e.date >= '2026-11-18T00:00:00.000Z' && e.date < '2026-12-01T00:00:00.000Z').toBe(true);
		}
		const bad: [string, RegExp][] = [
			['?from=2026-11-18', /to is required/],
			['?from=2026-02-30&to=2026-03-01', /from is not a real calendar date/],
			['?from=18/11/2026&to=2026-11-30', /from must be a date written YYYY-MM-DD/],
			['?from=2026-11-30&to=2026-11-18', /to \(2026-11-18\) must not be before from/],
			['?from=2026-01-01&to=2026-04-03', /at most 92 days/],
		];
		for (const [q, message] of bad) {
			const b = await call(sb, 'GET', `/calendar${q}`);
			expect(b.status).toBe(400);
			expect(errorOf(b).message).toMatch(message);
		}
		expect((await call(sb, 'GET', '/calendar?from=2026-01-01&to=2026-04-02')).status).toBe(200);
	});

	test('GET /inspirations: search, minLikes, format', async () => {
		const all = await call(sb, 'GET', '/inspirations?limit=100');
		expect(all.json.data).toHaveLength(12);
		const s = await call(sb, 'GET', '/inspirations?search=CAROUSEL');
		expect(s.json.data).toHaveLength(1);
		expect(s.json.data[0].text.toLowerCase()).toContain('carousel');
		const likes = await call(sb, 'GET', '/inspirations?minLikes=5000');
		expect(likes.json.data.length).toBeGreaterThan(0);
		for (const i of likes.json.data) expect(i.likes).toBeGreaterThanOrEqual(5000);
		const poll = await call(sb, 'GET', '/inspirations?format=poll');
		expect(poll.json.data.map((i: { format: string }) => i.format)).toEqual(['poll']);
		const bad = await call(sb, 'GET', '/inspirations?minLikes=lots');
		expect(bad.status).toBe(400);
		expect(errorOf(bad).message).toMatch(/minLikes must be an integer/);
	});

	test('account profile, credits, writing profiles, activate', async () => {
		const profile = await call(sb, 'GET', '/account/profile', { key: sb.keys.readonly });
		expect(profile.status).toBe(200);
		expect(profile.json).toMatchObject({ id: 'acc_1', name: 'Sandbox User', email: expect.stringContaining('@') });
		expect(profile.json.credits).toBe(sb.state.account('acc_1').credits);
		expect(profile.json.writingProfiles).toHaveLength(3);
		const credits = await call(sb, 'GET', '/credits', { key: sb.keys.readonly });
		expect(credits.json.balance).toBe(profile.json.credits);
		const history = credits.json.history as { amount: number; operation: string; balanceAfter: number; id: string; createdAt: string }[];
		expect(history[history.length - 1]).toMatchObject({ amount: 100, operation: 'grant', balanceAfter: 100 });
		expect(history[0].balanceAfter).toBe(credits.json.balance);
		for (const tx of history.slice(0, -1)) {
			expect(tx.amount).toBe(-1);
			expect(['generate', 'analyze', 'rewrite']).toContain(tx.operation);
		}
		const list = await call(sb, 'GET', '/writing-profiles');
		expect(list.json.data.filter((p: { active: boolean }) => p.active)).toHaveLength(1);
		const act = await call(sb, 'POST', '/writing-profiles/wp_storyteller/activate');
		expect(act.status).toBe(200);
		expect(act.json).toMatchObject({ id: 'wp_storyteller', name: 'Storyteller', active: true });
		const after = await call(sb, 'GET', '/writing-profiles');
		expect(after.json.data.filter((p: { active: boolean }) => p.active).map((p: { id: string }) => p.id)).toEqual(['wp_storyteller']);
		const missing = await call(sb, 'POST', '/writing-profiles/wp_nope/activate');
		expect(missing.status).toBe(404);
		expect(errorOf(missing).code).toBe('WRITING_PROFILE_NOT_FOUND');
		expect(errorOf(missing).message).toContain('wp_nope');
		const ro = await call(sb, 'POST', '/writing-profiles/wp_founder/activate', { key: sb.keys.readonly });
		expect(ro.status).toBe(403);
		expect(errorOf(ro).message).toBe('Missing required scope: account:write');
	});

	test('the four 401s and a 403', async () => {
		const expectAuth = async (opts: CallOptions, message: string) => {
			const r = await call(sb, 'GET', '/account/profile', opts);
			expect(r.status).toBe(401);
			expect(errorOf(r).message).toBe(message);
		};
		await expectAuth({ key: null }, 'Missing or invalid Authorization header');
		await expectAuth({ authorization: `Token ${sb.keys.full}` }, 'Missing or invalid Authorization header');
		await expectAuth({ authorization: 'Bearer sk_test_123' }, 'Missing or invalid Authorization header');
		await expectAuth({ key: 'pw_live_00000000000000000000000000000000' }, 'Invalid API key');
		await expectAuth({ key: sb.keys.revoked }, 'API key has been revoked');
		await expectAuth({ key: sb.keys.expired }, 'API key has expired');
		const r = await call(sb, 'POST', '/generate', { key: sb.keys.readonly, body: { prompt: 'x' } });
		expect(r.status).toBe(403);
		expect(errorOf(r)).toEqual({ code: 'MISSING_SCOPE', message: 'Missing required scope: posts:generate' });
	});

	test('a key expiring on the sandbox clock', async () => {
		const key = 'pw_live_expiring000000000000000000000000';
		sb.state.addKey({ key, name: 'soon', accountId: 'acc_1', scopes: ['account:read'], revoked: false, expiresAt: sb.clock.now() + 1000 });
		expect((await call(sb, 'GET', '/credits', { key })).status).toBe(200);
		sb.clock.advance(1000);
		const r = await call(sb, 'GET', '/credits', { key });
		expect(errorOf(r).message).toBe('API key has expired');
		sb.clock.set(T0);
	});

	test('invalid JSON, non-object body, oversized body, unknown path, wrong method', async () => {
		const bad = await call(sb, 'POST', '/generate', { raw: '{"prompt": ' });
		expect(bad.status).toBe(400);
		expect(errorOf(bad).code).toBe('INVALID_JSON');
		const arr = await call(sb, 'POST', '/generate', { raw: '["x"]' });
		expect(arr.status).toBe(400);
		expect(errorOf(arr).code).toBe('VALIDATION_ERROR');
		// A body in text/plain is accepted when it parses.
		const res = await fetch(`${sb.baseUrl}/virality`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sb.keys.full}`, 'Content-Type': 'text/plain' },
			body: JSON.stringify({ text: 'hello world' }),
		});
		expect(res.status).toBe(200);
		await res.text();
		const big = await call(sb, 'POST', '/generate', { body: { prompt: 'x'.repeat(70 * 1024) } });
		expect(big.status).toBe(413);
		expect(errorOf(big).code).toBe('PAYLOAD_TOO_LARGE');
		// The server is still fine afterwards.
		expect((await call(sb, 'GET', '/account/profile')).status).toBe(200);
		const missing = await call(sb, 'GET', '/nope');
		expect(missing.status).toBe(404);
		expect(errorOf(missing).code).toBe('NOT_FOUND');
		const outside = await call(sb, 'GET', '/../../other');
		expect(outside.status).toBe(404);
		expect(outside.json).toBeDefined();
		const method = await call(sb, 'GET', '/generate');
		expect(method.status).toBe(405);
		expect(errorOf(method).code).toBe('METHOD_NOT_ALLOWED');
		expect(method.headers.get('allow')).toBe('POST');
	});

	test('rate-limit headers on every response; stats per route', async () => {
		sb.resetStats();
		const r = await call(sb, 'GET', '/drafts');
		expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(600);
		expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
		const g = await call(sb, 'POST', '/generate', { body: { prompt: 'x', saveDraft: false } });
		expect(g.headers.get('x-ratelimit-limit')).toBe('60');
		await call(sb, 'POST', '/writing-profiles/wp_founder/activate');
		await call(sb, 'GET', '/nope');
		expect(sb.stats.requests).toBe(4);
		expect(sb.stats.byRoute).toEqual({
			'GET /drafts': 1,
			'POST /generate': 1,
			'POST /writing-profiles/:id/activate': 1,
			'GET /nope': 1,
		});
		expect(sb.stats.paidCalls).toBe(1);
		expect(sb.stats.creditsSpent).toBe(1);
		expect(sb.stats.chargesByInput).toEqual({ 'generate:x': 1 });
	});

	test('chargesByInput counts charges per paid input; refused calls are not counted; resetStats clears it', async () => {
		sb.resetStats();
		await call(sb, 'POST', '/generate', { body: { prompt: 'same', saveDraft: false } });
		await call(sb, 'POST', '/generate', { body: { prompt: 'same', saveDraft: false } });
		await call(sb, 'POST', '/generate', { body: { prompt: 'other', saveDraft: false } });
		await call(sb, 'POST', '/generate', { body: { prompt: 'bad', numProposals: 99, saveDraft: false } });
		await call(sb, 'POST', '/analyze', { body: { text: 'A post to analyse.' } });
		expect(sb.stats.chargesByInput).toEqual({ 'generate:same': 2, 'generate:other': 1, 'analyze:A post to analyse.': 1 });
		expect(sb.stats.paidCalls).toBe(4);
		sb.resetStats();
		expect(sb.stats.chargesByInput).toEqual({});
	});
});

describe('sandbox: credits', () => {
	test('1 credit per paid call, none for virality or creation; 402 when out of credits', async () => {
		await withSandbox({ credits: 3 }, async (sb) => {
			await call(sb, 'POST', '/virality', { body: { text: 'x' } });
			await writtenWorkflow(sb);
			await call(sb, 'POST', '/drafts', { body: { text: 'x' } });
			expect(sb.state.account('acc_1').credits).toBe(3);
			expect((await call(sb, 'POST', '/generate', { body: { prompt: 'a' } })).json.creditsRemaining).toBe(2);
			expect((await call(sb, 'POST', '/analyze', { body: { text: 'a' } })).json.creditsRemaining).toBe(1);
			expect((await call(sb, 'POST', '/rewrite', { body: { text: 'a b', instruction: 'shorter' } })).json.creditsRemaining).toBe(0);
			const drafts = sb.state.account('acc_1').drafts.length;
			const r = await call(sb, 'POST', '/generate', { body: { prompt: 'a' } });
			expect(r.status).toBe(402);
			expect(errorOf(r)).toEqual({ code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits: this call costs 1 credit and the balance is 0' });
			expect(sb.state.account('acc_1').drafts.length).toBe(drafts);
			expect((await call(sb, 'POST', '/virality', { body: { text: 'x' } })).status).toBe(200);
			expect(sb.stats.paidCalls).toBe(3);
			expect(sb.stats.creditsSpent).toBe(3);
			const broke = await call(sb, 'POST', '/analyze', { key: sb.keys.noCredits, body: { text: 'x' } });
			expect(broke.status).toBe(402);
		});
	});
});

describe('sandbox: rate limits', () => {
	test('429 with each retry header variant; /generate has its own quota; no credits spent', async () => {
		await withSandbox({ quota: { generate: { limit: 1, windowMs: 60_000 } } }, async (sb) => {
			const variants = ['seconds', 'http-date', 'reset'] as const;
			for (const retryHeader of variants) {
				sb.resetRateLimits();
				sb.configure({ retryHeader });
				expect((await call(sb, 'POST', '/generate', { body: { prompt: 'x' } })).status).toBe(200);
				const credits = sb.state.account('acc_1').credits;
				const paidCalls = sb.stats.paidCalls;
				const r = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
				expect(r.status).toBe(429);
				expect(errorOf(r)).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded' });
				expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
				expect(r.headers.get('x-ratelimit-limit')).toBe('1');
				expect(sb.state.account('acc_1').credits).toBe(credits);
				expect(sb.stats.paidCalls).toBe(paidCalls);
				const now = Date.now();
				const headers = Object.fromEntries(r.headers.entries());
				const delay = parseRetryDelay(headers, now);
				expect(delay).toBeGreaterThan(0);
				expect(delay).toBeLessThanOrEqual(61_000);
				if (retryHeader === 'seconds') {
					expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
					expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
				} else if (retryHeader === 'http-date') {
					expect(r.headers.get('retry-after')).toMatch(/GMT$/);
					expect(Date.parse(r.headers.get('retry-after') as string)).toBeGreaterThanOrEqual(now + 59_000);
				} else {
					expect(r.headers.get('retry-after')).toBeNull();
					expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(now / 1000) + 59);
				}
				// The default quota is untouched.
				expect((await call(sb, 'GET', '/credits')).status).toBe(200);
				// Another key has its own window.
				expect((await call(sb, 'POST', '/generate', { key: sb.keys.other, body: { prompt: 'x' } })).status).toBe(200);
			}
		});
	});

	test('the window resets after windowMs (real time)', async () => {
		await withSandbox({ quota: { default: { limit: 2, windowMs: 300 } } }, async (sb) => {
			expect((await call(sb, 'GET', '/drafts')).headers.get('x-ratelimit-remaining')).toBe('1');
			expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
			const r = await call(sb, 'GET', '/drafts');
			expect(r.status).toBe(429);
			expect(r.headers.get('retry-after')).toBe('1');
			await new Promise((resolve) => setTimeout(resolve, 350));
			expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
		});
	});
});

describe('sandbox: rate-limit header forms (rateLimitHeaders)', () => {
	const rateLimitNames = (r: Reply) => [...r.headers.keys()].filter((k) => /ratelimit|retry-after/i.test(k)).sort();

	test("'x-ratelimit' is the default: X-RateLimit-* on every answer, the retryHeader form on a 429", async () => {
		await withSandbox({ rateLimitReset: true, quota: { generate: { limit: 1, windowMs: 60_000 } } }, async (sb) => {
			expect(sb.options.rateLimitHeaders).toBe('x-ratelimit');
			const ok = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(rateLimitNames(ok)).toEqual(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
			const refused = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect(rateLimitNames(refused)).toEqual(['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
		});
	});

	test("'ietf': RateLimit-Policy and RateLimit structured fields only, on every answer; a 429 has no Retry-After", async () => {
		await withSandbox({ rateLimitHeaders: 'ietf', rateLimitReset: true, quota: { generate: { limit: 2, windowMs: 1_500 }, default: { limit: 5, windowMs: 60_000 } } }, async (sb) => {
			const first = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(first.status).toBe(200);
			expect(rateLimitNames(first)).toEqual(['ratelimit', 'ratelimit-policy']);
			// The window of 1.5 s is announced as 2 (whole seconds, rounded up).
			expect(first.headers.get('ratelimit-policy')).toBe('"generate";q=2;w=2');
			expect(first.headers.get('ratelimit')).toBe('"generate";r=1;t=2');
			const second = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(second.headers.get('ratelimit')).toMatch(/^"generate";r=0;t=[12]$/);
			const refused = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect(errorOf(refused).code).toBe('RATE_LIMITED');
			expect(rateLimitNames(refused)).toEqual(['ratelimit', 'ratelimit-policy']);
			expect(refused.headers.get('ratelimit')).toMatch(/^"generate";r=0;t=[12]$/);
			// Other endpoints: the default bucket is its own policy.
			const drafts = await call(sb, 'GET', '/drafts');
			expect(drafts.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
			expect(drafts.headers.get('ratelimit')).toMatch(/^"default";r=4;t=(59|60)$/);
			// Errors carry the fields too (a 404 counts in the default window).
			const missing = await call(sb, 'GET', '/no-such-route');
			expect(missing.status).toBe(404);
			expect(rateLimitNames(missing)).toEqual(['ratelimit', 'ratelimit-policy']);
			// After the window, the quota is back. The windows run on Date.now, moved on 1.6 s here rather than waited
			// for (the real passing of a window is the test of rate limits above).
			const realNow = Date.now.bind(Date);
			jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 1_600);
			try {
				const again = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
				expect(again.status).toBe(200);
				expect(again.headers.get('ratelimit')).toBe('"generate";r=1;t=2');
			} finally {
				jest.restoreAllMocks();
			}
		});
	});

	test("'ietf': an injected burst429 says r=0 and t = burstRetryAfterSec", async () => {
		await withSandbox({ rateLimitHeaders: 'ietf', faults: { burst429: 1, burstRetryAfterSec: 3 } }, async (sb) => {
			const r = await call(sb, 'GET', '/drafts');
			expect(r.status).toBe(429);
			expect(rateLimitNames(r)).toEqual(['ratelimit', 'ratelimit-policy']);
			expect(r.headers.get('ratelimit')).toBe('"default";r=0;t=3');
		});
	});

	test("'ratelimit': RateLimit-Limit, -Remaining and -Reset (whole seconds to wait) on every answer, a 429 included, and nothing else", async () => {
		await withSandbox({ rateLimitHeaders: 'ratelimit', quota: { generate: { limit: 1, windowMs: 60_000 } } }, async (sb) => {
			const ok = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(rateLimitNames(ok)).toEqual(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
			expect(ok.headers.get('ratelimit-remaining')).toBe('0');
			expect(Number(ok.headers.get('ratelimit-reset'))).toBe(60);
			const refused = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect(rateLimitNames(refused)).toEqual(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
			const info = readRateLimit(Object.fromEntries(refused.headers.entries()), Date.now());
			expect(info).toMatchObject({ limit: 1, remaining: 0, resetExact: false });
			expect(parseRetryDelay(Object.fromEntries(refused.headers.entries()), Date.now())).toBeGreaterThan(58_000);
		});
	});

	test("'retry-after-date': only Retry-After as an HTTP date on a 429, the window's end rounded up to the second", async () => {
		await withSandbox({ rateLimitHeaders: 'retry-after-date', quota: { generate: { limit: 1, windowMs: 60_000 } } }, async (sb) => {
			const ok = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(rateLimitNames(ok)).toEqual([]);
			const refused = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect(rateLimitNames(refused)).toEqual(['retry-after']);
			expect(refused.headers.get('retry-after')).toMatch(/GMT$/);
			const delay = parseRetryDelay(Object.fromEntries(refused.headers.entries()), Date.now()) as number;
			expect(delay).toBeGreaterThan(58_000);
			expect(delay).toBeLessThanOrEqual(61_000);
		});
	});

	test("'retry-after': no rate-limit field on successes, only Retry-After: <seconds> on a 429 (whatever retryHeader says)", async () => {
		await withSandbox({ rateLimitHeaders: 'retry-after', rateLimitReset: true, retryHeader: 'reset', quota: { generate: { limit: 1, windowMs: 60_000 } } }, async (sb) => {
			const ok = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(ok.status).toBe(200);
			expect(rateLimitNames(ok)).toEqual([]);
			const refused = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect(rateLimitNames(refused)).toEqual(['retry-after']);
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
			expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
			expect(parseRetryDelay(Object.fromEntries(refused.headers.entries()), Date.now())).toBeGreaterThan(58_000);
			sb.configure({ faults: { burst429: 1, burstRetryAfterSec: 2 } });
			const burst = await call(sb, 'GET', '/drafts');
			expect(burst.status).toBe(429);
			expect(rateLimitNames(burst)).toEqual(['retry-after']);
			expect(burst.headers.get('retry-after')).toBe('2');
			// The burst is spent: the next answer has no rate-limit field again.
			expect(rateLimitNames(await call(sb, 'GET', '/drafts'))).toEqual([]);
		});
	});

	test('configure switches the form at run time; a wrong value is refused', async () => {
		await withSandbox({}, async (sb) => {
			expect((await call(sb, 'GET', '/drafts')).headers.get('x-ratelimit-limit')).toBe('600');
			sb.configure({ rateLimitHeaders: 'ietf' });
			const r = await call(sb, 'GET', '/drafts');
			expect(r.headers.get('x-ratelimit-limit')).toBeNull();
			expect(r.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60');
			expect(() => sb.configure({ rateLimitHeaders: 'draft' as never })).toThrow(/rateLimitHeaders/);
		});
		await expect(startSandbox({ rateLimitHeaders: 'both' as never })).rejects.toThrow(/rateLimitHeaders/);
	});
});

describe('sandbox: creation workflow', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ now: T0 });
	});
	afterAll(() => sb.close());

	test('ideas → prepare → write → validate → refine → validate; no drafts or posts created', async () => {
		const account = sb.state.account('acc_1');
		const counts = [account.drafts.length, account.posts.length, account.credits];
		const ideas = await call(sb, 'POST', '/creation/ideas', {
			body: { topic: 'weekly planning', context: 'We plan on Mondays.', preferences: 'no emojis', language: 'en' },
		});
		expect(ideas.status).toBe(200);
		expect(ideas.json.workflowId).toMatch(/^wf_/);
		expect(ideas.json.ideas.map((i: { id: string }) => i.id)).toEqual(['idea_1', 'idea_2', 'idea_3']);
		for (const idea of ideas.json.ideas) {
			expect(idea.title).toContain('weekly planning');
			expect(typeof idea.text).toBe('string');
		}
		const workflowId = ideas.json.workflowId;
		const prep = await call(sb, 'POST', '/creation/prepare', { body: { workflowId, ideaId: 'idea_1' } });
		expect(prep.status).toBe(200);
		expect(prep.json.workflowId).toBe(workflowId);
		expect(prep.json.questions.length).toBeGreaterThanOrEqual(2);
		expect(prep.json.questions.length).toBeLessThanOrEqual(3);
		expect(prep.json.questions[0]).toEqual({ id: 'q_1', question: expect.any(String) });
		const questions = prep.json.questions as { id: string }[];

		const partial = await call(sb, 'POST', '/creation/write', { body: { workflowId, answers: [{ questionId: 'q_1', answer: 'A' }] } });
		expect(partial.status).toBe(400);
		expect(errorOf(partial).message).toContain('q_2');
		const unknownQ = await call(sb, 'POST', '/creation/write', { body: { workflowId, answers: [{ questionId: 'q_9', answer: 'A' }] } });
		expect(unknownQ.status).toBe(400);
		expect(errorOf(unknownQ).message).toMatch(/q_9.*q_1/);

		const answers = questions.map((q) => ({ questionId: q.id, answer: `Monday answer ${q.id}` }));
		const write = await call(sb, 'POST', '/creation/write', { body: { workflowId, answers } });
		expect(write.status).toBe(200);
		expect(write.json.text).toContain('weekly planning');
		expect(write.json.text).toContain('Monday answer q_1');
		const v1 = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
		expect(v1.status).toBe(200);
		expect(v1.json).toMatchObject({ workflowId, ready: true, verdict: { ready: true, issues: [], suggestions: [] } });
		expect(v1.json.verdict.score).toBeGreaterThanOrEqual(70);
		const refine = await call(sb, 'POST', '/creation/refine', { body: { workflowId, instruction: 'Make it shorter' } });
		expect(refine.status).toBe(200);
		expect(typeof refine.json.text).toBe('string');
		expect(sb.state.workflows.get(workflowId)?.verdict).toBeNull();
		const v2 = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
		expect(v2.json.ready).toBe(true);
		expect([account.drafts.length, account.posts.length, account.credits]).toEqual(counts);

		// Deterministic: the same topic gives the same ideas.
		const again = await call(sb, 'POST', '/creation/ideas', {
			body: { topic: 'weekly planning', context: 'We plan on Mondays.', preferences: 'no emojis', language: 'en' },
		});
		expect(again.json.ideas).toEqual(ideas.json.ideas);
		expect(again.json.workflowId).not.toBe(workflowId);
	});

	test('validation of creation fields; unknown ideaId lists the valid ones', async () => {
		const noTopic = await call(sb, 'POST', '/creation/ideas', { body: {} });
		expect(noTopic.status).toBe(400);
		expect(errorOf(noTopic).message).toBe('topic is required');
		const ideas = await call(sb, 'POST', '/creation/ideas', { body: { topic: 'x' } });
		const r = await call(sb, 'POST', '/creation/prepare', { body: { workflowId: ideas.json.workflowId, ideaId: 'idea_9' } });
		expect(r.status).toBe(400);
		expect(errorOf(r).message).toMatch(/ideaId "idea_9".*idea_1, idea_2, idea_3/);
		const answers = await call(sb, 'POST', '/creation/write', { body: { workflowId: ideas.json.workflowId, answers: 'yes' } });
		expect(answers.status).toBe(400);
		expect(errorOf(answers).message).toMatch(/^answers must be/);
	});

	test('out of sequence: 409 WORKFLOW_OUT_OF_SEQUENCE with an actionable message', async () => {
		const ideas = await call(sb, 'POST', '/creation/ideas', { body: { topic: 'sequence' } });
		const workflowId = ideas.json.workflowId;
		const write = await call(sb, 'POST', '/creation/write', { body: { workflowId, answers: [{ questionId: 'q_1', answer: 'A' }] } });
		expect(write.status).toBe(409);
		expect(errorOf(write)).toEqual({
			code: 'WORKFLOW_OUT_OF_SEQUENCE',
			message: 'Cannot write yet: choose an idea first with POST /creation/prepare (workflowId, ideaId).',
		});
		const validate = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
		expect(validate.status).toBe(409);
		expect(errorOf(validate).message).toMatch(/POST \/creation\/prepare/);
		const refine = await call(sb, 'POST', '/creation/refine', { body: { workflowId, instruction: 'x' } });
		expect(refine.status).toBe(409);
		await call(sb, 'POST', '/creation/prepare', { body: { workflowId, ideaId: 'idea_1' } });
		const validate2 = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
		expect(validate2.status).toBe(409);
		expect(errorOf(validate2).message).toMatch(/POST \/creation\/write/);
		const written = await writtenWorkflow(sb);
		const prepAgain = await call(sb, 'POST', '/creation/prepare', { body: { workflowId: written, ideaId: 'idea_1' } });
		expect(prepAgain.status).toBe(409);
		expect(errorOf(prepAgain).message).toMatch(/POST \/creation\/refine/);
	});

	test("unknown or another account's workflow: 404 WORKFLOW_NOT_FOUND", async () => {
		const unknown = await call(sb, 'POST', '/creation/validate', { body: { workflowId: 'wf_nope' } });
		expect(unknown.status).toBe(404);
		expect(errorOf(unknown).code).toBe('WORKFLOW_NOT_FOUND');
		const mine = await call(sb, 'POST', '/creation/ideas', { body: { topic: 'ownership' } });
		const theirs = await call(sb, 'POST', '/creation/prepare', { key: sb.keys.other, body: { workflowId: mine.json.workflowId, ideaId: 'idea_1' } });
		expect(theirs.status).toBe(404);
		expect(errorOf(theirs).code).toBe('WORKFLOW_NOT_FOUND');
		const ro = await call(sb, 'POST', '/creation/ideas', { key: sb.keys.readonly, body: { topic: 'x' } });
		expect(errorOf(ro).message).toBe('Missing required scope: posts:generate');
	});

	test('validateReadyAfterRefines: not ready until a refine', async () => {
		sb.configure({ validateReadyAfterRefines: 1 });
		try {
			const workflowId = await writtenWorkflow(sb);
			const v1 = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
			expect(v1.json.ready).toBe(false);
			expect(v1.json.verdict.ready).toBe(false);
			expect(v1.json.verdict.issues.length).toBeGreaterThan(0);
			expect(v1.json.verdict.suggestions.length).toBeGreaterThan(0);
			expect(v1.json.verdict.score).toBeLessThan(70);
			await call(sb, 'POST', '/creation/refine', { body: { workflowId, instruction: 'Make the first line punchier' } });
			const v2 = await call(sb, 'POST', '/creation/validate', { body: { workflowId } });
			expect(v2.json.ready).toBe(true);
		} finally {
			sb.configure({ validateReadyAfterRefines: 0 });
		}
	});

	test('expired workflow: 410 WORKFLOW_EXPIRED after 7 days + 1 ms of sandbox time', async () => {
		await withSandbox({}, async (own) => {
			const ideas = await call(own, 'POST', '/creation/ideas', { body: { topic: 'expiry' } });
			own.clock.advance(7 * DAY);
			expect((await call(own, 'POST', '/creation/prepare', { body: { workflowId: ideas.json.workflowId, ideaId: 'idea_1' } })).status).toBe(200);
			own.clock.advance(1);
			const r = await call(own, 'POST', '/creation/validate', { body: { workflowId: ideas.json.workflowId } });
			expect(r.status).toBe(410);
			expect(errorOf(r).code).toBe('WORKFLOW_EXPIRED');
			expect(errorOf(r).message).toMatch(/POST \/creation\/ideas/);
		});
	});

	test('WORKFLOW_BUSY while an operation runs (status configurable), with Retry-After: 1', async () => {
		await withSandbox({ creationLatencyMs: 250 }, async (own) => {
			const ideas = await call(own, 'POST', '/creation/ideas', { body: { topic: 'busy' } });
			const workflowId = ideas.json.workflowId;
			const slow = call(own, 'POST', '/creation/prepare', { body: { workflowId, ideaId: 'idea_1' } });
			await new Promise((resolve) => setTimeout(resolve, 50));
			const busy = await call(own, 'POST', '/creation/prepare', { body: { workflowId, ideaId: 'idea_1' } });
			expect(busy.status).toBe(409);
			expect(errorOf(busy)).toEqual({ code: 'WORKFLOW_BUSY', message: 'WORKFLOW_BUSY' });
			expect(busy.headers.get('retry-after')).toBe('1');
			// The status is configurable and the body follows the error shape.
			own.configure({ workflowBusyStatus: 423, errorShape: 'flat' });
			const questions = (await slow).json.questions as { id: string }[];
			const answers = questions.map((q) => ({ questionId: q.id, answer: 'yes' }));
			const slow2 = call(own, 'POST', '/creation/write', { body: { workflowId, answers } });
			await new Promise((resolve) => setTimeout(resolve, 50));
			const busy2 = await call(own, 'POST', '/creation/refine', { body: { workflowId, instruction: 'x' } });
			expect(busy2.status).toBe(423);
			expect(busy2.json).toEqual({ error: 'WORKFLOW_BUSY', code: 'WORKFLOW_BUSY' });
			expect((await slow2).status).toBe(200);
			expect(busy2.headers.get('retry-after')).toBe('1');
		});
	});
});

describe('sandbox: scheduled drafts', () => {
	test('a scheduled draft becomes a post when the clock passes its date', async () => {
		await withSandbox({ seedData: false }, async (sb) => {
			const at = new Date(T0 + 60 * 60 * 1000).toISOString();
			const d = await call(sb, 'POST', '/drafts', { body: { text: 'Going out at ten', scheduledAt: at } });
			expect((await call(sb, 'GET', '/posts')).json.data).toHaveLength(0);
			sb.clock.advance(60 * 60 * 1000 - 1);
			expect((await call(sb, 'GET', '/drafts')).json.data).toHaveLength(1);
			sb.clock.advance(1);
			const posts = await call(sb, 'GET', '/posts');
			expect(posts.json.data).toHaveLength(1);
			expect(posts.json.data[0]).toMatchObject({ text: 'Going out at ten', publishedAt: at, draftId: d.json.id });
			expect(posts.json.data[0].id).toMatch(/^pst_/);
			expect(posts.json.data[0].metrics.likes).toEqual(expect.any(Number));
			expect((await call(sb, 'GET', '/drafts')).json.data).toHaveLength(0);
			const cal = await call(sb, 'GET', '/calendar?from=2026-11-21&to=2026-11-21');
			expect(cal.json.entries).toEqual([expect.objectContaining({ type: 'published', postId: posts.json.data[0].id, date: at })]);
		});
	});

	test('publishDue() and clock.set publish too; seedPosts controls the seeded posts', async () => {
		await withSandbox({ seedPosts: 3 }, async (sb) => {
			expect(sb.state.account('acc_1').posts).toHaveLength(3);
			const scheduled = sb.state.account('acc_1').drafts.filter((d) => d.status === 'scheduled');
			expect(scheduled.length).toBeGreaterThan(0);
			sb.clock.set(T0 + 30 * DAY);
			expect(sb.state.account('acc_1').posts).toHaveLength(3 + scheduled.length);
			expect(sb.publishDue()).toEqual([]);
		});
	});
});

describe('sandbox: response shapes', () => {
	test.each(['nested', 'flat', 'message'] as const)('error shape %s is read by the client', async (errorShape) => {
		await withSandbox({ errorShape }, async (sb) => {
			const r = await call(sb, 'POST', '/generate', { key: sb.keys.readonly, body: { prompt: 'x' } });
			expect(r.status).toBe(403);
			if (errorShape === 'flat') expect(r.json).toEqual({ error: 'Missing required scope: posts:generate', code: 'MISSING_SCOPE' });
			if (errorShape === 'message') expect(r.json).toEqual({ message: 'Missing required scope: posts:generate', code: 'MISSING_SCOPE' });
			expect(extractErrorInfo(r.json)).toEqual({ code: 'MISSING_SCOPE', message: 'Missing required scope: posts:generate' });
		});
	});

	test.each(['data-cursor', 'bare', 'items-offset', 'named'] as const)('list shape %s pages through every post', async (listShape) => {
		await withSandbox({ listShape, seedPosts: 25 }, async (sb) => {
			const ids: string[] = [];
			let query = 'limit=10';
			for (let page = 0; page < 10; page++) {
				const r = await call(sb, 'GET', `/posts?${query}`);
				expect(r.status).toBe(200);
				if (listShape === 'bare') expect(Array.isArray(r.json)).toBe(true);
				if (listShape === 'named') expect(Array.isArray(r.json.posts)).toBe(true);
				if (listShape === 'items-offset') expect(r.json).toMatchObject({ offset: expect.any(Number), limit: 10, total: 25 });
				const normal = normaliseList<{ id: string }>(r.json, ['posts']);
				ids.push(...normal.items.map((p) => p.id));
				if (normal.nextCursor) query = `limit=10&cursor=${encodeURIComponent(normal.nextCursor)}`;
				else if (normal.nextOffset !== undefined) query = `limit=10&offset=${normal.nextOffset}`;
				else break;
			}
			expect(ids).toHaveLength(25);
			expect(new Set(ids).size).toBe(25);
			const profiles = await call(sb, 'GET', '/writing-profiles');
			expect(normaliseList(profiles.json, ['writingProfiles']).items).toHaveLength(3);
			if (listShape === 'named') expect(profiles.json.writingProfiles).toHaveLength(3);
		});
	});
});

describe('sandbox: fault injection', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ now: T0 });
	});
	afterAll(() => sb.close());
	afterEach(() => sb.resetFaults());

	test('latencyMs delays the answer', async () => {
		sb.configure({ faults: { latencyMs: 150 } });
		const t = Date.now();
		expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
		expect(Date.now() - t).toBeGreaterThanOrEqual(140);
	});

	test('rateLimitReset sends X-RateLimit-Reset (epoch s with ms) on every answer; off by default', async () => {
		expect((await call(sb, 'GET', '/drafts')).headers.get('x-ratelimit-reset')).toBeNull();
		await withSandbox({ rateLimitReset: true, quota: { generate: { limit: 1, windowMs: 2_000 } } }, async (own) => {
			const before = Date.now();
			const ok = await call(own, 'POST', '/generate', { body: { prompt: 'x' } });
			const refused = await call(own, 'POST', '/generate', { body: { prompt: 'x' } });
			for (const r of [ok, refused]) {
				const reset = r.headers.get('x-ratelimit-reset') ?? '';
				expect(reset).toMatch(/^\d{10}\.\d{3}$/);
				expect(Number(reset) * 1000).toBeGreaterThanOrEqual(before + 2_000 - 1);
				expect(Number(reset) * 1000).toBeLessThanOrEqual(Date.now() + 2_000);
			}
			expect([ok.status, refused.status]).toEqual([200, 429]);
			expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
		});
	});

	test('a call refused by the quota is counted on arrival and answered at once; an admitted one takes the latency', async () => {
		const lines: string[] = [];
		await withSandbox({ quota: { generate: { limit: 1, windowMs: 60_000 } }, faults: { latencyMs: 400 }, log: (l) => lines.push(l) }, async (own) => {
			const admitted = call(own, 'POST', '/generate', { body: { prompt: 'x' } });
			while (own.stats.requests < 1) await new Promise((r) => setTimeout(r, 5));
			const refused = await call(own, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(refused.status).toBe(429);
			expect((await admitted).status).toBe(200);
			// The second call arrived after the first and was answered before it: the refusal did not wait the latency.
			expect(lines.map((l) => l.replace(/^POST \/api\/v1\/generate -> /, ''))).toEqual(['429', '200']);
		});
	});

	test('errorRate 1 with errorStatuses, decided before handling: nothing charged', async () => {
		sb.configure({ faults: { errorRate: 1, errorStatuses: [503] } });
		const credits = sb.state.account('acc_1').credits;
		const drafts = sb.state.account('acc_1').drafts.length;
		sb.resetStats();
		const r = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
		expect(r.status).toBe(503);
		expect(errorOf(r).code).toBe('SERVICE_UNAVAILABLE');
		expect(sb.state.account('acc_1').credits).toBe(credits);
		expect(sb.state.account('acc_1').drafts.length).toBe(drafts);
		expect(sb.stats.byRoute['POST /generate']).toBe(1);
		expect(sb.stats.paidCalls).toBe(0);
	});

	test('passNext: the matching requests before it pass untouched, the counted fault hits the next one (after its charge), other routes are not counted', async () => {
		sb.configure({ faults: { passNext: 2, errorNext: 1, errorStatuses: [502], routes: ['POST /generate'], faultAfterHandling: true } });
		sb.resetStats();
		const statuses: number[] = [];
		for (const prompt of ['p1', 'p2', 'p3', 'p4']) {
			statuses.push((await call(sb, 'GET', '/credits')).status);
			statuses.push((await call(sb, 'POST', '/generate', { body: { prompt } })).status);
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 502, 200, 200]);
		expect(sb.stats.chargesByInput).toEqual({ 'generate:p1': 1, 'generate:p2': 1, 'generate:p3': 1, 'generate:p4': 1 });
		sb.resetFaults();
	});

	test('faultAfterHandling: the operation ran and charged, then the 5xx / reset / timeout', async () => {
		sb.configure({ faults: { errorRate: 1, errorStatuses: [500], faultAfterHandling: true } });
		const account = sb.state.account('acc_1');
		const credits = account.credits;
		const drafts = account.drafts.length;
		const r = await call(sb, 'POST', '/generate', { body: { prompt: 'ambiguous' } });
		expect(r.status).toBe(500);
		expect(account.credits).toBe(credits - 1);
		expect(account.drafts.length).toBe(drafts + 1);
		sb.resetFaults();
		sb.configure({ faultAfterHandling: true, faults: { resetNext: 1 } });
		await expect(call(sb, 'POST', '/generate', { body: { prompt: 'ambiguous' } })).rejects.toThrow();
		expect(account.credits).toBe(credits - 2);
		sb.configure({ faults: { timeoutNext: 1 } });
		await expect(call(sb, 'POST', '/analyze', { body: { text: 'x' }, signal: AbortSignal.timeout(300) })).rejects.toThrow();
		expect(account.credits).toBe(credits - 3);
	});

	test('burst429: the next n requests get 429 with the configured header', async () => {
		sb.configure({ faults: { burst429: 2, burstRetryAfterSec: 2 }, retryHeader: 'seconds' });
		const credits = sb.state.account('acc_1').credits;
		for (let i = 0; i < 2; i++) {
			const r = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
			expect(r.status).toBe(429);
			expect(r.headers.get('retry-after')).toBe('2');
			expect(errorOf(r).code).toBe('RATE_LIMITED');
		}
		expect(sb.state.account('acc_1').credits).toBe(credits);
		expect((await call(sb, 'POST', '/generate', { body: { prompt: 'x' } })).status).toBe(200);
		sb.configure({ faults: { burst429: 1 }, retryHeader: 'http-date' });
		const d = await call(sb, 'GET', '/drafts');
		expect(d.status).toBe(429);
		const delay = parseRetryDelay(Object.fromEntries(d.headers.entries()), Date.now());
		expect(delay).toBeGreaterThan(0);
		expect(delay).toBeLessThanOrEqual(3000);
		sb.configure({ retryHeader: 'seconds' });
	});

	test('resetNext / resetRate destroy the socket', async () => {
		sb.configure({ faults: { resetNext: 1 } });
		await expect(call(sb, 'GET', '/drafts')).rejects.toThrow();
		expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
		sb.configure({ faults: { resetRate: 1 } });
		await expect(call(sb, 'GET', '/drafts')).rejects.toThrow();
	});

	test('malformedNext: 200 with truncated JSON', async () => {
		sb.configure({ faults: { malformedNext: 1 } });
		const r = await call(sb, 'POST', '/generate', { body: { prompt: 'x' } });
		expect(r.status).toBe(200);
		expect(r.text).toBe('{"proposals": [');
		expect(r.json).toBeUndefined();
	});

	test('htmlNext: 502 with an HTML page', async () => {
		sb.configure({ faults: { htmlNext: 1 } });
		const r = await call(sb, 'GET', '/posts');
		expect(r.status).toBe(502);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);
		expect(r.text).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
	});

	test('timeoutNext: no answer until the client gives up; close() still returns', async () => {
		sb.configure({ faults: { timeoutNext: 1 } });
		await expect(call(sb, 'GET', '/posts', { signal: AbortSignal.timeout(200) })).rejects.toThrow();
		expect((await call(sb, 'GET', '/posts')).status).toBe(200);
		await withSandbox({ faults: { timeoutNext: 1 } }, async (own) => {
			const pending = call(own, 'GET', '/posts').catch((e: unknown) => e);
			await new Promise((resolve) => setTimeout(resolve, 50));
			await own.close();
			expect(String(await pending)).toMatch(/TypeError|fetch failed|terminated/);
		});
	});

	test('routes limits the faults to the listed routes', async () => {
		sb.configure({ faults: { errorRate: 1, routes: ['POST /generate'] } });
		expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
		expect((await call(sb, 'POST', '/generate', { body: { prompt: 'x' } })).status).toBeGreaterThanOrEqual(500);
		sb.configure({ faults: { htmlNext: 1, errorRate: 0, routes: ['POST /writing-profiles/:id/activate'] } });
		expect((await call(sb, 'GET', '/drafts')).status).toBe(200);
		expect((await call(sb, 'POST', '/writing-profiles/wp_founder/activate')).status).toBe(502);
	});

	test('rates are reproducible with the same seed', async () => {
		const run = async () => {
			const statuses: number[] = [];
			await withSandbox({ seed: 42, faults: { errorRate: 0.5 } }, async (own) => {
				for (let i = 0; i < 12; i++) statuses.push((await call(own, 'GET', '/drafts')).status);
			});
			return statuses;
		};
		const a = await run();
		expect(a).toEqual(await run());
		expect(a.some((s) => s === 200)).toBe(true);
		expect(a.some((s) => s >= 500)).toBe(true);
	});
});

describe('sandbox: with the shared client', () => {
	const fetchSend: Send = async (request) => {
		const res = await fetch(request.url, {
			method: request.method,
			headers: request.headers,
			body: request.body ? JSON.stringify(request.body) : undefined,
		});
		const headers: HttpResponse['headers'] = {};
		res.headers.forEach((v, k) => {
			headers[k] = v;
		});
		return { status: res.status, headers, body: await res.text() };
	};

	test('generate, lists across pages, creation, retry after a burst of 429', async () => {
		await withSandbox({ seedPosts: 130, listShape: 'items-offset' }, async (sb) => {
			// The platform adapters add the Authorization header; this minimal one does too.
			const authed = createClient({
				baseUrl: sb.baseUrl,
				send: (r) => fetchSend({ ...r, headers: { ...r.headers, Authorization: `Bearer ${sb.keys.full}` } }),
				sleep: async () => undefined,
				apiKey: sb.keys.full,
			});
			const out = await authed.generatePost({ prompt: 'client test', numProposals: 2 });
			expect(out.proposals).toHaveLength(2);
			expect(out.creditsRemaining).toBe(99);
			const posts = await authed.listPosts();
			expect(posts).toHaveLength(130);
			const ideas = await authed.startPostCreation({ topic: 'client flow' });
			const prep = await authed.preparePost({ workflowId: ideas.workflowId, ideaId: ideas.ideas[0].id });
			const written = await authed.writePost({
				workflowId: ideas.workflowId,
				answers: prep.questions.map((q) => ({ questionId: q.id, answer: 'yes' })),
			});
			expect(written.text).toContain('client flow');
			const verdict = await authed.validatePost({ workflowId: ideas.workflowId });
			expect(verdict.ready).toBe(true);
			sb.configure({ faults: { burst429: 2, burstRetryAfterSec: 0 } });
			sb.resetStats();
			expect((await authed.getCredits({})).balance).toBe(99);
			expect(sb.stats.byRoute['GET /credits']).toBe(3);
			sb.configure({ faults: { errorRate: 1, errorStatuses: [500], faultAfterHandling: true } });
			sb.resetStats();
			await expect(authed.generatePost({ prompt: 'never twice' })).rejects.toMatchObject({ kind: 'server' });
			expect(sb.stats.byRoute['POST /generate']).toBe(1);
			expect(sb.stats.paidCalls).toBe(1);
		});
	});
});

describe('sandbox: list order', () => {
	test('listOrder oldest-first lists /posts oldest first, across pages; configure switches it; a wrong value is refused', async () => {
		await withSandbox({ listOrder: 'oldest-first' }, async (sb) => {
			const all: { publishedAt: string; id: string }[] = [];
			let cursor: string | null = null;
			do {
				const page: Reply = await call(sb, 'GET', `/posts?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
				all.push(...page.json.data);
				cursor = page.json.nextCursor;
			} while (cursor);
			expect(all).toHaveLength(12);
			expect(all).toEqual([...all].sort((a, b) => a.publishedAt.localeCompare(b.publishedAt) || b.id.localeCompare(a.id)));
			sb.configure({ listOrder: 'newest-first' });
			const newest = await call(sb, 'GET', '/posts?limit=1');
			expect(newest.json.data[0].publishedAt).toBe(all[all.length - 1].publishedAt);
			expect(() => sb.configure({ listOrder: 'sideways' as never })).toThrow(/listOrder must be one of newest-first, oldest-first/);
			expect(sb.options.listOrder).toBe('newest-first');
		});
		await expect(startSandbox({ listOrder: 'random' as never })).rejects.toThrow(/listOrder/);
	});
});

describe('sandbox: CLI', () => {
	test('prints the five lines and serves the profile', async () => {
		const root = path.resolve(__dirname, '../..');
		// `npm run sandbox`'s command (ts-node --transpile-only sandbox/cli.ts), with ts-node's own entry run by this
		// Node rather than found through npx (half a second of npx's own start).
		const tsNode = require.resolve('ts-node/dist/bin.js');
		const child = spawn(process.execPath, [tsNode, '--transpile-only', 'sandbox/cli.ts', '--port', '0', '--list-order', 'oldest-first', '--rate-limit-headers', 'ietf'], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const killGroup = (signal: NodeJS.Signals) => {
			try {
				if (child.pid) process.kill(-child.pid, signal);
			} catch {
				// already gone
			}
		};
		try {
			const values = await new Promise<Record<string, string>>((resolve, reject) => {
				let out = '';
				let err = '';
				// ts-node compiles the sandbox first: about 3 s alone, over 15 s once on 2 cores at a load of 10.
				const timer = setTimeout(() => reject(new Error(`CLI did not print its lines in time. stdout: ${out} stderr: ${err}`)), 25_000);
				child.stderr.on('data', (c: Buffer) => {
					err += c.toString();
				});
				child.stdout.on('data', (c: Buffer) => {
					out += c.toString();
					const lines = out.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
					if (lines.length >= 5) {
						clearTimeout(timer);
						resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])));
					}
				});
				child.on('exit', (code) => {
					clearTimeout(timer);
					reject(new Error(`CLI exited with ${code}: ${err}`));
				});
			});
			expect(Object.keys(values)).toEqual(['BASE_URL', 'KEY_FULL', 'KEY_READONLY', 'KEY_REVOKED', 'KEY_EXPIRED']);
			expect(values.BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
			for (const k of ['KEY_FULL', 'KEY_READONLY', 'KEY_REVOKED', 'KEY_EXPIRED']) expect(values[k]).toMatch(/^pw_live_[0-9a-f]{32}$/);
			const res = await fetch(`${values.BASE_URL}/account/profile`, { headers: { Authorization: `Bearer ${values.KEY_FULL}` } });
			expect(res.status).toBe(200);
			expect(res.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60'); // --rate-limit-headers ietf
			expect(res.headers.get('x-ratelimit-limit')).toBeNull();
			expect(await res.json()).toMatchObject({ name: 'Sandbox User', credits: 100 });
			const posts = await fetch(`${values.BASE_URL}/posts?limit=100`, { headers: { Authorization: `Bearer ${values.KEY_FULL}` } });
			const dates = ((await posts.json()) as { data: { publishedAt: string }[] }).data.map((p) => p.publishedAt);
			expect(dates.length).toBeGreaterThan(1);
			expect(dates).toEqual([...dates].sort()); // --list-order oldest-first
			const revoked = await fetch(`${values.BASE_URL}/account/profile`, { headers: { Authorization: `Bearer ${values.KEY_REVOKED}` } });
			expect(revoked.status).toBe(401);
			await revoked.text();
			const exited = new Promise((resolve) => child.once('exit', resolve));
			killGroup('SIGTERM');
			let grace: NodeJS.Timeout | undefined;
			await Promise.race([exited, new Promise((resolve) => (grace = setTimeout(resolve, 5000)))]);
			clearTimeout(grace);
		} finally {
			killGroup('SIGKILL');
			child.stdout.destroy();
			child.stderr.destroy();
		}
	}, 45_000);
});
