#!/usr/bin/env node
/**
 * Builds the n8n community package (n8n/) into n8n/dist/:
 *   - tsc (n8n/tsconfig.json) compiles the nodes, the credential and the shared
 *     core they import (dist/nodes, dist/credentials and dist/shared, through the n8n/shared
 *     symlink; the core is inlined,
 *     so the package has no runtime dependency);
 *   - svg icons and *.node.json codex files are copied next to the compiled files;
 *   - every path of the package.json "n8n" field is checked to exist.
 * Usage: npm run build --workspace n8n   (the root `npm run build` also builds the Zapier app)
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..');
const PKG = path.join(REPO, 'n8n');
const DIST = path.join(PKG, 'dist');
const ASSET = /\.(svg|png|node\.json)$/;

function log(message) {
	process.stdout.write(`[build] ${message}\n`);
}

function copyAssets(dir) {
	let count = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const from = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (!['examples', 'dist', 'node_modules'].includes(entry.name)) count += copyAssets(from);
		} else if (ASSET.test(entry.name)) {
			const to = path.join(DIST, path.relative(PKG, from));
			fs.mkdirSync(path.dirname(to), { recursive: true });
			fs.copyFileSync(from, to);
			count++;
		}
	}
	return count;
}

function checkN8nField() {
	const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
	const listed = [...(pkg.n8n?.credentials ?? []), ...(pkg.n8n?.nodes ?? [])];
	const missing = listed.filter((p) => !fs.existsSync(path.join(PKG, p)));
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
	const result = spawnSync(process.execPath, [tsc, '-p', path.join(PKG, 'tsconfig.json')], { cwd: PKG, stdio: 'inherit' });
	if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status})`);
	const assets = copyAssets(path.join(PKG, 'nodes')) + copyAssets(path.join(PKG, 'credentials'));
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
