/**
 * The shape of the core, rules that hold at any size:
 * - shared/ is folders by job; a folder imports only the folders below it in LAYERS (the order is
 *   written here, once), through their index.ts or their definitions.ts; inside a folder, files import
 *   each other directly;
 * - a folder's definitions.ts, its second entry, is what a platform reads when it loads (the catalogues,
 *   defaults and bounds that n8n's descriptions and Zapier's app definition are built from): index.ts
 *   exports it too, and it and every file it loads import other folders only through their
 *   definitions.ts, so that describing loads none of the call machinery;
 * - no circle between files, nor between folders;
 * - nothing but shared/ itself: no platform, no HTTP library, no Node built-in;
 * - no module-level mutable state (no top-level `let`/`var`, no top-level Map/Set unless read-only); a
 *   constant computed on its first use (base/once.ts) is the one form of module-level memory, and only as
 *   a top-level `const name = once(…)`;
 * - outside shared/ (n8n/, zapier/, sdk/, sandbox/, scripts/), code imports folder entries only (index.ts
 *   or definitions.ts);
 * - dynamic imports (`import('…')`) are imports: the same rules hold for them;
 * - CONTRIBUTING.md's Mermaid drawing of the folders has exactly the arrows the code has.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The folders of shared/, lowest first: each may import only those before it. */
export const LAYERS = ['base', 'errors', 'catalogue', 'lists', 'records', 'pacing', 'paid', 'triggers', 'client'] as const;

