/**
 * The catalogue's vocabulary: what an operation entry and its fields are made of (the types every
 * resource's file writes its entries in), and `op`, which ties an entry to the type of its output.
 */
import type { Scope } from '../base';

export type HttpMethod = 'GET' | 'POST';

export type FieldType =
	| 'string' // one line
	| 'text' // multi-line
	| 'integer'
	| 'boolean'
	| 'datetime' // ISO 8601 timestamp, sent in UTC
	| 'date' // YYYY-MM-DD
	| 'answers'; // array of {questionId, answer}

export interface FieldOption {
	readonly value: string;
	readonly label: string;
	/** What choosing it does, one sentence. */
	readonly description?: string;
}

export interface FieldSpec {
	readonly name: string;
	readonly label: string;
	/** One sentence for help text. */
	readonly description: string;
	readonly type: FieldType;
	/** Where the value goes in the request. */
	readonly in: 'body' | 'query' | 'path';
	readonly required?: boolean;
	readonly default?: string | number | boolean;
	readonly min?: number;
	readonly max?: number;
	readonly maxLength?: number;
	/** For datetime: must lie in the future. */
	readonly future?: boolean;
	/** For date: must not be before this other field of the same operation. */
	readonly notBefore?: string;
	/** Suggested values (free text still allowed). */
	readonly suggestions?: readonly FieldOption[];
	/** The only values allowed: a fixed choice. */
	readonly options?: readonly FieldOption[];
	/** A dropdown source: the key of the list operation whose items offer the values. */
	readonly dynamic?: string;
	/** An extra scope the key needs when this field is set. */
	readonly scope?: Scope;
	readonly placeholder?: string;
}

export interface OutputField {
	readonly key: string;
	readonly label: string;
	readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
}

export type Resource =
	| 'post'
	| 'draft'
	| 'calendar'
	| 'inspiration'
	| 'account'
	| 'writingProfile'
	| 'creation';

export interface OperationSpec {
	readonly key: string;
	readonly resource: Resource;
	/** Verb within the resource, e.g. `generate`, `getMany`. */
	readonly action: string;
	/** Display name, e.g. "Generate Post". */
	readonly name: string;
	/** What it does, one sentence starting with a verb, ending with a period. */
	readonly description: string;
	readonly method: HttpMethod;
	/** Relative to the base URL (which ends in /api/v1). `:name` marks a path field. */
	readonly path: string;
	readonly scope: Scope;
	/** Credits spent per call. `null`: not documented, treated as possibly spending. */
	readonly cost: number | null;
	readonly fields: readonly FieldSpec[];
	/** Present on list endpoints: the named keys a wrapped list may use. */
	readonly list?: { readonly keys: readonly string[] };
	/** A realistic example of the (normalised) output, for samples and docs. */
	readonly sample: Record<string, unknown>;
	/** Labelled output fields, for Zapier's outputFields and docs. */
	readonly outputFields: readonly OutputField[];
}

/** Phantom carrier of the output type of an operation. */
export interface Typed<O> {
	readonly __output?: O;
}

/** Ties an entry, kept literal (its key, fields and names), to the type of its output. */
export function op<O>() {
	return <const S extends OperationSpec>(spec: S): S & Typed<O> => spec;
}
