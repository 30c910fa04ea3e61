/**
 * Validation of an operation's input from the catalogue's field specs: types,
 * lengths, ranges, dates and the answers array, with the defaults of absent
 * fields. A refused field throws the 400 VALIDATION_ERROR naming it.
 */
import type { FieldSpec, OperationSpec } from '../shared/catalogue';
import { validation } from './api-errors';

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(text: string): boolean {
	const m = YMD.exec(text);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A field that is missing, null or the empty string counts as not sent. */
export function isAbsent(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function checkField(spec: FieldSpec, raw: unknown, source: Record<string, unknown>, now: number, fromQuery: boolean): unknown {
	const name = spec.name;
	switch (spec.type) {
		case 'string':
		case 'text': {
			if (typeof raw !== 'string') throw validation(name, `${name} must be a string`);
			if (raw.trim() === '') throw validation(name, `${name} must not be empty`);
			if (spec.maxLength !== undefined && raw.length > spec.maxLength) {
				throw validation(name, `${name} must be at most ${spec.maxLength} characters (got ${raw.length})`);
			}
			return raw;
		}
		case 'integer': {
			let n: unknown = raw;
			if (fromQuery && typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) n = Number(raw.trim());
			const range =
				spec.min !== undefined && spec.max !== undefined
					? ` between ${spec.min} and ${spec.max}`
					: spec.min !== undefined
						? ` of at least ${spec.min}`
						: spec.max !== undefined
							? ` of at most ${spec.max}`
							: '';
			if (typeof n !== 'number' || !Number.isInteger(n) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
				throw validation(name, `${name} must be an integer${range}`);
			}
			return n;
		}
		case 'boolean': {
			if (fromQuery && (raw === 'true' || raw === 'false')) return raw === 'true';
			if (typeof raw !== 'boolean') throw validation(name, `${name} must be a boolean (true or false)`);
			return raw;
		}
		case 'datetime': {
			const example = 'such as 2026-12-01T09:00:00Z';
			if (typeof raw !== 'string') throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			const m = ISO_DATETIME.exec(raw.trim());
			if (!m || !isRealDate(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
				throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example} (got "${raw.slice(0, 40)}")`);
			}
			const ms = Date.parse(raw.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
			if (Number.isNaN(ms)) throw validation(name, `${name} must be an ISO 8601 UTC timestamp ${example}`);
			if (spec.future && ms <= now) {
				throw validation(name, `${name} must be in the future (got ${new Date(ms).toISOString()}, sandbox time is ${new Date(now).toISOString()})`);
			}
			return new Date(ms).toISOString();
		}
		case 'date': {
			if (typeof raw !== 'string' || !YMD.test(raw)) throw validation(name, `${name} must be a date written YYYY-MM-DD`);
			if (!isRealDate(raw)) throw validation(name, `${name} is not a real calendar date: ${raw}`);
			if (spec.notBefore) {
				const other = source[spec.notBefore];
				if (typeof other === 'string' && isRealDate(other) && raw < other) {
					throw validation(name, `${name} (${raw}) must not be before ${spec.notBefore} (${other})`);
				}
			}
			return raw;
		}
		case 'answers': {
			if (!Array.isArray(raw) || raw.length === 0) throw validation(name, `${name} must be a non-empty array of {questionId, answer} objects`);
			return raw.map((entry, i) => {
				if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
					throw validation(`${name}[${i}]`, `${name}[${i}] must be an object {questionId, answer}`);
				}
				const { questionId, answer } = entry as Record<string, unknown>;
				if (typeof questionId !== 'string' || questionId.trim() === '') {
					throw validation(`${name}[${i}].questionId`, `${name}[${i}].questionId must be a non-empty string`);
				}
				if (typeof answer !== 'string' || answer.trim() === '') {
					throw validation(`${name}[${i}].answer`, `${name}[${i}].answer must be a non-empty string (question ${questionId})`);
				}
				return { questionId: questionId.trim(), answer };
			});
		}
	}
}

/** Validates the body and query fields of an operation; path fields come from the route. */
export function validateFields(op: OperationSpec, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>, now: number): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const querySource: Record<string, unknown> = {};
	for (const [k, v] of query) querySource[k] = v;
	for (const spec of op.fields) {
		if (spec.in === 'path') {
			out[spec.name] = params[spec.name];
			continue;
		}
		const source = spec.in === 'query' ? querySource : body;
		const raw = source[spec.name];
		if (isAbsent(raw)) {
			if (spec.required) throw validation(spec.name, `${spec.name} is required`);
			if (spec.default !== undefined) out[spec.name] = spec.default;
			continue;
		}
		out[spec.name] = checkField(spec, raw, source, now, spec.in === 'query');
	}
	return out;
}

/** An optional string field of a validated input: the string, or undefined when it was not sent. */
export function str(v: unknown): string | undefined {
	return typeof v === 'string' ? v : undefined;
}