const ROOT = path.join(__dirname, '..', '..');
const SHARED = path.join(ROOT, 'shared');
const list = (dir: string): string[] =>
	(fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/')).filter((f) => f.endsWith('.ts'));
/** Every module of shared/ as its path under shared/ without `.ts` (`client/client`, `catalogue/index`). */
const modules = list(SHARED).map((f) => f.replace(/\.ts$/, '')).sort();
const folderOf = (m: string) => m.split('/')[0];
/** The modules a text imports: static imports and re-exports, then dynamic `import('…')`. */
const importsIn = (text: string) => [
	...[...text.matchAll(/^(?:import|export)\b[^;]*?from '([^']+)';/gms)].map((x) => x[1]),
	...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((x) => x[1]),
];
const importsOf = (m: string) => importsIn(fs.readFileSync(path.join(SHARED, `${m}.ts`), 'utf8'));
/** What a module loads when it loads: its static imports and re-exports, not `import type` (erased) nor `import('…')` (on call). */
const loadsOf = (m: string) =>
	[...fs.readFileSync(path.join(SHARED, `${m}.ts`), 'utf8').matchAll(/^(?:import(?! type\b)|export(?! type\b))\b[^;]*?from '([^']+)';/gms)].map((x) => x[1]);
/** A folder's entries as modules: its index, and its definitions when it has them. */
const ENTRY = /^[a-z]+\/(?:index|definitions)$/;
/** The module an import names (a folder names its index), or undefined when it is none of shared/'s. */
function resolve(m: string, spec: string): string | undefined {
	const target = path.posix.join(path.posix.dirname(m), spec);
	return [target, `${target}/index`].find((t) => modules.includes(t));
}

/** The folder arrows of the code: `from → to` for each import from one folder into another. */
export function folderArrows(): string[] {
	const arrows = new Set<string>();
	for (const m of modules) {
		for (const spec of importsOf(m)) {
			const target = resolve(m, spec);
			if (target && folderOf(target) !== folderOf(m)) arrows.add(`${folderOf(m)} --> ${folderOf(target)}`);
		}
	}
	return [...arrows].sort();
}

/** A circle in `graph`, as its path, or undefined. */
function findCircle(graph: Map<string, string[]>): string[] | undefined {
	const state = new Map<string, 'open' | 'done'>();
	const visit = (node: string, trail: string[]): string[] | undefined => {
		if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
		if (state.get(node) === 'done') return undefined;
		state.set(node, 'open');
		for (const next of graph.get(node) ?? []) {
			const circle = visit(next, [...trail, node]);
			if (circle) return circle;
		}
		state.set(node, 'done');
		return undefined;
	};
	for (const node of graph.keys()) {
		const circle = visit(node, []);
		if (circle) return circle;
	}
	return undefined;
}

test('shared/ is the folders of LAYERS, each with an index.ts', () => {
	const folders = fs.readdirSync(SHARED, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
	expect(folders).toEqual([...LAYERS].sort());
	expect(modules.filter((m) => !m.includes('/'))).toEqual([]);
	for (const folder of LAYERS) expect(modules).toContain(`${folder}/index`);
});

test('every import of shared/ is its own: within the folder, or a lower folder through its index or its definitions', () => {
	const wrong: string[] = [];
	for (const m of modules) {
		const rank = LAYERS.indexOf(folderOf(m) as (typeof LAYERS)[number]);
		for (const spec of importsOf(m)) {
			const target = resolve(m, spec);
			if (!spec.startsWith('.') || !target) wrong.push(`${m}: '${spec}' is not a module of shared/ (no platform, no library, no Node built-in)`);
			else if (folderOf(target) === folderOf(m)) {
				if (target.endsWith('/index')) wrong.push(`${m}: '${spec}' imports its own folder's index; import the file`);
			} else if (!ENTRY.test(target) || !/^\.\.\/[a-z]+(?:\/definitions)?$/.test(spec)) {
				wrong.push(`${m}: '${spec}' reaches inside another folder; import '../${folderOf(target)}' (or its definitions)`);
			}
			else if (LAYERS.indexOf(folderOf(target) as (typeof LAYERS)[number]) >= rank) wrong.push(`${m}: '${spec}' imports a folder that is not below ${folderOf(m)} in LAYERS`);
		}
	}
	expect(wrong).toEqual([]);
});

test('no circle between the files of shared/, nor between its folders', () => {
	const files = new Map(modules.map((m) => [m, importsOf(m).map((s) => resolve(m, s)).filter((t): t is string => t !== undefined)]));
	expect(findCircle(files)).toBeUndefined();
	const folders = new Map<string, string[]>();
	for (const arrow of folderArrows()) {
		const [from, to] = arrow.split(' --> ');
		folders.set(from, [...(folders.get(from) ?? []), to]);
	}
	expect(findCircle(folders)).toBeUndefined();
});

test('the checks find a circle and an upward import (they are not vacuous)', () => {
	expect(findCircle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a', 'b', 'c', 'a']);
	expect(LAYERS.indexOf('client')).toBeGreaterThan(LAYERS.indexOf('base'));
});

test("a folder's definitions.ts is exported by its index, and loads other folders only through their definitions", () => {
	const wrong: string[] = [];
	for (const entry of modules.filter((m) => m.endsWith('/definitions'))) {
		const folder = folderOf(entry);
		if (!importsOf(`${folder}/index`).includes('./definitions')) wrong.push(`${folder}/index: does not export './definitions'`);
		// Everything the entry loads, file by file: a folder's index would load its machinery.
		const seen = new Set<string>();
		const visit = (m: string): void => {
			if (seen.has(m)) return;
			seen.add(m);
			for (const spec of loadsOf(m)) {
				const target = resolve(m, spec);
				if (!target) continue;
				if (folderOf(target) !== folderOf(m) && !target.endsWith('/definitions')) wrong.push(`${entry} loads ${m}, which loads '${spec}': import its definitions, or move what is needed there`);
				else visit(target);
			}
		};
		visit(entry);
	}
	expect(wrong).toEqual([]);
});

test('no module-level mutable state in shared/', () => {
	for (const m of modules) {
		const text = fs.readFileSync(path.join(SHARED, `${m}.ts`), 'utf8');
		expect(`${m}: ${/^(?:export )?(?:let|var) /m.exec(text)?.[0] ?? 'none'}`).toBe(`${m}: none`);
		expect(`${m}: ${/^(?:export )?const \w+(?:: (?!Readonly)[^=]+)? = new (?:Map|Set|WeakMap|Array)\b/m.exec(text)?.[0] ?? 'none'}`).toBe(`${m}: none`);
	}
});

test('once() is used only as a top-level `const name = once(…)`: a constant deferred, not state', () => {
	const wrong: string[] = [];
	for (const m of modules.filter((x) => x !== 'base/once')) {
		const lines = fs.readFileSync(path.join(SHARED, `${m}.ts`), 'utf8').split('\n');
		lines.forEach((line, i) => {
			if (/\bonce\(/.test(line) && !/^const \w+ = once\(/.test(line)) wrong.push(`${m}:${i + 1}: ${line.trim()}`);
		});
	}
	expect(wrong).toEqual([]);
});

test('outside shared/, code imports folder entries only (an index, or definitions)', () => {
	const wrong: string[] = [];
	for (const dir of ['n8n/nodes', 'n8n/credentials', 'zapier/src', 'sdk', 'sandbox', 'scripts']) {
		for (const file of list(path.join(ROOT, dir))) {
			for (const spec of importsIn(fs.readFileSync(path.join(ROOT, dir, file), 'utf8'))) {
				const m = /(?:^|\/)shared\/([a-z]+)(\/definitions)?$/.exec(spec);
				const entry = m && (m[2] ? `${m[1]}/definitions` : `${m[1]}/index`);
				if (/(?:^|\/)shared\//.test(spec) && !(entry && modules.includes(entry))) wrong.push(`${dir}/${file}: '${spec}'`);
			}
		}
	}
	expect(wrong).toEqual([]);
});

test("CONTRIBUTING.md's drawing of shared/ has exactly the folder arrows of the code", () => {
	const doc = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
	const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
	const drawn = [...block.matchAll(/^\s*([a-z]+) --> ([a-z]+)\s*$/gm)].map((m) => `${m[1]} --> ${m[2]}`).sort();
	expect({ missingFromDrawing: folderArrows().filter((a) => !drawn.includes(a)), drawnButNotInCode: drawn.filter((a) => !folderArrows().includes(a)) }).toEqual({
		missingFromDrawing: [],
		drawnButNotInCode: [],
	});
});
