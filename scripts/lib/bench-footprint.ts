/**
 * The bench's section 3, the packages' footprint: the time to load each one's modules in a fresh node process (its
 * platform's library timed on its own first) and its `npm pack` size.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';


/** Builds the packages when their dist/ is missing, or always with `force` (--build); says which. */
export function ensureBuilt(root: string, force: boolean, log: (line: string) => void): string {
	const missing = [join(root, 'n8n/dist/nodes/PostWriter/PostWriter.node.js'), join(root, 'zapier/dist/zapier/src/index.js')].filter((f) => !existsSync(f));
	if (missing.length === 0 && !force) return 'existing build';
	log(force ? 'building (--build)…' : `building: missing ${missing.join(', ')}…`);
	const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
	if (r.status !== 0) throw new Error('npm run build failed');
	return 'built by this run (npm run build)';
}

function median(list: number[]): number {
	const s = [...list].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

export interface LoadTime {
	median: number;
	all: number[];
	/** Of which the dependency alone (required first, in the same process). */
	dependency: number;
	/** The package's own code: total − dependency (median). */
	own: number;
}

/** Time (ms) to require `files` in a fresh node process, median of `runs`; `dependency` is timed on its own first. */
export function loadTime(files: string[], dependency: string, cwd: string, runs = 5): LoadTime {
	const code =
		'const t=process.hrtime.bigint();' +
		`require(require.resolve(${JSON.stringify(dependency)},{paths:[${JSON.stringify(cwd)}]}));const d=process.hrtime.bigint();` +
		files.map((f) => `require(${JSON.stringify(f)});`).join('') +
		'const e=process.hrtime.bigint();process.stdout.write(JSON.stringify([Number(e-t)/1e6,Number(d-t)/1e6]));';
	const totals: number[] = [];
	const deps: number[] = [];
	for (let i = 0; i < runs; i++) {
		const [total, dep] = JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd, encoding: 'utf8' })) as [number, number];
		totals.push(total);
		deps.push(dep);
	}
	return { median: median(totals), all: totals, dependency: median(deps), own: median(totals.map((t, i) => t - deps[i])) };
}

export function packSize(cwd: string): { size: number; unpackedSize: number; files: number; name: string } {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const [info] = JSON.parse(out) as Array<{ size: number; unpackedSize: number; entryCount: number; name: string }>;
	return { size: info.size, unpackedSize: info.unpackedSize, files: info.entryCount, name: info.name };
}
