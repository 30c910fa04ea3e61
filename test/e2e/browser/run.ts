/**
 * `npm run test:browser [-- options]`: `playwright test -c test/e2e/browser/playwright.config.ts`,
 * with the suite's own options first turned into environment variables
 * (playwright test refuses options it does not know):
 *   --save-docs-images        SAVE_DOCS_IMAGES=1: after a green run, the README's screenshots into docs/images/;
 *   --n8n=oldest|newest       POST_WRITER_N8N: the n8n runtime (default newest, 2.41.0);
 *   --ci                      CI=1, as jest's --ci (CI passes the same options to every suite);
 *   --json --outputFile=<f>   PLAYWRIGHT_JSON_OUTPUT_FILE=<f>, as jest's (the JSON report is always written).
 * Everything else goes to playwright test as it is (--grep, --trace on, --headed, …).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const env: NodeJS.ProcessEnv = { ...process.env };
const passOn: string[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
	const arg = args[i];
	if (arg === '--save-docs-images') env.SAVE_DOCS_IMAGES = '1';
	else if (arg.startsWith('--n8n=')) env.POST_WRITER_N8N = arg.slice('--n8n='.length);
	else if (arg === '--ci') env.CI = env.CI || '1';
	else if (arg === '--json') continue;
	else if (arg.startsWith('--outputFile=')) env.PLAYWRIGHT_JSON_OUTPUT_FILE = path.resolve(arg.slice('--outputFile='.length));
	else if (arg === '--outputFile' && i + 1 < args.length) env.PLAYWRIGHT_JSON_OUTPUT_FILE = path.resolve(args[++i]);
	else passOn.push(arg);
}
if (env.POST_WRITER_N8N && !['oldest', 'newest'].includes(env.POST_WRITER_N8N)) {
	process.stderr.write(`--n8n=${env.POST_WRITER_N8N}: one of oldest, newest\n`);
	process.exit(2);
}

const cli = require.resolve('@playwright/test/cli');
const child = spawn(process.execPath, [cli, 'test', '-c', path.join(__dirname, 'playwright.config.ts'), ...passOn], { stdio: 'inherit', env });
// Ctrl-C reaches playwright too (same process group): let it stop n8n and Chromium, then exit with its code.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
