/**
 * Redirects are answers (shared/client/redirects.ts), on a scripted transport: the
 * core follows a redirect only within the Base URL's origin, a bounded number
 * of times; any other is a RedirectError that names the status and where it
 * pointed, says the key was not sent there, and (for a paid call) that
 * nothing was charged. Nothing is ever sent to another origin.
 */
import { PostWriterClient, MAX_SAME_ORIGIN_REDIRECTS, REDIRECT_STATUSES } from '../../../shared/client';
import { RedirectError } from '../../../shared/errors';
import type { HttpRequest, HttpResponse } from '../../../shared/base';
import { caught } from '../../helpers/fake';

const BASE = 'https://api.test.example/api/v1';
const KEY = 'pw_live_0123456789abcdef0123456789abcdef';
const ELSEWHERE = 'https://evil.test.example/api/v1';
const OK_GENERATE = { proposals: [{ id: 'p1', text: 'Hello' }], creditsRemaining: 9 };

/** A transport that answers each request by `answer`, and records what was sent. */
function harness(answer: (req: HttpRequest, n: number) => HttpResponse) {
	const sent: HttpRequest[] = [];
	const client = new PostWriterClient({
		baseUrl: BASE,
		apiKey: KEY,
		send: async (req) => {
			sent.push(req);
			return answer(req, sent.length);
		},
		sleep: async () => undefined,
		random: () => 0,
	});
	return { client, sent };
}

const redirect = (status: number, location?: string): HttpResponse => ({ status, headers: location === undefined ? {} : { Location: location }, body: '' });
const ok = (body: unknown): HttpResponse => ({ status: 200, headers: {}, body: JSON.stringify(body) });

