import { PostWriterClient, type ClientOptions } from '../../shared/client';
import { createAxiosSend } from '../../sdk/axios';

export const TEST_KEY = 'pw_live_TESTKEY0123456789abcdef0123456789';
export const BASE = 'https://api.test.example/api/v1';

/** A client over axios (intercepted by nock) whose sleep records delays instead of waiting. */
export function nockClient(overrides: Partial<ClientOptions> = {}) {
	const sleeps: number[] = [];
	const client = new PostWriterClient({
		baseUrl: BASE,
		send: createAxiosSend(TEST_KEY),
		sleep: async (ms) => {
			sleeps.push(ms);
		},
		random: () => 0.5,
		apiKey: TEST_KEY,
		...overrides,
	});
	return { client, sleeps };
}

export async function caught(p: Promise<unknown>): Promise<any> {
	try {
		await p;
	} catch (e) {
		return e;
	}
	throw new Error('expected a rejection');
}
