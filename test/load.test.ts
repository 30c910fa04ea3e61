/**
 * What each package loads when its platform loads it (issue 39, item 8): n8n requires the two nodes and the
 * credential and reads their descriptions, credential and methods; Zapier requires its app and reads the
 * definition. That load reaches shared/ only through the folders' definitions.ts (a folder's index loads
 * its call machinery: the client, pacing, paid calls, record readers, the triggers' polls, errors, and
 * base's time and value helpers), and so none of the adapters' machinery either (the transport, the execution, Zapier's client and
 * error mapping all import a folder's index). The rest loads on the first call, through a relative
 * `import('…')`. The modules loaded are those the compiled code requires when it loads: TypeScript's own
 * emit decides which imports remain (an import used only as a type is dropped), and `import('…')` runs on
 * call. The bench's footprint section times this same load (scripts/lib/bench-footprint.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..');

/** The relative imports a module runs when it loads, and those it runs on call (`import('…')`), as resolved files. */
function importsOf(file: string): { load: string[]; onCall: string[] } {
	const emitted = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
		compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true },
	}).outputText;
	const load: string[] = [];
	const onCall: string[] = [];
	const visit = (node: ts.Node): void => {
		if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) load.push(node.moduleSpecifier.text);
		if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) onCall.push(node.arguments[0].text);
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile(file, emitted, ts.ScriptTarget.ES2022, true));
	const resolve = (spec: string): string => {
		const base = path.resolve(path.dirname(file), spec);
		const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
		if (!found) throw new Error(`${path.relative(ROOT, file)}: '${spec}' resolves to no .ts file`);
		// n8n/shared is a link to shared/: one module, wherever it is imported from.
		return fs.realpathSync(found);
	};
	const relative = (specs: string[]) => specs.filter((s) => s.startsWith('.')).map(resolve);
	return { load: relative(load), onCall: relative(onCall) };
}

/** Every module loaded with `entries`, and every module loaded on a first call (by `import('…')`) from them. */
function loadClosure(entries: string[]): { loaded: Set<string>; onCall: Set<string> } {
	const loaded = new Set<string>();
	const onCall = new Set<string>();
	const visit = (file: string): void => {
		if (loaded.has(file)) return;
		loaded.add(file);
		const imports = importsOf(file);
		for (const target of imports.onCall) onCall.add(target);
		for (const target of imports.load) visit(target);
	};
	for (const entry of entries) visit(entry);
	return { loaded, onCall };
}

const n8nPackage = JSON.parse(fs.readFileSync(path.join(ROOT, 'n8n/package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
/** The files n8n requires (package.json's n8n field), as their sources: dist/nodes/X.node.js → nodes/X.node.ts. */
const N8N_ENTRIES = [...n8nPackage.n8n.nodes, ...n8nPackage.n8n.credentials].map((f) => path.join(ROOT, 'n8n', f.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
const ZAPIER_ENTRIES = [path.join(ROOT, 'zapier/src/index.ts')];

const SHARED = fs.realpathSync(path.join(ROOT, 'shared'));
/** A module of shared/ as `folder/module`, or undefined for one outside it. */
const sharedModule = (file: string) => (file.startsWith(`${SHARED}${path.sep}`) ? path.relative(SHARED, file).split(path.sep).join('/').replace(/\.ts$/, '') : undefined);

describe.each([
	['n8n', N8N_ENTRIES],
	['Zapier', ZAPIER_ENTRIES],
])('%s: what loads with the package', (_platform, entries) => {
	const { loaded, onCall } = loadClosure(entries);

	test("shared/ is reached only through the folders' definitions (test/shared/structure.test.ts keeps those light)", () => {
		const wrong: string[] = [];
		for (const file of loaded) {
			if (sharedModule(file) !== undefined) continue;
			for (const target of importsOf(file).load) {
				const m = sharedModule(target);
				if (m !== undefined && !m.endsWith('/definitions')) wrong.push(`${path.relative(ROOT, file)} loads shared/${m}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	test('no folder of shared/ loads whole, and the call machinery loads on first call', () => {
		const indexes = [...loaded].map(sharedModule).filter((m): m is string => m !== undefined && m.endsWith('/index'));
		expect(indexes).toEqual([]);
		// The lazy edges lead somewhere: what a first call loads is not already loaded.
		expect([...onCall].filter((f) => !loaded.has(f)).length).toBeGreaterThan(0);
	});
});

test('the closure follows what TypeScript emits: a type-only import loads nothing, `import(…)` loads on call', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-closure-'));
	try {
		fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nimport { c } from './c';\nexport async function f(x: B) { return [x, c, await import('./d')]; }\n");
		for (const name of ['b', 'c', 'd']) fs.writeFileSync(path.join(dir, `${name}.ts`), `export type B = number;\nexport const ${name} = 1;\n`);
		const { loaded, onCall } = loadClosure([path.join(dir, 'a.ts')]);
		expect([...loaded].map((f) => path.basename(f)).sort()).toEqual(['a.ts', 'c.ts']);
		expect([...onCall].map((f) => path.basename(f))).toEqual(['d.ts']);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
