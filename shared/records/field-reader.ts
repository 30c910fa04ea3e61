/**
 * How a record's fields are read, whatever the record's kind: the generic
 * reader behind the readers of post-records.ts and account-records.ts.
 * - a key is compared reduced (`published_at`, `PublishedAt` and
 *   `publishedAt` are the same key);
 * - the record may be nested under a key (`data`, `attributes`…), merged into
 *   its parent when that loses nothing;
 * - a value is read as its field's type: an id, text, a number, a boolean, or
 *   a date (ISO 8601 text, epoch seconds, milliseconds or microseconds, given
 *   out as ISO 8601 UTC text).
 *
 * A leaf of the core: it imports nothing (post-records.ts, which imports it, is
 * itself three files deep in the core's import chains).
 */
import { NUMERIC, isoDate } from '../base';
import type { Obj } from '../base';


/** A plain object (not an array, not null): values.ts's isObj, here because this leaf imports nothing. */
export function isRecord(value: unknown): value is Obj {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------
// Values

/** A key reduced for comparison: `published_at`, `PublishedAt` and `publishedAt` are the same key. */
export function keyOf(name: string): string {
	// Most keys are ASCII letters and digits only, and then reducing is lower-casing: the same result without
	// the regular expression (keys are reduced for every record read).
	for (let i = 0; i < name.length; i++) if (!isAsciiAlnum(name.charCodeAt(i))) return name.replace(/[^a-z0-9]/gi, '').toLowerCase();
	return name.toLowerCase();
}

/** True for the code of an ASCII letter or digit: the characters keyOf keeps. */
function isAsciiAlnum(c: number): boolean {
	return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export type ValueType = 'id' | 'text' | 'number' | 'boolean' | 'date';

export const MISSING = Symbol('missing');
export type Read = unknown | typeof MISSING;

export function readValue(type: ValueType, value: unknown): Read {
	switch (type) {
		case 'id':
			if (typeof value === 'string' && value.trim() !== '') return value.trim();
			if (typeof value === 'number' && Number.isFinite(value)) return String(value);
			return MISSING;
		case 'text':
			return typeof value === 'string' ? value : MISSING;
		case 'number':
			if (typeof value === 'number' && Number.isFinite(value)) return value;
			if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value);
			return MISSING;
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 1 || value === 'yes') return true;
			if (value === 'false' || value === 0 || value === 'no') return false;
			return MISSING;
		case 'date':
			return isoDate(value) ?? MISSING;
	}
}

// ---------------------------------------------------------------------------
// What a reader looks for

export interface FieldRule {
	readonly type: ValueType;
	/** Names read, in order; the first is the labelled key. The one whose value is used is replaced by the labelled field. */
	readonly aliases: readonly string[];
	/** Names read after the aliases whose key is kept as it was (a post's `createdAt` may stand for its publication time). */
	readonly fallbacks?: readonly string[];
}

export interface RecordSpec {
	/** What one record is called in messages ("post"). */
	readonly noun: string;
	/** Keys under which the record may be nested (besides the generic ones). */
	readonly nest: readonly string[];
	readonly fields: Readonly<Record<string, FieldRule>>;
}

/** Keys that hold the record itself, whatever its kind. */
export const GENERIC_NEST = ['data', 'attributes', 'record', 'item', 'node', 'result'];

/**
 * A rule with its names reduced once, and a spec made of such rules: rules are constants, and reducing their names
 * again for every record was most of the time a trigger spent reading a page (3 to 4 times the rest). The readers
 * compile their specs on their first use (once.ts); the generic reader takes only compiled ones.
 */
export interface CompiledRule extends FieldRule {
	/** Each name reduced (keyOf), aliases then fallbacks, with whether its key is consumed. */
	readonly keys: ReadonlyArray<readonly [string, boolean]>;
}

export interface CompiledSpec extends RecordSpec {
	readonly fields: Readonly<Record<string, CompiledRule>>;
	/** The entries of `fields`, listed once. */
	readonly fieldList: ReadonlyArray<readonly [string, CompiledRule]>;
	/** GENERIC_NEST and the spec's own nesting keys, reduced. */
	readonly nestKeys: ReadonlySet<string>;
}

