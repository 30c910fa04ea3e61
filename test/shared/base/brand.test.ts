/** The product name lives in shared/base/brand.ts; the package names must agree with it. */
import { readFileSync, existsSync } from 'fs';
import { join } from 'path';
import { BRAND } from '../../../shared/base';

const root = join(__dirname, '..', '..', '..');

test('n8n/package.json is the n8n package named in BRAND; the root package is private', () => {
	const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	expect(rootPkg.private).toBe(true);
	expect(rootPkg.name).not.toBe(BRAND.n8nPackage);
	const pkg = JSON.parse(readFileSync(join(root, 'n8n', 'package.json'), 'utf8'));
	expect(pkg.name).toBe(BRAND.n8nPackage);
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(Object.keys(pkg.peerDependencies)).toEqual(['n8n-workflow']);
	expect(pkg.keywords).toContain('n8n-community-node-package');
	for (const p of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(p.startsWith('dist/')).toBe(true);
});

test('zapier/package.json is named in BRAND', () => {
	const file = join(root, 'zapier', 'package.json');
	expect(existsSync(file)).toBe(true);
	expect(JSON.parse(readFileSync(file, 'utf8')).name).toBe(BRAND.zapierPackage);
});
