/**
 * The shape of the core: flat, import-free, stateless.
 * - every module of shared/ (its folders included: shared/catalogue/) imports only other modules of
 *   shared/ (no platform, no transport, no Node built-in);
 * - the longest import chain inside shared/, type imports included, is at most 4 files, where a chain
 *   through shared/catalogue/index.ts counts the catalogue's files after it as that one file (the
 *   catalogue was one file, shared/catalogue.ts, until issue 39 split it by resource);
 * - no module keeps mutable state at module level (no top-level `let`/`var`, no top-level Map/Set
 *   unless typed read-only). The one memory allowed is a constant computed on its first use rather than
 *   when its module loads (issue 39): made by `once` (shared/once.ts, whose closure keeps the value), and
 *   only as a top-level `const name = once(…)` of a pure computation over constants.
 */
import fs from 'node:fs';
import path from 'node:path';

const SHARED = path.join(__dirname, '..', '..', 'shared');
/** Every module of shared/, as its path under shared/ without `.ts` (`client`, `catalogue/index`). */
const modules = (fs.readdirSync(SHARED, { recursive: true }) as string[])
	.map((f) => f.split(path.sep).join('/'))
	.filter((f) => f.endsWith('.ts'))
	.map((f) => f.replace(/\.ts$/, ''))
	.sort();
const source = (m: string) => fs.readFileSync(path.join(SHARED, `${m}.ts`), 'utf8');
const importsOf = (m: string) => [...source(m).matchAll(/^(?:import|export)\b[^;]*?from '([^']+)';/gms)].map((x) => x[1]);
/** The module an import of `m` names (a folder names its index), or undefined when it is none of shared/'s. */
function resolve(m: string, spec: string): string | undefined {
	const target = path.posix.join(path.posix.dirname(m), spec);
	return [target, `${target}/index`].find((t) => modules.includes(t));
}
const CATALOGUE = 'catalogue/index';

/** The longest chain of files starting at `m` (m itself counts), as [its files, its length by the rule above]. */
function longestChain(m: string, seen: string[] = []): [string[], number] {
	if (seen.includes(m)) throw new Error(`import cycle: ${[...seen, m].join(' → ')}`);
	const inCatalogue = seen.includes(CATALOGUE) && m.startsWith('catalogue/');
	let best: [string[], number] = [[], 0];
	for (const spec of importsOf(m)) {
		const next = longestChain(resolve(m, spec) ?? spec, [...seen, m]);
		if (next[1] > best[1]) best = next;
	}
	return [[m, ...best[0]], best[1] + (inCatalogue ? 0 : 1)];
}

test('shared/ imports only its own modules, by relative path', () => {
	expect(modules.length).toBeGreaterThan(10);
	for (const m of modules) {
		for (const spec of importsOf(m)) {
			expect(`${m}: ${spec}`).toMatch(/: \.\.?\/(?:[a-z-]+\/)*[a-z-]+$/);
			expect(`${m}: ${spec} → ${resolve(m, spec) ?? 'not a module of shared/'}`).not.toMatch(/not a module of shared\/$/);
		}
	}
});

test('the longest import chain inside shared/ is at most 4 files', () => {
	const chains = modules.map((m) => longestChain(m)).sort((a, b) => b[1] - a[1]);
	const [longest, length] = chains[0];
	// Printed for the record (the closing note of the release-shape issue quotes it).
	process.stdout.write(`longest import chain in shared/: ${length} files: ${longest.join(' → ')}\n`);
	expect(length).toBeLessThanOrEqual(4);
});

test('no module-level mutable state in shared/', () => {
	for (const m of modules) {
		const text = source(m);
		expect(`${m}: ${/^(?:export )?(?:let|var) /m.exec(text)?.[0] ?? 'none'}`).toBe(`${m}: none`);
		expect(`${m}: ${/^(?:export )?const \w+(?:: (?!Readonly)[^=]+)? = new (?:Map|Set|WeakMap|Array)\b/m.exec(text)?.[0] ?? 'none'}`).toBe(`${m}: none`);
	}
});

test('a constant computed on first use is a top-level const made by once() (shared/once.ts), nothing else', () => {
	for (const m of modules.filter((x) => x !== 'once')) {
		for (const line of source(m).split('\n').filter((l) => /\bonce\(/.test(l) && !/^\s*(?:\*|\/\/)/.test(l))) {
			expect(`${m}: ${line}`).toMatch(/^[\w/-]+: (?:export )?const \w+(?:: [^=]+)? = once\(/);
		}
	}
	// once() itself: its closure keeps the one value, computed on the first call.
	expect(source('once').replace(/\/\*\*[\s\S]*?\*\/\n/, '')).toBe(
		'export function once<T>(compute: () => T): () => T {\n\tlet kept: { readonly value: T } | undefined;\n\treturn () => (kept ??= { value: compute() }).value;\n}\n',
	);
});
