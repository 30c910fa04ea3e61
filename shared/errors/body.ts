/**
 * What an error body says: its code and its human message, whatever the
 * form. The spec does not show its error bodies, so every common one is
 * read:
 * - `{error: {code, message}}`, `{code, message}`, `{error, message}`,
 *   `{message}`, `{error: "<text>"}`, a plain text body;
 * - OAuth 2 (RFC 6749 §5.2, RFC 6750 §3): `{error: "<code>",
 *   error_description: "<the human message>", scope?}`;
 * - problem details (RFC 9457): `{type, title, status, detail}`, the code
 *   from a `code` member or the last part of `type`;
 * - lists of errors (`{errors: [{message | detail | title, code}]}`, JSON:API
 *   and GraphQL style).
 * The human message wins over a bare code (`FORBIDDEN`, `invalid_token`),
 * which is kept as the code; the scope a refusal names, and the state of a
 * key (revoked, expired), are read from the whole of it (mapping.ts).
 *
 * A leaf of the core: it imports nothing (mapping.ts, which imports it, is
 * three files deep in the core's import chains).
 */
import type { Obj } from '../base';

export interface ErrorInfo {
	code?: string;
	message?: string;
	/** The scope the body names in a field of its own (`scope`, `required_scope`…), if any. */
	scope?: string;
}


/** A non-blank string, trimmed (values.ts's `str`, here because this leaf imports nothing). */
function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

const isObj = (value: unknown): value is Obj => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** A bare code rather than a sentence: `FORBIDDEN`, `API_KEY_REVOKED`, OAuth's `invalid_token`, `insufficient_scope`. */
export function isBareCode(value: string): boolean {
	return /^[A-Z][A-Z0-9_]+$/.test(value) || /^[a-z]+(_[a-z0-9]+)+$/.test(value);
}

/** A problem type's last part as a code (`https://example.com/problems/workflow-busy` → `WORKFLOW_BUSY`); none for `about:blank`. */
function codeOfType(type: unknown): string | undefined {
	const t = text(type);
	if (!t || t === 'about:blank') return undefined;
	const last = t.split(/[/#:]/).filter(Boolean).pop();
	return last && /^[a-z][a-z0-9-_]*$/i.test(last) ? last.replace(/-/g, '_').toUpperCase() : undefined;
}

/** Names of a field holding the scope a refusal asks for. */
const SCOPE_FIELDS = ['scope', 'required_scope', 'requiredScope', 'missing_scope', 'missingScope', 'scopes', 'required_scopes'];

function scopeIn(b: Obj): string | undefined {
	for (const name of SCOPE_FIELDS) {
		const v = b[name];
		const s = Array.isArray(v) ? text(v[0]) : text(v);
		if (s) return s.split(/\s+/)[0];
	}
	return undefined;
}

/**
 * The code and the human message of an error body, and the scope it names
 * in a field of its own. Messages are tried from the most specific
 * (a nested error's message, `error_description`, `detail`, `message`, the
 * first of `errors`) to the least (`title`, then a bare code in `error` or
 * `message`, when nothing says more).
 */
export function extractErrorInfo(value: unknown): ErrorInfo {
	if (typeof value === 'string') {
		const t = value.trim();
		return t === 'WORKFLOW_BUSY' ? { code: t, message: t } : { message: t || undefined };
	}
	if (!isObj(value)) return {};
	const b = value;
	const nested = isObj(b.error) ? b.error : undefined;
	const first = Array.isArray(b.errors) && b.errors.length > 0 ? extractErrorInfo(b.errors[0]) : {};
	const errorText = text(b.error);
	const messageText = text(b.message);
	const bare = (t: string | undefined) => (t !== undefined && isBareCode(t) ? t : undefined);
	const human = (t: string | undefined) => (t !== undefined && !isBareCode(t) ? t : undefined);
	const code =
		(nested && (text(nested.code) ?? text(nested.type))) ??
		text(b.code) ??
		text(b.error_code) ??
		text(b.errorCode) ??
		bare(errorText) ??
		bare(messageText) ??
		first.code ??
		codeOfType(b.type);
	const message =
		(nested && (text(nested.message) ?? text(nested.detail) ?? text(nested.description) ?? text(nested.error_description))) ??
		human(text(b.error_description)) ??
		human(text(b.detail)) ??
		human(messageText) ??
		human(first.message) ??
		human(errorText) ??
		text(b.title) ??
		text(b.error_description) ??
		messageText ??
		first.message ??
		errorText;
	const scope = scopeIn(b) ?? (nested && scopeIn(nested)) ?? first.scope;
	const info: ErrorInfo = { code: code ?? (message === 'WORKFLOW_BUSY' ? 'WORKFLOW_BUSY' : undefined), message };
	if (scope) info.scope = scope;
	return info;
}

/** True when a 2xx body is in fact an error envelope. */
export function looksLikeErrorEnvelope(value: unknown): boolean {
	if (!isObj(value)) return false;
	if (value.success === false || value.ok === false) return true;
	if (value.error && (typeof value.error === 'string' || typeof value.error === 'object')) return true;
	return value.code === 'WORKFLOW_BUSY' || value.message === 'WORKFLOW_BUSY';
}
