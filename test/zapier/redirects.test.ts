/**
 * Redirects through the Zapier app (z.request with redirect: 'manual'), on
 * real loopback servers: a redirect to another host fails the step with the
 * core's message, and nothing reaches that host (no key, no prompt); a
 * redirect within the Base URL's origin is followed.
 */
import { REDIRECT_STATUSES } from '../../shared/client';
import { REDIRECT_TEST_KEY as KEY, useRedirectServers } from '../helpers/redirect-servers';
import { bundle, details, rejection, run, runAuthTest } from './helpers';

const FOUR = [...REDIRECT_STATUSES].filter((s) => s !== 303);

const redirects = useRedirectServers();

const auth = (status: number, kind: 'elsewhere' | 'same') => ({ apiKey: KEY, baseUrl: redirects().baseUrl(status, kind) });

test.each(FOUR)('Generate answered %i towards another host: the step fails naming it; nothing reaches that host', async (status) => {
	const servers = redirects();
	const e = details(await rejection(run('creates', 'generatePost', bundle({ prompt: 'A post about redirects' }, {}, auth(status, 'elsewhere')))));
	expect(e.message).toMatch(new RegExp(`^POST /generate was answered ${status} `));
	expect(e.message).toContain(`pointing to ${servers.elsewhereOrigin}/api/v1/generate`);
	expect(e.message).toContain('the API key did not leave for it');
	expect(e.message).toContain('nothing was charged');
	expect(e.message).not.toMatch(/lost its connection/);
	expect(e.code).toBe('REDIRECTED');
	expect(servers.front).toHaveLength(1);
	expect(servers.elsewhere).toEqual([]);
});

test.each(FOUR)('Generate answered %i within the same origin: followed', async (status) => {
	const servers = redirects();
	const out = await run('creates', 'generatePost', bundle({ prompt: 'A post about redirects' }, {}, auth(status, 'same')));
	expect(out).toMatchObject({ proposals: expect.arrayContaining(['Redirected proposal one.']) });
	expect(servers.front.map((r) => [r.method, r.authorization])).toEqual([
		['POST', `Bearer ${KEY}`],
		['POST', `Bearer ${KEY}`],
	]);
	expect(servers.elsewhere).toEqual([]);
});

test('the connection test and a trigger follow the same rule', async () => {
	const servers = redirects();
	const authError = details(await rejection(runAuthTest(bundle({}, {}, auth(308, 'elsewhere')))));
	expect(authError.message).toMatch(/^GET \/account\/profile was answered 308 Permanent Redirect, pointing to http:\/\/localhost/);
	const pollError = details(await rejection(run('triggers', 'newPublishedPost', bundle({}, {}, auth(301, 'elsewhere')))));
	expect(pollError.message).toMatch(/^GET \/posts was answered 301 Moved Permanently/);
	expect(servers.elsewhere).toEqual([]);
	const label = await runAuthTest(bundle({}, {}, auth(307, 'same')));
	expect(label).toMatchObject({ connectionLabel: 'Redirect Tester (redirect@example.com)' });
});
