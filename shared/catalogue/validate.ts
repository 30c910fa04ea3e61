/**
 * Validation before any request, derived from the catalogue's field specs.
 * Every error names the field and says what is wrong with it.
 */
import { ValidationError } from '../errors';
import type { OperationKey } from './operations';
import type { FieldSpec, OperationSpec } from './spec';
import { getOperation } from './operations';

const ISO_DATETIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_DATETIME_NO_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}…"` : `"${value}"`;
	return typeof value === 'object' ? 'an object' : String(value);
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isRealDate(value: string): boolean {
	const m = YMD.exec(value);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Parses an ISO 8601 timestamp that carries a zone (Z or an offset) and
 * returns it in UTC (`toISOString`). Throws a ValidationError naming the field.
 */
export function toUtcTimestamp(field: string, value: unknown, operation?: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new ValidationError(field, `must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z, got ${describe(value)}.`, operation);
	}
	const text = value.trim();
	if (ISO_DATETIME_NO_ZONE.test(text)) {
		throw new ValidationError(
			field,
			`"${text}" has no time zone. Add "Z" for UTC or an offset such as +02:00, for example ${text}Z.`,
			operation,
		);
	}
	const m = ISO_DATETIME.exec(text);
	if (!m || !isRealDate(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
		throw new ValidationError(field, `must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z, got ${describe(value)}.`, operation);
	}
	const ms = Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
	if (Number.isNaN(ms)) {
		throw new ValidationError(field, `is not a valid timestamp: ${describe(value)}.`, operation);
	}
	return new Date(ms).toISOString();
}

function checkField(spec: FieldSpec, value: unknown, op: OperationSpec, input: Record<string, unknown>, now: number): unknown {
	const field = spec.name;
	const fail = (problem: string): never => {
		throw new ValidationError(field, problem, op.key);
	};
	switch (spec.type) {
		case 'string':
		case 'text': {
			if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
			if (typeof value !== 'string') fail(`must be text, got ${describe(value)}.`);
			const text = (value as string).trim();
			if (text === '') fail('must not be empty.');
			if (spec.maxLength !== undefined && text.length > spec.maxLength) {
				fail(`is ${text.length} characters long; the maximum is ${spec.maxLength}.`);
			}
			return spec.type === 'text' ? (value as string) : text;
		}
		case 'integer': {
			let n = value;
			if (typeof n === 'string' && /^\s*-?\d+\s*$/.test(n)) n = Number(n);
			if (typeof n !== 'number' || !Number.isInteger(n)) fail(`must be a whole number, got ${describe(value)}.`);
			const num = n as number;
			if (spec.min !== undefined && num < spec.min) {
				fail(spec.max !== undefined ? `must be between ${spec.min} and ${spec.max}, got ${num}.` : `must be at least ${spec.min}, got ${num}.`);
			}
			if (spec.max !== undefined && num > spec.max) {
				fail(spec.min !== undefined ? `must be between ${spec.min} and ${spec.max}, got ${num}.` : `must be at most ${spec.max}, got ${num}.`);
			}
			return num;
		}
		case 'boolean': {
			if (value === 'true') return true;
			if (value === 'false') return false;
			if (typeof value !== 'boolean') fail(`must be true or false, got ${describe(value)}.`);
			return value;
		}
		case 'datetime': {
			const iso = toUtcTimestamp(field, value, op.key);
			if (spec.future && Date.parse(iso) <= now) {
				fail(`${iso} is in the past; it must lie in the future (now is ${new Date(now).toISOString()}).`);
			}
			return iso;
		}
		case 'date': {
			if (typeof value !== 'string' || !YMD.test(value.trim())) {
				fail(`must be a date written YYYY-MM-DD, got ${describe(value)}.`);
			}
			const text = (value as string).trim();
			if (!isRealDate(text)) fail(`${text} is not a real calendar date.`);
			if (spec.notBefore) {
				const other = input[spec.notBefore];
				if (typeof other === 'string' && isRealDate(other.trim()) && text < other.trim()) {
					fail(`${text} is before ${spec.notBefore} (${other.trim()}); ${spec.notBefore} must be on or before ${field}.`);
				}
			}
			return text;
		}
		case 'answers': {
			if (!Array.isArray(value)) fail(`must be a list of {questionId, answer} objects, got ${describe(value)}.`);
			const list = value as unknown[];
			if (list.length === 0) fail('must hold at least one {questionId, answer} object.');
			return list.map((entry, i) => {
				if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
					throw new ValidationError(`${field}[${i}]`, `must be an object {questionId, answer}, got ${describe(entry)}.`, op.key);
				}
				const { questionId, answer } = entry as Record<string, unknown>;
				if (typeof questionId !== 'string' || questionId.trim() === '') {
					throw new ValidationError(`${field}[${i}].questionId`, 'must be a non-empty text.', op.key);
				}
				if (typeof answer !== 'string' || answer.trim() === '') {
					throw new ValidationError(`${field}[${i}].answer`, `must be a non-empty text (question ${questionId}).`, op.key);
				}
				return { questionId: questionId.trim(), answer };
			});
		}
	}
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Validates and normalises the input of an operation. Unknown keys are
 * dropped; empty optional fields are left out. Throws ValidationError.
 */
export function validateInput(key: OperationKey, input: unknown, now: number): Record<string, unknown> {
	const op = getOperation(key);
	if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
		throw new ValidationError('input', `must be an object of fields, got ${describe(input)}.`, op.key);
	}
	const raw = (input ?? {}) as Record<string, unknown>;
	const out: Record<string, unknown> = {};
	for (const spec of op.fields) {
		const value = raw[spec.name];
		if (isEmpty(value)) {
			if (spec.required) {
				throw new ValidationError(spec.name, 'is required and must not be empty.', op.key);
			}
			continue;
		}
		out[spec.name] = checkField(spec, value, op, raw, now);
	}
	return out;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname.endsWith('.localhost');
}

/**
 * Normalises the credential's base URL: https (http only on loopback), no
 * trailing slash, ending in `/api/v1`. A missing version segment is added.
 */
export function normaliseBaseUrl(raw: unknown): string {
	const field = 'baseUrl';
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new ValidationError(field, 'is required: the API address ending in /api/v1, for example https://app.example.com/api/v1.');
	}
	const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : undefined;
	if (!url) {
		throw new ValidationError(field, `"${raw.trim()}" is not a URL. Use the API address ending in /api/v1, for example https://app.example.com/api/v1.`);
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
		throw new ValidationError(
			field,
			`must use https (http is accepted only for localhost and 127.0.0.1), got ${url.protocol}//${url.host}.`,
		);
	}
	if (url.username || url.password) {
		throw new ValidationError(field, 'must not contain a user name or password; put the API key in the API Key field.');
	}
	let path = url.pathname.replace(/\/+$/, '');
	const v = /^(.*?\/api\/v1)(\/.*)?$/.exec(path);
	if (v) {
		path = v[1];
	} else if (/\/api\/v\d+$/.test(path)) {
		throw new ValidationError(field, `points at ${path.slice(path.lastIndexOf('/') + 1)}; this integration speaks API v1, so end the address with /api/v1.`);
	} else if (path.endsWith('/api')) {
		path = `${path}/v1`;
	} else {
		path = `${path}/api/v1`;
	}
	return `${url.protocol}//${url.host}${path}`;
}
