/**
 * Builds the n8n community package (n8n/) into n8n/dist/ (scripts/lib/n8n-build.ts):
 * tsc, the icons and codex files, and a check of the package.json "n8n" field.
 * Usage: npm run build --workspace n8n   (the root `npm run build` also builds the Zapier app)
 *        ts-node --transpile-only scripts/build-n8n.ts [package-dir]   (a copy of n8n/, e.g. the registry rehearsal's)
 */
import * as path from 'node:path';
import { buildN8n } from './lib/n8n-build';

try {
	const dir = process.argv[2];
	const built = buildN8n(dir ? path.resolve(dir) : undefined);
	process.stdout.write(`[build] n8n package built in ${built.milliseconds} ms: ${built.assets} assets copied, ${built.listed} n8n entries present.\n`);
} catch (error) {
	process.stderr.write(`[build] failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
}
