/**
 * Fake n8n contexts for the node and the trigger. Parameters get their
 * defaults from the node description through n8n-workflow's own
 * NodeHelpers.getNodeParameters (display options included), `={{ $json.… }}`
 * expressions are resolved on the input item, and
 * helpers.httpRequestWithAuthentication sends real HTTP (to the sandbox or
 * nock) with the credential's Bearer header, as n8n's would.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	IPollFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PostWriter } from '../../../n8n/nodes/PostWriter/PostWriter.node';
import { PostWriterTrigger } from '../../../n8n/nodes/PostWriterTrigger/PostWriterTrigger.node';

export interface Credentials {
	apiKey: string;
	baseUrl: string;
}

export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body?: unknown;
}

export interface Transport {
	requests: SentRequest[];
	/** Requests whose path (after /api/v1) starts with `prefix`. */
	count(prefix?: string): number;
	reset(): void;
}

const NODE_PROPERTIES = new PostWriter().description.properties;
const TRIGGER_PROPERTIES = new PostWriterTrigger().description.properties;

function createTransport(): Transport & { send: (credentials: Credentials, options: IHttpRequestOptions) => Promise<unknown> } {
	const requests: SentRequest[] = [];
	return {
		requests,
		count(prefix = '') {
			return requests.filter((r) => new URL(r.url).pathname.replace(/^.*\/api\/v1/, '').startsWith(prefix)).length;
		},
		reset() {
			requests.length = 0;
		},
		async send(credentials, options) {
			const headers: Record<string, string> = {};
			for (const [k, v] of Object.entries(options.headers ?? {})) headers[k] = String(v);
			headers.Authorization = `Bearer ${credentials.apiKey}`;
			const body = typeof options.body === 'string' ? options.body : options.body === undefined ? undefined : JSON.stringify(options.body);
			requests.push({ method: options.method ?? 'GET', url: options.url, headers, body: body === undefined ? undefined : JSON.parse(body) });
			const res = await fetch(options.url, {
				method: options.method ?? 'GET',
				headers,
				body,
				// As n8n's helper: a redirect is followed unless disableFollowRedirect (fetch, unlike n8n, drops the key on the way).
				redirect: options.disableFollowRedirect ? 'manual' : 'follow',
				signal: options.timeout ? AbortSignal.timeout(options.timeout) : undefined,
			});
			const text = await res.text();
			const responseHeaders: Record<string, string> = {};
			res.headers.forEach((value, key) => {
				responseHeaders[key] = value;
			});
			if (!options.ignoreHttpStatusErrors && res.status >= 400) throw new Error(`HTTP ${res.status}`);
			return options.returnFullResponse ? { body: text, headers: responseHeaders, statusCode: res.status } : text;
		},
	};
}

/** Resolves `={{ $json.a.b[0].c }}` on the item; other values pass through. */
function resolveExpression(value: unknown, json: IDataObject): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	const m = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[\d+\])*)\s*\}\}$/.exec(value);
	if (!m) return value.slice(1);
	let current: unknown = json;
	for (const part of m[1].match(/\.[A-Za-z_$][\w$]*|\[\d+\]/g) ?? []) {
		if (current === null || current === undefined) return undefined;
		const key = part.startsWith('.') ? part.slice(1) : Number(part.slice(1, -1));
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

function withDefaults(properties: INodeProperties[], values: IDataObject): INodeParameters {
	return (NodeHelpers.getNodeParameters(properties, values as INodeParameters, true, false, { typeVersion: 1 }, null) ?? {}) as INodeParameters;
}

const NODE: INode = {
	id: 'node-1',
	name: 'Post Writer',
	type: 'n8n-nodes-post-writer.postWriter',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export interface Logged {
	level: string;
	message: string;
}

function createLogger(logs: Logged[]) {
	const log = (level: string) => (message: string) => {
		logs.push({ level, message });
	};
	return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), verbose: log('verbose') };
}

export interface ExecuteOptions {
	credentials: Credentials;
	/** Parameters for every item, or per item. */
	params: IDataObject | ((itemIndex: number) => IDataObject);
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	timezone?: string;
	transport?: Transport;
	/** What n8n tells of the run: the execution id, the workflow id, the mode (`retry` for a retry of an execution). None by default. */
	run?: { executionId?: string; workflowId?: string; mode?: string };
}