describe.each([...REDIRECT_STATUSES].filter((s) => s !== 303))('%i', (status) => {
	test('to another host: one request, a RedirectError naming the status and the Location, nothing charged', async () => {
		const h = harness(() => redirect(status, `${ELSEWHERE}/generate?token=${KEY}`));
		const error = await caught(h.client.generatePost({ prompt: 'A post about redirects' }));
		expect(error).toBeInstanceOf(RedirectError);
		expect(h.sent.map((r) => r.url)).toEqual([`${BASE}/generate`]);
		const e = error as RedirectError;
		expect(e.status).toBe(status);
		expect(e.ambiguous).toBe(false);
		expect(e.location).toBe(`${ELSEWHERE}/generate`);
		expect(e.message).toContain(`POST /generate was answered ${status}`);
		expect(e.message).toContain(`pointing to ${ELSEWHERE}/generate`);
		expect(e.message).toContain('the API key did not leave for it');
		expect(e.message).toContain('nothing was charged');
		expect(e.message).toContain('Check the Base URL');
		expect(e.message).not.toMatch(/lost its connection/);
		// The query of the Location (which could carry anything) is never shown.
		expect(e.message).not.toContain(KEY);
	});

	test('within the Base URL origin: followed with the same method and body', async () => {
		const h = harness((req, n) => (n === 1 ? redirect(status, '/api/v1/generate-v2') : ok(OK_GENERATE)));
		const out = (await h.client.generatePost({ prompt: 'A post about redirects' })) as { proposals: unknown[] };
		expect(out.proposals).toHaveLength(1);
		expect(h.sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE}/generate`, `POST ${BASE}/generate-v2`]);
		expect(h.sent[1].body).toEqual(h.sent[0].body);
	});
});

test('a 303 within the origin is followed with a GET, without a body', async () => {
	const h = harness((req, n) => (n === 1 ? redirect(303, `${BASE}/results/1`) : ok(OK_GENERATE)));
	await h.client.generatePost({ prompt: 'A post about redirects' });
	expect(h.sent[1]).toMatchObject({ method: 'GET', url: `${BASE}/results/1` });
	expect(h.sent[1].body).toBeUndefined();
	expect(Object.keys(h.sent[1].headers).map((k) => k.toLowerCase())).not.toContain('content-type');
});

test('a 303 to a POST pointing elsewhere may have been carried out: ambiguous, never resent', async () => {
	const h = harness(() => redirect(303, `${ELSEWHERE}/results/1`));
	const e = (await caught(h.client.generatePost({ prompt: 'A post about redirects' }))) as RedirectError;
	expect(e).toBeInstanceOf(RedirectError);
	expect(e.ambiguous).toBe(true);
	expect(e.message).toMatch(/may have been carried out/);
	expect(h.sent).toHaveLength(1);
});

test('a GET redirected elsewhere is not retried and says nothing of charges', async () => {
	const h = harness(() => redirect(302, `${ELSEWHERE}/credits`));
	const e = (await caught(h.client.getCredits({}))) as RedirectError;
	expect(e).toBeInstanceOf(RedirectError);
	expect(e.message).toContain('GET /credits was answered 302 Found');
	expect(e.message).not.toMatch(/charged/);
	expect(h.sent).toHaveLength(1);
});

test('https to http on the same host is another origin: refused', async () => {
	const h = harness(() => redirect(301, 'http://api.test.example/api/v1/credits'));
	const e = (await caught(h.client.getCredits({}))) as RedirectError;
	expect(e).toBeInstanceOf(RedirectError);
	expect(e.location).toBe('http://api.test.example/api/v1/credits');
	expect(h.sent).toHaveLength(1);
});

test('a redirect without a Location, or with one that is no URL, is an error that says so', async () => {
	const none = harness(() => redirect(307));
	expect(((await caught(none.client.getCredits({}))) as Error).message).toMatch(/answered 307 Temporary Redirect with no Location/);
	const bad = harness(() => redirect(308, 'http://[bad'));
	expect(((await caught(bad.client.getCredits({}))) as Error).message).toMatch(/a Location that is not a URL/);
});

test(`a loop within the origin stops after ${MAX_SAME_ORIGIN_REDIRECTS} redirects`, async () => {
	const h = harness((req) => redirect(302, `${req.url.split('?')[0]}?hop=x`));
	const e = (await caught(h.client.getCredits({}))) as RedirectError;
	expect(e).toBeInstanceOf(RedirectError);
	expect(e.message).toMatch(new RegExp(`redirected more than ${MAX_SAME_ORIGIN_REDIRECTS} times`));
	expect(h.sent).toHaveLength(MAX_SAME_ORIGIN_REDIRECTS + 1);
});

test('user info in a Location is never shown', async () => {
	const h = harness(() => redirect(302, `https://user:${KEY}@evil.test.example/x`));
	const e = (await caught(h.client.getCredits({}))) as RedirectError;
	expect(e.message).toContain('pointing to https://evil.test.example/x');
	expect(e.message).not.toContain(KEY);
	expect(e.message).not.toContain('user:');
});

test('a paid call refused by a redirect keeps no reservation: the credit floor sees the balance as before', async () => {
	let n = 0;
	const h = harness((req) => {
		n++;
		if (req.url.endsWith('/credits')) return ok({ balance: 5, monthlyAllowance: 10 });
		return redirect(301, `${ELSEWHERE}/generate`);
	});
	expect(await caught(h.client.generatePost({ prompt: 'A post about redirects' }, { minCreditsToKeep: 4 }))).toBeInstanceOf(RedirectError);
	expect(h.client.credits.known()).toBe(5);
	expect(h.client.credits.inFlight()).toBe(0);
	expect(n).toBe(2);
});

test("each hop's timeout is what is left before the deadline", async () => {
	let clock = 1_000_000;
	const timeouts: Array<number | undefined> = [];
	const client = new PostWriterClient({
		baseUrl: BASE,
		send: async (req) => {
			timeouts.push(req.timeoutMs);
			clock += 4_000;
			return timeouts.length === 1 ? redirect(307, `${BASE}/credits-moved`) : ok({ balance: 3 });
		},
		sleep: async () => undefined,
		now: () => clock,
		deadline: clock + 10_000,
		timeoutMs: 20_000,
	});
	await client.getCredits({});
	expect(timeouts).toEqual([10_000, 6_000]);
});
