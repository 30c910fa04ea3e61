/**
 * The axios transport: for the project's scripts (sandbox tools, e2e, bench)
 * and for anyone's in-house script. Never imported by code that n8n loads.
 */
import axios, { type AxiosInstance } from 'axios';
import { createHash } from 'node:crypto';
import { BRAND } from '../shared/base';
import { PostWriterClient, type ClientOptions } from '../shared/client';
import { Pacer, PacerRegistry } from '../shared/pacing';
import { normaliseBaseUrl } from '../shared/catalogue';
import type { Send, Sleep } from '../shared/base';

export function createAxiosSend(apiKey: string, instance: AxiosInstance = axios.create()): Send {
	return async (request) => {
		const response = await instance.request({
			method: request.method,
			url: request.url,
			headers: { ...request.headers, Authorization: `Bearer ${apiKey}`, 'User-Agent': BRAND.userAgent },
			data: request.body === undefined ? undefined : JSON.stringify(request.body),
			timeout: request.timeoutMs,
			responseType: 'text',
			transformResponse: [(data: unknown) => data],
			validateStatus: () => true,
			maxRedirects: 0,
		});
		return { status: response.status, headers: response.headers as Record<string, string>, body: response.data };
	};
}

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One pacing per API key and base URL in this process: every standalone client on a key shares it (keyed by a SHA-256 digest). */
export const PACERS = new PacerRegistry({
	digest: (text) => createHash('sha256').update(text).digest('hex'),
	create: () => new Pacer({ sleep: realSleep, now: () => Date.now() }),
});

export interface StandaloneOptions extends Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>> {
	baseUrl: string;
	apiKey: string;
	axiosInstance?: AxiosInstance;
}

/** A ready-to-use client over axios, with real timers and the key's shared pacing. */
export function createStandaloneClient(options: StandaloneOptions): PostWriterClient {
	const { apiKey, axiosInstance, ...rest } = options;
	// The key's shared pacing, unless the caller brings its own clock or pacing (tests, a custom scheduler).
	const shared = rest.pacer === undefined && rest.sleep === undefined && rest.now === undefined;
	return new PostWriterClient({
		send: createAxiosSend(apiKey, axiosInstance),
		sleep: realSleep,
		...rest,
		...(shared ? { pacer: PACERS.get(apiKey, normaliseBaseUrl(rest.baseUrl)) } : {}),
		apiKey,
	});
}