export function executeContext(options: ExecuteOptions) {
	const transport = (options.transport as ReturnType<typeof createTransport>) ?? createTransport();
	const items = options.items ?? [{ json: {} }];
	const logs: Logged[] = [];
	const hints: Array<{ message: string; location?: string }> = [];
	// The parameters of an item do not change during a run: computed once per item (n8n's defaults over the whole description are not cheap).
	const cache = new Map<number, INodeParameters>();
	const paramsFor = (i: number) => {
		let params = cache.get(i);
		if (!params) {
			params = withDefaults(NODE_PROPERTIES, typeof options.params === 'function' ? options.params(i) : options.params);
			cache.set(i, params);
		}
		return params;
	};
	const ctx = {
		getInputData: () => items,
		getNode: () => NODE,
		getExecutionId: () => options.run?.executionId,
		getWorkflow: () => ({ id: options.run?.workflowId, name: 'Test workflow', active: false }),
		getMode: () => options.run?.mode ?? 'manual',
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		addExecutionHints: (...added: Array<{ message: string; location?: string }>) => {
			hints.push(...added);
		},
		getCredentials: async () => ({ ...options.credentials }),
		logger: createLogger(logs),
		getNodeParameter(name: string, itemIndex: number, fallback?: unknown, opts?: { extractValue?: boolean }) {
			const params = paramsFor(itemIndex) as IDataObject;
			// As n8n does: the stored value (defaults filled, hidden parameters removed), else the fallback, else an error.
			const raw = params[name] === undefined ? fallback : params[name];
			if (raw === undefined) throw new Error('Could not get parameter');
			let value = resolveExpression(raw, items[itemIndex]?.json ?? {});
			if (opts?.extractValue && value && typeof value === 'object' && 'value' in (value as IDataObject)) {
				value = (value as IDataObject).value;
			}
			return value;
		},
		helpers: {
			httpRequestWithAuthentication: async (_name: string, req: IHttpRequestOptions) => await transport.send(options.credentials, req),
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, transport: transport as Transport, logs, hints };
}

/** Runs the node's execute() on the context; returns the first output. */
export async function runNode(options: ExecuteOptions) {
	const { ctx, transport, logs, hints } = executeContext(options);
	const [output] = await new PostWriter().execute.call(ctx);
	return { output, transport, logs, hints };
}

export async function runNodeError(options: ExecuteOptions): Promise<any> {
	try {
		await runNode(options);
	} catch (e) {
		return e;
	}
	throw new Error('expected the node to fail');
}

export function loadOptionsContext(credentials: Credentials) {
	const transport = createTransport();
	const ctx = {
		getNode: () => NODE,
		getCredentials: async () => ({ ...credentials }),
		logger: createLogger([]),
		helpers: {
			httpRequestWithAuthentication: async (_name: string, req: IHttpRequestOptions) => await transport.send(credentials, req),
		},
	};
	return { ctx: ctx as unknown as ILoadOptionsFunctions, transport: transport as Transport };
}

export interface PollOptions {
	credentials: Credentials;
	params: IDataObject;
	/** Persisted between polls, as n8n does with the workflow's static data. */
	staticData: IDataObject;
	mode?: 'trigger' | 'manual';
	transport?: Transport;
	logs?: Logged[];
	/** Extra members of the poll context (for example the durable poller's `__commitCursor`). */
	extra?: Record<string, unknown>;
}

export function pollContext(options: PollOptions) {
	const transport = (options.transport as ReturnType<typeof createTransport>) ?? createTransport();
	const logs = options.logs ?? [];
	const params = withDefaults(TRIGGER_PROPERTIES, options.params) as IDataObject;
	const ctx = {
		getNode: () => ({ ...NODE, name: 'Post Writer Trigger', type: 'n8n-nodes-post-writer.postWriterTrigger' }),
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => 'activate',
		getWorkflowStaticData: () => options.staticData,
		getCredentials: async () => ({ ...options.credentials }),
		getTimezone: () => 'UTC',
		logger: createLogger(logs),
		getNodeParameter(name: string, fallback?: unknown) {
			const value = params[name] === undefined ? fallback : params[name];
			if (value === undefined) throw new Error('Could not get parameter');
			return value;
		},
		helpers: {
			httpRequestWithAuthentication: async (_name: string, req: IHttpRequestOptions) => await transport.send(options.credentials, req),
		},
		...options.extra,
	};
	return { ctx: ctx as unknown as IPollFunctions, transport: transport as Transport, logs };
}

export function newTransport(): Transport {
	return createTransport();
}

export async function poll(options: PollOptions) {
	const { ctx, transport, logs } = pollContext(options);
	const result = await new PostWriterTrigger().poll.call(ctx);
	return { result, items: result ? result[0].map((i) => i.json) : [], transport, logs };
}
