/**
 * The n8n transport of the core: `send` goes through
 * `httpRequestWithAuthentication`, so the credential's `authenticate` adds the
 * Bearer header and n8n's proxy and cancellation settings apply. It resolves
 * for every HTTP status (the core decides what a status means, a redirect
 * included: n8n follows none) and hands the raw text of the body to the core.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import type { PostWriterClient, RetryPolicy } from '../../../shared/client';
import type { HeaderValue, Send } from '../../../shared/base';
import { BRAND } from '../../../shared/base';
import { PostWriterClient as Client } from '../../../shared/client';
import { ValidationError } from '../../../shared/errors';
import { Pacer, PacerRegistry } from '../../../shared/pacing';
import { PaidMemory } from '../../../shared/paid';
import { normaliseBaseUrl } from '../../../shared/catalogue';
import { errorTexts } from '../helpers/node-errors';

export type PostWriterContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

interface FullResponse {
	body: unknown;
	headers?: Record<string, HeaderValue>;
	statusCode: number;
}

export function createSend(ctx: PostWriterContext): Send {
	return async (request) => {
		const options: IHttpRequestOptions = {
			method: request.method as IHttpRequestMethods,
			url: request.url,
			headers: { ...request.headers, 'User-Agent': BRAND.userAgent } as IDataObject,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: false,
			encoding: 'text',
			timeout: request.timeoutMs,
			// A redirect is handed to the core, which follows it only within the Base URL's origin (shared/client/redirects.ts): n8n would send the key along.
			disableFollowRedirect: true,
			// And should an n8n ever follow one anyway, without the key to another origin.
			sendCredentialsOnCrossOriginRedirect: false,
		};
		if (request.body !== undefined) options.body = JSON.stringify(request.body);
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			BRAND.n8nCredentialName,
			options,
		)) as FullResponse;
		return { status: response.statusCode, headers: response.headers ?? {}, body: response.body };
	};
}

/**
 * One pacing per API key and base URL in this n8n process: every execution,
 * trigger poll and list search on the key shares it (the service counts its
 * quota per key). Created on first use, dropped after 10 idle minutes, keyed
 * by a SHA-256 digest (no key is held in clear). Queue-mode workers are
 * processes of their own: they cooperate through the answers' rate-limit
 * headers (see shared/pacing/pacer.ts).
 */
export const PACERS = new PacerRegistry({
	digest: (text) => createHash('sha256').update(text).digest('hex'),
	create: () => new Pacer({ sleep, now: () => Date.now() }),
});

/**
 * The outcomes of the paid calls of every execution in this n8n process
 * (shared/paid/paid-memory.ts), so that Retry On Fail and an execution's Retry
 * never pay twice. Bounded in entries, bytes and time; its ids are SHA-256
 * digests of the credential, the scope and the request (nothing in clear).
 * Queue-mode workers are processes of their own: each has its own memory.
 */
export const PAID_MEMORY = new PaidMemory({
	now: () => Date.now(),
	digest: (text) => createHash('sha256').update(text).digest('hex'),
});

/** Each client is a party of the key's pacing: executions are served round robin. */
let parties = 0;
function newParty(): string {
	parties = (parties + 1) % Number.MAX_SAFE_INTEGER;
	return `run-${parties}`;
}

export interface ClientSettings {
	retry?: Partial<RetryPolicy>;
	/** Absolute time (ms) no request may outlive (see the core's ClientOptions.deadline). */
	deadline?: number;
	/** The credential when already read (readCredential). */
	credential?: Credential;
}

/** The setting that sets the quota's time budget, as the node names it. */
export const QUOTA_BUDGET_SETTING = 'Options › Maximum Wait for the Quota';

/** The credential's key and base URL (normalised; a wrong one is reported on the node). */
export interface Credential {
	apiKey: string;
	baseUrl: string;
}

export async function readCredential(ctx: PostWriterContext): Promise<Credential> {
	const credentials = await ctx.getCredentials(BRAND.n8nCredentialName);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
	try {
		return { apiKey, baseUrl: normaliseBaseUrl(String(credentials.baseUrl ?? BRAND.defaultBaseUrl)) };
	} catch (error) {
		const message = error instanceof ValidationError ? error.message : String(error);
		const fix = `Open the ${BRAND.displayName} API credential and fix its 'Base URL'.`;
		const { title, description } = errorTexts(`Base URL in the credential: ${message.replace(/^baseUrl:\s*/, '')}`, fix);
		throw new NodeOperationError(ctx.getNode(), title, { description });
	}
}

/** A client on the node's credential: base URL normalised, n8n's sleep, the key's shared pacing, the key registered for redaction. */
export async function createClient(ctx: PostWriterContext, settings: ClientSettings = {}): Promise<PostWriterClient> {
	const { apiKey, baseUrl } = settings.credential ?? (await readCredential(ctx));
	return new Client({
		baseUrl,
		send: createSend(ctx),
		sleep,
		apiKey,
		retry: settings.retry,
		deadline: settings.deadline,
		pacer: PACERS.get(apiKey, baseUrl),
		party: newParty(),
		quotaBudgetSetting: QUOTA_BUDGET_SETTING,
		onRetry: (event) =>
			ctx.logger.info(`${BRAND.displayName}: ${event.operation} ${event.reason}; attempt ${event.attempt} waits ${event.delayMs} ms`),
	});
}
