/**
 * The wire types shared by the request builder, the response reader, the
 * client and the adapters that inject a transport, and the one reading of a
 * header from them. Imports nothing.
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

/** A header's value by name, whatever its case; the first of a repeated header. */
export function headerValue(headers: Record<string, HeaderValue> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [k, v] of Object.entries(headers)) {
		if (k.toLowerCase() !== wanted || v === undefined || v === null) continue;
		return Array.isArray(v) ? v[0] : String(v);
	}
	return undefined;
}

/** The origin (scheme, host and port) of a URL, or undefined when it is not one: the boundary the API key never crosses. */
export function originOf(url: unknown): string | undefined {
	return typeof url === 'string' && URL.canParse(url) ? new URL(url).origin : undefined;
}
