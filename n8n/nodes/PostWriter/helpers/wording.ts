/**
 * Words and order as n8n shows them: labels sorted as n8n's linter sorts them,
 * descriptions in n8n's style (one sentence without the final period, the
 * imperative rather than the catalogue's third person), and the names and
 * actions derived from catalogue keys. Pure text, no parameters built here.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Alphabetical order of two labels, as n8n's linter orders options
 * (`localeCompare`) for the plain words of this package's labels: case is
 * ignored first, then lower case comes first. Not `localeCompare` itself: its
 * first call loads the ICU collator, about 7 ms of the node's load when n8n
 * reads its description (test/n8n/description.test.ts checks that both orders agree).
 */
export function compareLabels(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	if (x !== y) return x < y ? -1 : 1;
	return a === b ? 0 : a > b ? -1 : 1;
}

/** Dropdown choices in alphabetical order, as n8n lists them. */
export function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => compareLabels(a.name, b.name));
}

/** n8n writes one-sentence descriptions without the final period. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	const sentences = trimmed.split(/(?<=[.!?])\s+(?=[A-Z])/);
	return sentences.length === 1 ? trimmed.replace(/\.$/, '') : trimmed;
}

/** Verbs whose n8n wording is not just the imperative: "Lists drafts" → "Retrieve a list of drafts". */
const N8N_VERBS: Readonly<Record<string, string>> = { Gets: 'Retrieve', Lists: 'Retrieve a list of' };

/**
 * A catalogue description (third person, as Zapier words it: "Creates a new
 * draft…") in n8n's wording, the imperative: "Create a new draft…".
 */
export function imperative(text: string): string {
	return text.replace(/^([A-Z][a-z]+)\b/, (verb) => {
		if (N8N_VERBS[verb]) return N8N_VERBS[verb];
		if (/ies$/.test(verb)) return verb.replace(/ies$/, 'y');
		if (/(ss|sh|ch|x|z)es$/.test(verb)) return verb.replace(/es$/, '');
		return verb.replace(/s$/, '');
	});
}

/** "getMany" → "Get Many". */
export function titleOf(camel: string): string {
	return camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/** "Get Many Published Posts" → "Get many published posts". */
export function actionOf(name: string): string {
	const [first, ...rest] = name.split(' ');
	return [first, ...rest.map((w) => (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase()))].join(' ');
}
