/**
 * Builds the n8n community package (n8n/) into n8n/dist/:
 *   - tsc (n8n/tsconfig.json) compiles the nodes, the credential and the shared
 *     core they import (dist/nodes, dist/credentials and dist/shared, through the
 *     n8n/shared symlink; the core is inlined, so the package has no runtime dependency);
 *   - svg icons and *.node.json codex files are copied next to the compiled files;
 *   - every path of the package.json "n8n" field is checked to exist.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_DIR } from './paths';

const ASSET = /\.(svg|png|node\.json)$/;

/** What a build did. */
export interface BuildResult {
	milliseconds: number;
	/** Icons and codex files copied into dist/. */
	assets: number;
	/** Paths of the package.json "n8n" field, all present. */
	listed: number;
}

interface N8nPackageJson {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	n8n?: { credentials?: string[]; nodes?: string[] };
}

function copyAssets(packageDir: string, dir: string): number {
	let count = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const from = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (!['examples', 'dist', 'node_modules'].includes(entry.name)) count += copyAssets(packageDir, from);
		} else if (ASSET.test(entry.name)) {
			const to = path.join(packageDir, 'dist', path.relative(packageDir, from));
			fs.mkdirSync(path.dirname(to), { recursive: true });
			fs.copyFileSync(from, to);
			count++;
		}
	}
	return count;
}

function checkN8nField(packageDir: string): number {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as N8nPackageJson;
	const listed = [...(pkg.n8n?.credentials ?? []), ...(pkg.n8n?.nodes ?? [])];
	const missing = listed.filter((p) => !fs.existsSync(path.join(packageDir, p)));
	if (missing.length > 0) throw new Error(`paths of the package.json "n8n" field missing after the build: ${missing.join(', ')}`);
	if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) {
		throw new Error('package.json has "dependencies"; the n8n community package must have none');
	}
	return listed.length;
}

/**
 * Builds the package in `packageDir` (default n8n/; a copy of it works too when
 * its `shared` symlink resolves) into <packageDir>/dist/, emptied first.
 * Throws when it fails, with tsc's messages.
 */
export function buildN8n(packageDir: string = PACKAGE_DIR): BuildResult {
	const started = Date.now();
	fs.rmSync(path.join(packageDir, 'dist'), { recursive: true, force: true });
	const tsc = require.resolve('typescript/bin/tsc');
	const result = spawnSync(process.execPath, [tsc, '-p', path.join(packageDir, 'tsconfig.json')], { cwd: packageDir, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status}):\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim()}`);
	const assets = copyAssets(packageDir, path.join(packageDir, 'nodes')) + copyAssets(packageDir, path.join(packageDir, 'credentials'));
	const listed = checkN8nField(packageDir);
	return { milliseconds: Date.now() - started, assets, listed };
}
