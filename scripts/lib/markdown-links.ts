/**
 * The links and images of a Markdown file, and the anchors GitHub gives its
 * headings, for the docs' link check (test/docs/links.test.ts). Code (fenced
 * blocks and inline spans) is skipped: a path in code is not a link.
 */

export interface MarkdownLink {
	/** `image` for `![alt](src)` and `<img src>`, else `link`. */
	kind: 'link' | 'image';
	target: string;
	/** 1-based line of the file. */
	line: number;
}

/** The text without fenced code blocks, line numbers kept. */
function withoutFences(markdown: string): string {
	let fenced = false;
	return markdown
		.split('\n')
		.map((line) => {
			if (/^\s*(```|~~~)/.test(line)) {
				fenced = !fenced;
				return '';
			}
			return fenced ? '' : line;
		})
		.join('\n');
}

/** The text without fenced code blocks and inline code spans, line numbers kept. */
export function withoutCode(markdown: string): string {
	return withoutFences(markdown).replace(/(`+)[^`\n]*?\1/g, '');
}

/** Inline links and images, `<img src>`, and reference definitions (`[x]: target`). */
export function linksOf(markdown: string): MarkdownLink[] {
	const links: MarkdownLink[] = [];
	withoutCode(markdown)
		.split('\n')
		.forEach((text, i) => {
			const line = i + 1;
			for (const m of text.matchAll(/(!?)\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
				links.push({ kind: m[1] ? 'image' : 'link', target: m[2], line });
			}
			for (const m of text.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) links.push({ kind: 'image', target: m[1], line });
			const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(text);
			if (ref) links.push({ kind: 'link', target: ref[1], line });
		});
	return links;
}

/** A heading's text as GitHub renders it: without emphasis, code marks and link targets. */
function headingText(raw: string): string {
	return raw
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/[*_`]/g, (c) => (c === '_' ? c : ''))
		.trim();
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
	return headingText(heading)
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor of a file: its headings' slugs (repeats as GitHub numbers them: `-1`, `-2`), and explicit `id`/`name` anchors. */
export function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const line of withoutFences(markdown).split('\n')) {
		const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const slug = githubSlug(heading[1]);
			const n = seen.get(slug) ?? 0;
			seen.set(slug, n + 1);
			anchors.add(n === 0 ? slug : `${slug}-${n}`);
		}
		for (const m of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
	}
	return anchors;
}
