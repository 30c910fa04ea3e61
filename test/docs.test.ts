/**
 * The docs state what the code does: the README's operation reference and
 * n8n/README.md's generated blocks are the ones generated from the code
 * (scripts/docs-operations.ts, scripts/lib/docs-n8n.ts; `npm run docs` writes
 * them), and the prose around them states no default or bound of its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { PostWriter } from '../n8n/nodes/PostWriter/PostWriter.node';
import { withN8nBlocks, withTable } from '../scripts/docs-operations';
import { N8N_README_BLOCKS } from '../scripts/lib/docs-n8n';
import { blockEnd, blockStart, proseOf } from '../scripts/lib/generated-blocks';

const ROOT = join(__dirname, '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The labels of every entry of the action node's Options collections. */
function optionLabels(): Set<string> {
	const collections = new PostWriter().description.properties.filter((p) => p.name === 'options');
	return new Set(collections.flatMap((c) => ((c.options ?? []) as INodeProperties[]).map((o) => o.displayName)));
}

test('README.md holds the generated operation table (run: npm run docs)', () => {
	const readme = read('README.md');
	expect(readme).toBe(withTable(readme));
});

test('n8n/README.md holds every generated block, as generated (run: npm run docs)', () => {
	const readme = read('n8n/README.md');
	for (const name of Object.keys(N8N_README_BLOCKS)) expect(readme).toContain(blockStart(name));
	expect(readme).toBe(withN8nBlocks(readme));
});

test("n8n/README.md's prose states no default, bound or count: those live in the generated blocks", () => {
	const prose = proseOf(read('n8n/README.md'));
	const stated = prose.match(/\b(default|defaults to|at most|up to|maximum of|minimum of|from \d+ to)\s+\d[\d,.]*/gi) ?? [];
	expect(stated).toEqual([]);
});

test('every Options › … the READMEs name is an option of the node', () => {
	const labels = optionLabels();
	/** The peer's way in the benchmarks: n8n's own HTTP Request node. */
	const othersNodes = ['Batching'];
	for (const file of ['README.md', 'n8n/README.md']) {
		const named = [...read(file).matchAll(/Options › \**([A-Z][\w ]*)/g)].map((m) => m[1]);
		expect(named.length).toBeGreaterThan(0);
		for (const name of named) {
			// A label's unit in brackets ("… (Minutes)") may be left out where the prose names it.
			const known = [...labels, ...othersNodes].some((label) => name.trim().startsWith(label.replace(/\s*\(.*\)$/, '')));
			expect({ file, name, known }).toEqual({ file, name, known: true });
		}
	}
});

test("n8n/README.md's supported versions are the runtimes the e2e suites pin", () => {
	const pinned = (which: string) => (JSON.parse(read(`scripts/n8n-runtime/${which}/package.json`)) as { dependencies: { n8n: string } }).dependencies.n8n;
	expect(read('n8n/README.md')).toContain(`**n8n ${pinned('oldest')} to ${pinned('newest')}**`);
	expect(read('README.md')).toContain(`**n8n ${pinned('oldest')} to ${pinned('newest')}.**`);
});

test('docs/benchmarks.md keeps the block npm run bench rewrites, and shows its chart', () => {
	const report = read('docs/benchmarks.md');
	expect(report).toContain(`${blockStart('bench-figures', 'npm run bench')}\nRun of `);
	expect(report).toContain(blockEnd('bench-figures'));
	expect(report).toContain('](images/bench-batches.svg)');
});
