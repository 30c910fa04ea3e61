#!/usr/bin/env node
/**
 * Builds the n8n community package into dist/:
 *   - tsc compiles n8n/**.ts and the shared core they import
 *     (dist/n8n/... and dist/shared/...; the core is inlined, no runtime dependency);
 *   - svg icons and *.node.json codex files are copied next to the compiled files;
 *   - every path of the package.json "n8n" field is checked to exist.
 * Usage: node scripts/build-n8n.js   (npm run build also builds the Zapier app)
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const SRC = path.join(ROOT, 'n8n');
const ASSET = /\.(svg|png|node\.json)$/;

function log(message) {
	process.stdout.write(`[build] ${message}\n`);
}

function copyAssets(dir) {
	let count = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const from = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== 'examples') count += copyAssets(from);
		} else if (ASSET.test(entry.name)) {
			const to = path.join(DIST, path.relative(ROOT, from));
			fs.mkdirSync(path.dirname(to), { recursive: true });
			fs.copyFileSync(from, to);
			count++;
		}
	}
	return count;
}

function checkN8nField() {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const listed = [...(pkg.n8n?.credentials ?? []), ...(pkg.n8n?.nodes ?? [])];
	const missing = listed.filter((p) => !fs.existsSync(path.join(ROOT, p)));
	if (missing.length > 0) throw new Error(`paths of the package.json "n8n" field missing after the build: ${missing.join(', ')}`);
	if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) {
		throw new Error('package.json has "dependencies"; the n8n community package must have none');
	}
	return listed.length;
}

function buildN8n() {
	const started = Date.now();
	fs.rmSync(DIST, { recursive: true, force: true });
	const tsc = require.resolve('typescript/bin/tsc');
	const result = spawnSync(process.execPath, [tsc, '-p', path.join(SRC, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
	if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status})`);
	const assets = copyAssets(SRC);
	const listed = checkN8nField();
	log(`n8n package built in ${Date.now() - started} ms: ${assets} assets copied, ${listed} n8n entries present.`);
}

function main() {
	buildN8n();
}

try {
	main();
} catch (error) {
	process.stderr.write(`[build] failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
}
