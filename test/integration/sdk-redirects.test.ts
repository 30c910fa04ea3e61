/**
 * Redirects through the standalone SDK (axios with maxRedirects: 0), on real
 * loopback servers: a redirect to another host is a RedirectError and that
 * host is never reached; one within the Base URL's origin is followed.
 */
import { RedirectError, createStandaloneClient } from '../../sdk';
import { REDIRECT_STATUSES } from '../../shared/client';
import { REDIRECT_TEST_KEY as KEY, useRedirectServers } from '../helpers/redirect-servers';
import { caught } from '../helpers/fake';

const FOUR = [...REDIRECT_STATUSES].filter((s) => s !== 303);

const redirects = useRedirectServers();

test.each(FOUR)('%i towards another host: a RedirectError, and that host is never reached', async (status) => {
	const servers = redirects();
	const client = createStandaloneClient({ apiKey: KEY, baseUrl: servers.baseUrl(status, 'elsewhere') });
	const e = await caught(client.generatePost({ prompt: 'A post about redirects' }));
	expect(e).toBeInstanceOf(RedirectError);
	expect(e.message).toContain(`pointing to ${servers.elsewhereOrigin}/api/v1/generate`);
	expect(servers.front).toHaveLength(1);
	expect(servers.elsewhere).toEqual([]);
});

test.each(FOUR)('%i within the same origin: followed with the key', async (status) => {
	const servers = redirects();
	const client = createStandaloneClient({ apiKey: KEY, baseUrl: servers.baseUrl(status, 'same') });
	expect(await client.generatePost({ prompt: 'A post about redirects' })).toMatchObject({ creditsRemaining: 42 });
	expect(servers.front.map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
});

test('the other host is reachable at the address the redirects name (so a leak would show)', async () => {
	const servers = redirects();
	const res = await fetch(`${servers.elsewhereOrigin}/api/v1/credits`);
	expect(res.status).toBe(200);
	expect(servers.elsewhere).toHaveLength(1);
});