export function compileRule(rule: FieldRule): CompiledRule {
	return { ...rule, keys: [...rule.aliases.map((a) => [keyOf(a), true] as const), ...(rule.fallbacks ?? []).map((a) => [keyOf(a), false] as const)] };
}

export function compileSpec(spec: RecordSpec): CompiledSpec {
	const fields: Record<string, CompiledRule> = {};
	for (const [name, rule] of Object.entries(spec.fields)) fields[name] = compileRule(rule);
	return { ...spec, fields, fieldList: Object.entries(fields), nestKeys: new Set([...GENERIC_NEST, ...spec.nest].map(keyOf)) };
}

/** Each spec of a table compiled (the table is checked against RecordSpec on the way). */
export function compileSpecs<K extends string>(specs: Readonly<Record<K, RecordSpec>>): Readonly<Record<K, CompiledSpec>> {
	const out = {} as Record<K, CompiledSpec>;
	for (const kind of Object.keys(specs) as K[]) out[kind] = compileSpec(specs[kind]);
	return out;
}

// ---------------------------------------------------------------------------
// The generic reader

/** Keys by their reduced form, first seen first. */
export function indexKeys(o: Obj): Map<string, string[]> {
	const map = new Map<string, string[]>();
	for (const k of Object.keys(o)) {
		const r = keyOf(k);
		const list = map.get(r);
		if (list) list.push(k);
		else map.set(r, [k]);
	}
	return map;
}

