/**
 * The bench's section 3, the packages' footprint: the time to load each one's modules in a fresh node process (its
 * platform's library timed on its own first) and its `npm pack` size, with the section of the report and its targets.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kb, table, verdict, type BenchSection } from './bench-format';
import { FOOTPRINT_TARGETS as T } from './bench-targets';

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

/**
 * Fresh processes a load time is the median of. 11, not 5: on 2 cores, medians of 5 of the n8n modules' own load
 * spread 20-29 ms around a target of 25 ms, and medians of 11 gave 19.7-20.1 ms, three times.
 */
export const LOAD_RUNS = 11;

/** Time (ms) to require `files` in a fresh node process, median of `runs`; `dependency` is timed on its own first. */
export function loadTime(files: string[], dependency: string, cwd: string, runs = LOAD_RUNS): LoadTime {
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

/** Section 3: both packages' load time and pack size, as a section of the report with its targets. */
export function measureFootprint(root: string, log: (line: string) => void): BenchSection {
	log('3. footprint');
	const zapierLoad = loadTime([join(root, 'zapier/index.js')], 'zapier-platform-core', join(root, 'zapier'));
	const n8nDir = join(root, 'n8n');
	const n8nPkg = JSON.parse(readFileSync(join(n8nDir, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
	const n8nFiles = [...n8nPkg.n8n.nodes, ...n8nPkg.n8n.credentials];
	const n8nLoad = loadTime(n8nFiles.map((f) => join(n8nDir, f)), 'n8n-workflow', n8nDir);
	const n8nPack = packSize(n8nDir);
	const zapierPack = packSize(join(root, 'zapier'));
	const section =
		'### 3. Footprint\n\n' +
		table(
			['what', 'figure'],
			[
				[
					`Zapier app load (\`require\` of zapier/index.js, fresh process, median of ${LOAD_RUNS})`,
					`${zapierLoad.median.toFixed(1)} ms (runs: ${zapierLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which zapier-platform-core alone ${zapierLoad.dependency.toFixed(1)} ms, the app's own code ${zapierLoad.own.toFixed(1)} ms`,
				],
				[
					`n8n modules load (\`require\` of the 2 nodes + credential in dist/, fresh process, median of ${LOAD_RUNS})`,
					`${n8nLoad.median.toFixed(1)} ms (runs: ${n8nLoad.all.map((x) => x.toFixed(0)).join(', ')}); of which n8n-workflow alone ${n8nLoad.dependency.toFixed(1)} ms, the package's own code ${n8nLoad.own.toFixed(1)} ms`,
				],
				[`n8n package \`${n8nPack.name}\` (npm pack, root)`, `${kb(n8nPack.size)} packed, ${kb(n8nPack.unpackedSize)} unpacked, ${n8nPack.files} files`],
				[`Zapier package \`${zapierPack.name}\` (npm pack, zapier/)`, `${kb(zapierPack.size)} packed, ${kb(zapierPack.unpackedSize)} unpacked, ${zapierPack.files} files`],
			],
		);
	const targets = [
		[`Zapier app's own load on top of zapier-platform-core ≤ ${T.ownLoadMs} ms`, `${zapierLoad.own.toFixed(1)} ms (total ${zapierLoad.median.toFixed(1)} ms)`, verdict(zapierLoad.own <= T.ownLoadMs)],
		[`n8n modules' own load on top of n8n-workflow ≤ ${T.ownLoadMs} ms`, `${n8nLoad.own.toFixed(1)} ms (total ${n8nLoad.median.toFixed(1)} ms)`, verdict(n8nLoad.own <= T.ownLoadMs)],
		[`n8n tarball < ${T.tarballKb} KB`, kb(n8nPack.size), verdict(n8nPack.size < T.tarballKb * 1024)],
	];
	return { section, targets };
}
