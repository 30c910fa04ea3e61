/**
 * Generated blocks in Markdown: the text between
 *   <!-- generated:<name> (npm run docs) -->
 *   <!-- /generated:<name> -->
 * is written by the command named (`npm run docs` from the code, and
 * test/docs/generated.test.ts fails when a file holds another text than the one
 * generated; `npm run bench` from its measures). Everything else in the file
 * is prose, kept by hand.
 */

export const blockStart = (name: string, by = 'npm run docs'): string => `<!-- generated:${name} (${by}) -->`;
export const blockEnd = (name: string): string => `<!-- /generated:${name} -->`;

/** `text` with the block between `start` and `end` (both kept) replaced by `content`. */
export function replaceBetween(text: string, start: string, end: string, content: string, file: string): string {
	const a = text.indexOf(start);
	const b = text.indexOf(end, a);
	if (a < 0 || b < 0) throw new Error(`${file} has no ${start} … ${end} section`);
	if (text.indexOf(start, a + start.length) >= 0) throw new Error(`${file} has ${start} twice`);
	return `${text.slice(0, a)}${start}\n${content}\n${end}${text.slice(b + end.length)}`;
}

/** The text between `start` and `end` (neither included), or undefined when the file has no such block. */
export function blockContent(text: string, start: string, end: string): string | undefined {
	const a = text.indexOf(start);
	const b = text.indexOf(end, a);
	return a < 0 || b < 0 ? undefined : text.slice(a + start.length, b).replace(/^\n|\n$/g, '');
}

/** `text` with every named block replaced by its generated content. */
export function withBlocks(text: string, blocks: Record<string, () => string>, file: string): string {
	return Object.entries(blocks).reduce((out, [name, render]) => replaceBetween(out, blockStart(name), blockEnd(name), render(), file), text);
}

/** `text` with the generated blocks taken out: the prose kept by hand. */
export function proseOf(text: string): string {
	return text.replace(/<!-- generated:([\w-]+) \([^)]*\) -->[\s\S]*?<!-- \/generated:\1 -->/g, '');
}
