/**
 * Node and credential description objects written out as the TypeScript source
 * a node or credential file would hold, one property per line:
 *
 *   nodes/PostWriter/PostWriter.node.ts
 *     export class PostWriter implements INodeType { description: INodeTypeDescription = { ... } }
 *   credentials/PostWriterApi.credentials.ts
 *     export class PostWriterApi implements ICredentialType { name = '...'; properties: INodeProperties[] = [...]; ... }
 *
 * with, for each parameter, option, section and top-level field, the lines it
 * spans (so that a lint message can name the parameter it is about).
 * Functions in the objects (preSend hooks, methods) cannot be written as data:
 * they are left out and listed in `omitted`.
 */

/** A node class to lint: its description as n8n receives it. */
export interface NodeEntry {
	kind: 'node';
	/** The path written, e.g. nodes/PostWriter/PostWriter.node.ts. */
	file: string;
	/** Where it comes from (the built or source path). */
	from: string;
	className: string;
	description: unknown;
}

/** A credential class to lint: its own fields (name, displayName, properties, test, authenticate...). */
export interface CredentialEntry {
	kind: 'credential';
	file: string;
	from: string;
	className: string;
	fields: Record<string, unknown>;
}

export type DescriptionEntry = NodeEntry | CredentialEntry;

type Obj = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyText(key: string): string {
	return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function isParameter(v: Obj): boolean {
	return typeof v.displayName === 'string' && typeof v.name === 'string' && typeof v.type === 'string';
}

function isOption(v: Obj): boolean {
	return typeof v.name === 'string' && 'value' in v && !('type' in v);
}

function isSection(v: Obj): boolean {
	return typeof v.displayName === 'string' && typeof v.name === 'string' && Array.isArray(v.values);
}

/** "resource=post, operation=getMany" from a parameter's displayOptions.show. */
function shownFor(v: Obj): string {
	const show = (v.displayOptions as { show?: unknown } | undefined)?.show;
	if (!show || typeof show !== 'object') return '';
	const parts = Object.entries(show)
		.filter(([key]) => !key.startsWith('@'))
		.map(([key, values]) => `${key}=${Array.isArray(values) ? values.join('|') : String(values)}`);
	return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}

/** A name for an object that the rules treat as a parameter, an option or a section. */
function labelOf(v: Obj, parentLabel: string | undefined): string | undefined {
	const within = parentLabel ? `${parentLabel} > ` : '';
	if (isParameter(v)) return `${within}parameter "${String(v.name)}" (${String(v.displayName)})${parentLabel ? '' : shownFor(v)}`;
	if (isSection(v)) return `${within}section "${String(v.name)}" (${String(v.displayName)})`;
	if (isOption(v)) return `${within}option "${String(v.name)}" = ${JSON.stringify(v.value)}`;
	return undefined;
}

interface Range {
	start: number;
	end: number;
	label: string;
}

/**
 * Writes values as TypeScript, one property per line, and records for each
 * parameter, option or section (and each top-level field) the lines it spans.
 */
export class SourceWriter {
	readonly lines: string[] = [];
	readonly ranges: Range[] = [];
	/** Where functions were left out. */
	readonly omitted: string[] = [];

	get next(): number {
		return this.lines.length + 1;
	}

	line(indent: number, text: string): void {
		this.lines.push(`${'\t'.repeat(indent)}${text}`);
	}

	/** Writes `<head><value><tail>`; `head` is e.g. "key: " or "description: T = ". */
	value(value: unknown, head: string, tail: string, indent: number, where: string, label: string | undefined, seen: Set<object>): void {
		if (value === null) return this.line(indent, `${head}null${tail}`);
		switch (typeof value) {
			case 'string':
				return this.line(indent, `${head}${JSON.stringify(value)}${tail}`);
			case 'number':
			case 'boolean':
				return this.line(indent, `${head}${String(value)}${tail}`);
			case 'bigint':
				return this.line(indent, `${head}${String(value)}n${tail}`);
			case 'object':
				break;
			default:
				throw new Error(`cannot write ${typeof value} at ${where}`);
		}
		if (value instanceof Date) return this.line(indent, `${head}${JSON.stringify(value.toISOString())}${tail}`);
		if (value instanceof RegExp) return this.line(indent, `${head}${String(value)}${tail}`);
		if (seen.has(value)) throw new Error(`circular reference at ${where}`);
		seen.add(value);
		try {
			if (Array.isArray(value)) {
				const items = value.map((item: unknown, i) => [item, i] as const).filter(([item, i]) => this.keep(item, `${where}[${i}]`));
				if (items.length === 0) return this.line(indent, `${head}[]${tail}`);
				this.line(indent, `${head}[`);
				for (const [item, i] of items) this.value(item, '', ',', indent + 1, `${where}[${i}]`, label, seen);
				return this.line(indent, `]${tail}`);
			}
			const own = labelOf(value as Obj, label);
			const start = this.next;
			const entries = Object.entries(value).filter(([key, item]) => this.keep(item, `${where}.${key}`));
			if (entries.length === 0) {
				this.line(indent, `${head}{}${tail}`);
			} else {
				this.line(indent, `${head}{`);
				for (const [key, item] of entries) this.value(item, `${keyText(key)}: `, ',', indent + 1, `${where}.${key}`, own ?? label, seen);
				this.line(indent, `}${tail}`);
			}
			if (own) this.ranges.push({ start, end: this.next - 1, label: own });
		} finally {
			seen.delete(value);
		}
	}

	/** Functions, undefined and symbols have no data form: they are left out. */
	keep(item: unknown, where: string): boolean {
		if (typeof item === 'function') {
			this.omitted.push(where);
			return false;
		}
		return item !== undefined && typeof item !== 'symbol';
	}

	/** A top-level field (class field, or key of the node description), named by itself. */
	field(value: unknown, head: string, tail: string, indent: number, name: string): void {
		const start = this.next;
		this.value(value, head, tail, indent, name, undefined, new Set());
		this.ranges.push({ start, end: this.next - 1, label: name });
	}

	/** The innermost recorded parameter, option, section or field spanning `line`. */
	labelAt(line: number): string | undefined {
		let best: Range | undefined;
		for (const r of this.ranges) {
			if (r.start <= line && line <= r.end && (!best || r.end - r.start < best.end - best.start)) best = r;
		}
		return best?.label;
	}
}

const HEADER = (from: string): string[] => [`// Written by scripts/lib/description-source.ts from ${from}: the description as n8n receives it.`];

/** The node file of a node entry. */
export function nodeSource(entry: NodeEntry): SourceWriter {
	const w = new SourceWriter();
	for (const l of HEADER(entry.from)) w.line(0, l);
	w.line(0, "import type { INodeType, INodeTypeDescription } from 'n8n-workflow';");
	w.line(0, '');
	w.line(0, `export class ${entry.className} implements INodeType {`);
	const d = entry.description;
	if (!d || typeof d !== 'object') throw new Error(`${entry.from}: no description object`);
	w.line(1, 'description: INodeTypeDescription = {');
	for (const [key, item] of Object.entries(d)) {
		if (w.keep(item, `description.${key}`)) w.field(item, `${keyText(key)}: `, ',', 2, `description.${key}`);
	}
	w.line(1, '};');
	w.line(0, '}');
	return w;
}

/** Credential classes keep their description in class fields: each becomes `name = <value>;`. */
const CREDENTIAL_TYPES: Record<string, string> = { properties: 'INodeProperties[]' };

/** The credential file of a credential entry. */
export function credentialSource(entry: CredentialEntry): SourceWriter {
	const w = new SourceWriter();
	for (const l of HEADER(entry.from)) w.line(0, l);
	w.line(0, "import type { ICredentialType, INodeProperties } from 'n8n-workflow';");
	w.line(0, '');
	w.line(0, `export class ${entry.className} implements ICredentialType {`);
	for (const [key, item] of Object.entries(entry.fields)) {
		if (!IDENTIFIER.test(key)) throw new Error(`${entry.from}: credential field ${JSON.stringify(key)} is not an identifier`);
		if (!w.keep(item, key)) continue;
		const type = CREDENTIAL_TYPES[key] ? `: ${CREDENTIAL_TYPES[key]}` : '';
		w.field(item, `${key}${type} = `, ';', 1, key);
		w.line(0, '');
	}
	w.lines.pop();
	w.line(0, '}');
	return w;
}
