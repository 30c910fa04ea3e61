/**
 * The docs the tests of test/docs/ read: the users' README, the contributors' guide, the design notes and reports
 * under docs/, and the pages of the packages and the sandbox.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
export const exists = (file: string): boolean => existsSync(join(ROOT, file));

const inFolder = (folder: string): string[] =>
	readdirSync(join(ROOT, folder))
		.filter((f) => f.endsWith('.md'))
		.sort()
		.map((f) => `${folder}/${f}`);

/** README.md, CONTRIBUTING.md and every page of docs/: the steps a reader runs, and the facts the prose states. */
export const DOCS = ['README.md', 'CONTRIBUTING.md', ...inFolder('docs')];

/** Every Markdown file a reader may open: DOCS, the changelog and the pages of n8n/, sandbox/ and zapier/. */
export const ALL_MARKDOWN = [...DOCS, 'CHANGELOG.md', 'n8n/README.md', 'sandbox/README.md', ...inFolder('zapier')].filter(exists);

/** The section of `markdown` under `heading` (a whole heading line), up to the next heading of its level or above. */
export function sectionOf(markdown: string, heading: string): string {
	const start = markdown.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`no heading "${heading}"`);
	const level = /^#+/.exec(heading)?.[0].length ?? 2;
	const rest = markdown.slice(start + heading.length + 2);
	const next = rest.search(new RegExp(`\\n#{1,${level}} `));
	return next < 0 ? rest : rest.slice(0, next);
}

/** Words as a reader counts them (code and links' targets included, Markdown marks not). */
export const wordCount = (markdown: string): number => markdown.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
