/**
 * The sandbox's module graph has no circle: server.ts wires the parts, the types
 * they share live in types.ts, and no part imports server.ts (type imports included).
 */
import fs from 'node:fs';
import path from 'node:path';

const SANDBOX = path.join(__dirname, '..', '..', 'sandbox');
const modules = fs
	.readdirSync(SANDBOX)
	.filter((f) => f.endsWith('.ts'))
	.map((f) => f.replace(/\.ts$/, ''));
const source = (m: string) => fs.readFileSync(path.join(SANDBOX, `${m}.ts`), 'utf8');
/** The sandbox modules `m` imports or re-exports from, type imports included. */
const importsOf = (m: string) =>
	[...source(m).matchAll(/^(?:import|export)\b[^;]*?from '([^']+)';/gms)].map((x) => x[1]).filter((spec) => spec.startsWith('./')).map((spec) => spec.slice(2));

/** Every circle of the graph, each as a path that comes back to its first module. */
function circles(): string[][] {
	const found: string[][] = [];
	const done = new Set<string>();
	const visit = (m: string, stack: string[]): void => {
		const at = stack.indexOf(m);
		if (at >= 0) {
			found.push([...stack.slice(at), m]);
			return;
		}
		if (done.has(m)) return;
		for (const next of importsOf(m)) visit(next, [...stack, m]);
		done.add(m);
	};
	for (const m of modules) visit(m, []);
	return found;
}

test('every import inside sandbox/ names one of its modules', () => {
	expect(modules).toEqual(expect.arrayContaining(['server', 'types', 'routing', 'handlers', 'faults', 'api-errors']));
	for (const m of modules) for (const spec of importsOf(m)) expect(`${m}: ${modules.includes(spec) ? 'ok' : spec}`).toBe(`${m}: ok`);
});

test('the import graph of sandbox/ has no circle', () => {
	expect(circles().map((c) => c.join(' → '))).toEqual([]);
});

test('only the entry points import server.ts; server.ts defines no type the parts share', () => {
	const importers = modules.filter((m) => importsOf(m).includes('server'));
	expect(importers.sort()).toEqual(['cli', 'index']);
	expect(source('server')).not.toMatch(/^export (?:interface|type \w+ =)/m);
});
