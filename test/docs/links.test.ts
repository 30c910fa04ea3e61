/**
 * Every link in the READMEs and docs resolves, and every picture they show
 * exists: relative links to a file of the repository (and to a heading's
 * anchor as GitHub slugs it), and, in n8n/README.md (which npm and n8n show
 * outside the repository), absolute URLs of the repository's own files,
 * mapped back to the path they name. Other sites are not fetched (loopback only).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type { MarkdownLink } from '../../scripts/lib/markdown-links';
import { anchorsOf, githubSlug, linksOf } from '../../scripts/lib/markdown-links';
import { ALL_MARKDOWN, ROOT } from './files';

const FILES = ALL_MARKDOWN;

/** The repository, as n8n/package.json names it: `owner/name`. */
const REPO = /github\.com\/([^/]+\/[^/.]+)/.exec((JSON.parse(readFileSync(join(ROOT, 'n8n/package.json'), 'utf8')) as { repository: { url: string } }).repository.url)?.[1];
const OWN_URL = new RegExp(`^https://(?:raw\\.githubusercontent\\.com/${REPO}/[^/]+|github\\.com/${REPO}/(?:blob|tree|raw)/[^/]+)/([^#?]+)`);

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const anchors = new Map<string, Set<string>>();
const anchorsIn = (file: string): Set<string> => anchors.get(file) ?? anchors.set(file, anchorsOf(read(file))).get(file)!;

/** What is wrong with one link of `file`, or undefined. */
function problem(file: string, link: MarkdownLink): string | undefined {
	const { target } = link;
	if (/^(mailto:|tel:)/.test(target)) return undefined;
	const own = OWN_URL.exec(target);
	if (/^[a-z]+:/i.test(target) && !own) return link.kind === 'image' ? 'an image from another site' : undefined;
	const [path, anchor] = own ? [own[1], undefined] : (target.split('#') as [string, string | undefined]);
	const to = own ? path : path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURI(path)));
	if (to.startsWith('..') || !existsSync(join(ROOT, to))) return `${to} does not exist`;
	if (link.kind === 'image' && !statSync(join(ROOT, to)).isFile()) return `${to} is not a file`;
	if (anchor !== undefined && to.endsWith('.md') && !anchorsIn(to).has(anchor)) return `${to} has no heading #${anchor}`;
	return undefined;
}

test('the files checked are the READMEs, the docs and the changelog', () => {
	expect(FILES).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'n8n/README.md', 'sandbox/README.md', 'docs/benchmarks.md', 'docs/pacing.md', 'zapier/RECIPES.md']));
	expect(REPO).toBe('post-writer/n8n-nodes-post-writer');
});

test.each(FILES)('every link and image of %s resolves', (file) => {
	const broken = linksOf(read(file))
		.map((link) => ({ line: link.line, target: link.target, problem: problem(file, link) }))
		.filter((l) => l.problem);
	expect(broken).toEqual([]);
});

test("n8n/README.md's pictures are absolute URLs of the repository's raw files (npm shows the README outside the repository)", () => {
	const links = linksOf(read('n8n/README.md'));
	const images = links.filter((l) => l.kind === 'image');
	expect(images.length).toBeGreaterThanOrEqual(2);
	for (const image of images) {
		expect(image.target).toMatch(new RegExp(`^https://raw\\.githubusercontent\\.com/${REPO}/main/`));
		expect(problem('n8n/README.md', image)).toBeUndefined();
	}
	const relativeLinks = links.filter((l) => !/^([a-z]+:|#)/i.test(l.target));
	expect(relativeLinks).toEqual([]);
});

test('anchors are slugged as GitHub does', () => {
	expect(githubSlug('Queue mode: `npm run test:queue`')).toBe('queue-mode-npm-run-testqueue');
	expect(githubSlug('Releasing and versioning')).toBe('releasing-and-versioning');
	expect(githubSlug('Items in parallel, and one quota per key: Options › Concurrency')).toBe('items-in-parallel-and-one-quota-per-key-options--concurrency');
	expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n### A b_c')]).toEqual(['a', 'a-1', 'a-b_c']);
	expect(linksOf('[x](a.md#b) `[y](c.md)` ![i](d.png)\n```\n[z](e.md)\n```').map((l) => [l.kind, l.target, l.line])).toEqual([
		['link', 'a.md#b', 1],
		['image', 'd.png', 1],
	]);
});
