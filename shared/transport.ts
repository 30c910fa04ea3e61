/**
 * The wire types shared by the request builder, the response reader, the
 * client and the adapters that inject a transport. Types only.
 */
export interface HttpRequest {
	method: 'GET' | 'POST';
	/** Absolute URL including the query string. */
	url: string;
	headers: Record<string, string>;
	/** JSON body (an object); adapters serialise it. */
	body?: Record<string, unknown>;
	/** Per-attempt timeout the adapter should apply. */
	timeoutMs?: number;
}

export type HeaderValue = string | string[] | number | undefined | null;

export interface HttpResponse {
	status: number;
	headers: Record<string, HeaderValue>;
	/** The raw text (preferred) or an already parsed value. */
	body: unknown;
}

/** The injected transport. Must resolve for every HTTP status; reject only when no response came. */
export type Send = (request: HttpRequest) => Promise<HttpResponse>;
/** The injected wait (n8n's `sleep`, a Zapier-safe wait, or a fake clock in tests). */
export type Sleep = (ms: number) => Promise<void>;