export function sameValue(a: unknown, b: unknown): boolean {
	return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The record out of its nesting. `base` is what the output keeps: a nested
 * object is merged into its parent when none of its keys clashes with a
 * different value there; otherwise it stays where it was. `view` is what the
 * fields are read from: the parent first, then each nested object.
 */
export function unnest(raw: Obj, nest: ReadonlySet<string>, depth = 0): { base: Obj; view: Obj } {
	let base: Obj = {};
	const nested: Array<[string, Obj]> = [];
	for (const k of Object.keys(raw)) {
		const v = raw[k];
		if (depth < 3 && isRecord(v) && nest.has(keyOf(k))) nested.push([k, v]);
		else base[k] = v;
	}
	// Nothing nested: the view is the base itself (neither is changed after; a copy was a third of a read's copying).
	if (nested.length === 0) return { base, view: base };
	let view: Obj = { ...base };
	for (const [k, v] of nested) {
		const inner = unnest(v, nest, depth + 1);
		const clash = Object.keys(inner.base).some((ik) => ik in base && !sameValue(base[ik], inner.base[ik]));
		base = clash ? { ...base, [k]: v } : { ...inner.base, ...base };
		view = { ...inner.view, ...view };
	}
	return { base, view };
}

export interface Found {
	key: string;
	value: unknown;
	consumed: boolean;
}

/** The first name of the rule present in `view` with a readable value (null counts only when nothing else does). */
export function findField(view: Obj, index: Map<string, string[]>, rule: CompiledRule): Found | undefined {
	if (index.size === 0) return undefined;
	let nullAt: Found | undefined;
	for (const [reduced, consumed] of rule.keys) {
		const keys = index.get(reduced);
		if (keys === undefined) continue;
		for (const key of keys) {
			const raw = view[key];
			if (raw === null) {
				nullAt ??= { key, value: null, consumed };
				continue;
			}
			const value = readValue(rule.type, raw);
			if (value !== MISSING) return { key, value, consumed };
		}
	}
	return nullAt;
}

export interface ReadResult {
	/** The labelled fields found. */
	labelled: Obj;
	/** Everything else, as sent. */
	rest: Obj;
	/** All fields, nesting undone (for the readers' own extra lookups). */
	view: Obj;
	index: Map<string, string[]>;
}

export function readFields(raw: Obj, spec: CompiledSpec): ReadResult {
	const { base, view } = unnest(raw, spec.nestKeys);
	const index = indexKeys(view);
	const labelled: Obj = {};
	// `rest` is `base` less the keys in `gone`, plus `originals`, built once at the end: deleting keys one by one from
	// a copy made it a slow (dictionary) object for everything after. The keys are those the deletes removed, in the
	// same order; no key a reader finds (an alias) is a property of Object.prototype, so own keys are all that count.
	const gone = new Set<string>();
	const inRest = (key: string) => Object.hasOwn(base, key) && !gone.has(key);
	for (const [field, rule] of spec.fieldList) {
		const found = findField(view, index, rule);
		if (!found) continue;
		labelled[field] = found.value;
		if (found.consumed && inRest(found.key) && sameValue(base[found.key], view[found.key])) gone.add(found.key);
	}
	let originals: Map<string, unknown> | undefined;
	for (const field of Object.keys(labelled)) {
		// A labelled key whose own value could not be read, while a synonym's could: kept beside it.
		if (inRest(field)) {
			const value = base[field];
			if (!sameValue(value, labelled[field]) && readValue(spec.fields[field].type, value) === MISSING && value !== null) {
				(originals ??= new Map()).set(`${field}Original`, value);
			}
			gone.add(field);
		}
	}
	const rest: Obj = {};
	for (const key of Object.keys(base)) if (!gone.has(key)) rest[key] = originals?.has(key) ? originals.get(key) : base[key];
	if (originals) for (const [key, value] of originals) if (!(key in rest)) rest[key] = value;
	return { labelled, rest, view, index };
}

/** The value under the first of `names` present (any casing), or undefined. */
export function pick(view: Obj, index: Map<string, string[]>, names: readonly string[]): unknown {
	for (const name of names) {
		for (const key of index.get(keyOf(name)) ?? []) if (view[key] !== undefined) return view[key];
	}
	return undefined;
}

/** Removes from `rest` the key (any casing) of the first of `names` present, when its value is `value`. */
export function consume(rest: Obj, names: readonly string[], value: unknown): void {
	for (const name of names) {
		const key = Object.keys(rest).find((k) => keyOf(k) === keyOf(name));
		if (key !== undefined && sameValue(rest[key], value)) {
			delete rest[key];
			return;
		}
	}
}

/** An array from a bare array or a wrapper (`{data: [...]}`, `{items: [...]}`, the only array in it). */
export function arrayIn(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value;
	if (!isRecord(value)) return undefined;
	for (const k of ['data', 'items', 'results', 'records', 'entries', 'nodes', 'edges']) if (Array.isArray(value[k])) return value[k] as unknown[];
	const arrays = Object.values(value).filter(Array.isArray);
	return arrays.length === 1 ? arrays[0] : undefined;
}

/** A non-object record (a bare string or number) as an object. */
export function asObj(raw: unknown): Obj {
	return isRecord(raw) ? raw : raw === undefined || raw === null ? {} : { value: raw };
}

/** Names of the balance inside a credits object. */
export const BALANCE_NAMES = ['balance', 'remaining', 'available', 'current', 'credits', 'amount', 'total'];

/** The balance in a value: a number, or the balance of a credits object. */
export function balanceIn(value: unknown): number | undefined {
	const n = readValue('number', value);
	if (n !== MISSING) return n as number;
	if (!isRecord(value)) return undefined;
	const inner = pick(value, indexKeys(value), BALANCE_NAMES);
	const m = readValue('number', inner);
	return m === MISSING ? undefined : (m as number);
}

/**
 * The account profile: id, name (also from first and last name), email,
 * credits (the balance as a number; a credits object is kept as
 * `creditsDetails` when it says more than the balance), writingProfiles (each

/** A reader of a kind with nothing to add to the generic reading: the labelled fields, then every other field as sent. */
export function readerOf<T>(spec: CompiledSpec): (raw: unknown) => T {
	return (raw: unknown): T => {
		const { labelled, rest } = readFields(asObj(raw), spec);
		return { ...labelled, ...rest } as T;
	};
}
