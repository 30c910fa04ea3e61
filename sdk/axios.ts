/**
 * The axios transport: for the project's scripts (sandbox tools, e2e, bench)
 * and for anyone's in-house script. Never imported by code that n8n loads.
 */
import axios, { type AxiosInstance } from 'axios';
import { BRAND } from '../shared/brand';
import { PostWriterClient, type ClientOptions } from '../shared/client';
import type { Send, Sleep } from '../shared/transport';

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

export interface StandaloneOptions extends Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>> {
	baseUrl: string;
	apiKey: string;
	axiosInstance?: AxiosInstance;
}

/** A ready-to-use client over axios, with real timers. */
export function createStandaloneClient(options: StandaloneOptions): PostWriterClient {
	const { apiKey, axiosInstance, ...rest } = options;
	return new PostWriterClient({
		send: createAxiosSend(apiKey, axiosInstance),
		sleep: realSleep,
		...rest,
		apiKey,
	});
}
