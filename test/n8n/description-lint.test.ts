/**
 * n8n's node and credential lint rules (eslint-plugin-n8n-nodes-base, as
 * @n8n/node-cli applies them) over the descriptions the TypeScript source
 * classes produce at runtime. Most parameters are generated from the
 * catalogue, so `n8n-node lint` never sees them in the source text.
 * Needs no build: ts-jest loads the classes listed (as built paths) in
 * n8n/package.json's "n8n" field from their .ts sources. The same check over
 * the built package: npm run lint:descriptions (and npm run verify:n8n).
 */
import fs from 'node:fs';
import path from 'node:path';

import * as lib from '../../scripts/lib/lint-descriptions';

const PACKAGE_DIR = path.resolve(__dirname, '../../n8n');
const listed = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')).n8n as { nodes: string[]; credentials: string[] };

/** The .ts source of a built path of the "n8n" field, and its one exported class. */
function source(builtPath: string, kind: 'nodes' | 'credentials'): [new () => object, string] {
	const relPath = lib.lintPath(builtPath, kind);
	const file = path.join(PACKAGE_DIR, relPath);
	expect(fs.existsSync(file)).toBe(true);
	const classes = Object.values(jest.requireActual<Record<string, unknown>>(file)).filter((v) => typeof v === 'function');
	expect(classes).toHaveLength(1);
	return [classes[0] as new () => object, relPath];
}

describe('n8n node and credential rules over the runtime descriptions', () => {
	it('reports no problem', async () => {
		const entries = [
			...listed.nodes.map((p) => lib.nodeEntry(...source(p, 'nodes'))),
			...listed.credentials.map((p) => lib.credentialEntry(...source(p, 'credentials'))),
		];
		const result = await lib.lintDescriptions(entries);
		expect(result.files).toHaveLength(listed.nodes.length + listed.credentials.length);
		expect(result.problems.map(lib.formatProblem)).toEqual([]);
	}, 60000);
});
