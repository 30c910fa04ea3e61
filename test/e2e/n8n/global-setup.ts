/**
 * Installs the n8n runtimes the selected test files need, one at a time and
 * before any of them starts (each install takes both cores for minutes), so
 * that the files, side by side, only start n8n. A runtime already in the cache
 * costs nothing. A file's runtime is the one whose n8n version its name starts
 * with (n8n-<version>[-<variant>].test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as rt from '../../../scripts/lib/n8n-runtime';

/** The part of jest's global config read here (@jest/types is not a dependency of the project). */
interface GlobalConfig {
	rootDir: string;
	testPathPatterns?: { toExecutor?(options: { rootDir: string }): { isSet(): boolean; isMatch(absPath: string): boolean } };
}

export default async function globalSetup(globalConfig: GlobalConfig): Promise<void> {
	const executor = globalConfig.testPathPatterns?.toExecutor?.({ rootDir: globalConfig.rootDir });
	const selected = fs
		.readdirSync(__dirname)
		.filter((f) => f.endsWith('.test.ts'))
		.filter((f) => !executor?.isSet() || executor.isMatch(path.join(__dirname, f)));
	const versions = new Set(selected.map((f) => /^n8n-(\d+\.\d+\.\d+)/.exec(f)?.[1]));
	for (const name of rt.RUNTIME_NAMES) {
		if (!versions.has(rt.runtime(name).version)) continue;
		const n8n = await rt.ensureN8n(name);
		process.stdout.write(`n8n ${n8n.version} ready in ${n8n.dir}\n`);
	}
}
