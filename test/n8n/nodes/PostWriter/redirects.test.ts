/**
 * Redirects through the n8n node, the trigger and the credential test, on
 * real loopback servers (test/helpers/redirect-servers.ts). The fake context
 * follows redirects as n8n's helper does unless `disableFollowRedirect`, so a
 * transport that forgot the flag would send the key to the other host here.
 */
import { PostWriterApi } from '../../../../n8n/credentials/PostWriterApi.credentials';
import { REDIRECT_STATUSES } from '../../../../shared/client';
import { REDIRECT_TEST_KEY as KEY, useRedirectServers } from '../../../helpers/redirect-servers';
import { poll, runNode, runNodeError } from '../../helpers/context';

const FOUR = [...REDIRECT_STATUSES].filter((s) => s !== 303);

const redirects = useRedirectServers();

test.each(FOUR)('Generate answered %i towards another host: the item fails naming it, nothing reaches that host', async (status) => {
	const servers = redirects();
	const credentials = { apiKey: KEY, baseUrl: servers.baseUrl(status, 'elsewhere') };
	const error = await runNodeError({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'A post about redirects' } });
	expect(error.message).toMatch(new RegExp(`^POST /generate was answered ${status} `));
	expect(error.message).toContain(`pointing to ${servers.elsewhereOrigin}/api/v1/generate`);
	expect(error.description).toContain('the API key did not leave for it');
	expect(error.description).toContain('nothing was charged');
	expect(error.description).toContain('Check the Base URL');
	expect(JSON.stringify(error)).not.toContain(KEY);
	expect(servers.front).toHaveLength(1);
	expect(servers.elsewhere).toEqual([]);
});

test.each(FOUR)('Generate answered %i within the same origin: followed, with the key and the body', async (status) => {
	const servers = redirects();
	const credentials = { apiKey: KEY, baseUrl: servers.baseUrl(status, 'same') };
	const { output } = await runNode({ credentials, params: { resource: 'post', operation: 'generate', prompt: 'A post about redirects' } });
	expect(output[0].json).toMatchObject({ proposals: ['Redirected proposal one.', 'Redirected proposal two.'], creditsRemaining: 42 });
	expect(servers.front.map((r) => r.method)).toEqual(['POST', 'POST']);
	expect(servers.front[1]).toMatchObject({ authorization: `Bearer ${KEY}`, body: servers.front[0].body });
	expect(servers.elsewhere).toEqual([]);
});

test('under Continue On Fail the item carries the message, and the next item is tried on its own', async () => {
	const servers = redirects();
	const credentials = { apiKey: KEY, baseUrl: servers.baseUrl(307, 'elsewhere') };
	const { output } = await runNode({
		credentials,
		continueOnFail: true,
		items: [{ json: {} }, { json: {} }],
		params: { resource: 'post', operation: 'generate', prompt: 'A post about redirects' },
	});
	expect(output.map((i) => String(i.json.error))).toEqual([expect.stringMatching(/answered 307 Temporary Redirect/), expect.stringMatching(/answered 307/)]);
	expect(servers.elsewhere).toEqual([]);
});

test('a trigger poll answered with a redirect to another host fails with the same message', async () => {
	const servers = redirects();
	const credentials = { apiKey: KEY, baseUrl: servers.baseUrl(302, 'elsewhere') };
	const error = await poll({ credentials, params: { event: 'newPublishedPost' }, staticData: {} }).then(
		() => undefined,
		(e: unknown) => e as Error,
	);
	expect(error?.message).toMatch(/^GET \/posts was answered 302 Found, pointing to http:\/\/localhost:\d+\/api\/v1\/posts/);
	expect(servers.elsewhere).toEqual([]);
});

test('the credential test follows no redirect, and each redirect status has its own message', () => {
	const { test: credentialTest } = new PostWriterApi();
	expect(credentialTest.request.disableFollowRedirect).toBe(true);
	const byStatus = new Map(credentialTest.rules?.map((r) => [r.properties.value, String(r.properties.message)]));
	for (const status of REDIRECT_STATUSES) {
		expect(byStatus.get(status)).toMatch(new RegExp(`answered ${status}, a redirect\\. The test follows no redirect, so the API key was not sent on\\. Check the Base URL`));
	}
});
