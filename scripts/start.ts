/**
 * `npm start`: a local, real n8n with this package installed, on the sandbox.
 * The newest n8n by default (2.41.0 on Node 24); `npm start -- --n8n=oldest`
 * (or POST_WRITER_N8N=oldest) gives the oldest supported (2.8.4 on Node 20).
 * The bring-up itself (install, build and pack, sandbox, credential, example
 * workflows, `n8n start`, owner account) is scripts/lib/local-n8n.ts, shared
 * with the browser test; this prints the editor URL, the login and the
 * sandbox key. Ctrl-C stops n8n and the sandbox.
 * Env: POST_WRITER_CACHE (cache root), POST_WRITER_N8N (newest | oldest),
 *      N8N_USER_FOLDER (default <cache>/n8n-user-<newest|oldest>),
 *      N8N_PORT (default 5678, or a free port when taken).
 */
import * as path from 'node:path';
import type { LocalN8n } from './lib/local-n8n';
import { DEFAULT_RUNTIME, startLocalN8n } from './lib/local-n8n';
import type { RuntimeName } from './lib/n8n-install';
import { RUNTIME_NAMES } from './lib/n8n-install';
import { cacheRoot, say } from './lib/paths';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const RUNTIME = arg('n8n') || process.env.POST_WRITER_N8N || DEFAULT_RUNTIME;

let running: LocalN8n | undefined;
let stopping = false;

function isRuntimeName(name: string): name is RuntimeName {
	return (RUNTIME_NAMES as readonly string[]).includes(name);
}

async function stop(reason: string, code = 0): Promise<void> {
	if (stopping) return;
	stopping = true;
	say(`\nStopping (${reason})…`);
	if (running) await running.stop();
	say('Stopped n8n and the sandbox.');
	process.exit(code);
}

async function main(): Promise<void> {
	process.on('SIGINT', () => void stop('Ctrl-C'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	process.on('SIGHUP', () => void stop('SIGHUP'));
	if (!isRuntimeName(RUNTIME)) throw new Error(`--n8n=${RUNTIME}: use one of ${RUNTIME_NAMES.join(', ')}`);

	// One user folder per runtime: n8n migrates its database forward only, so 2.8.4 cannot open a folder 2.41 used.
	const userFolder = process.env.N8N_USER_FOLDER || path.join(cacheRoot(), `n8n-user-${RUNTIME}`);
	running = await startLocalN8n({
		runtime: RUNTIME,
		userFolder,
		port: Number(process.env.N8N_PORT || 5678),
		keySeed: 'npm-start',
		log: say,
		onExit: (code, signal) => {
			say(`n8n stopped on its own (${signal ?? `exit ${code}`}); see ${running?.logFile}`);
			void stop('n8n exit', 1);
		},
	});
	const { n8n, pkg, editorUrl, owner, sandbox, credential, logFile } = running;

	say('');
	say('================================================================');
	say(` n8n ${n8n.version} with ${pkg.name} is running`);
	say(`   Editor:        ${editorUrl}`);
	if (owner) say(`   Log in with:   ${owner.email} / ${owner.password}`);
	say(`   Sandbox API:   ${sandbox.baseUrl}`);
	say(`   Sandbox key:   ${sandbox.keys.full}`);
	say(`   Credential:    "${credential.name}" (already set up with that key)`);
	say('   Workflows:     open "Post Writer: try it …" and click "Execute workflow";');
	say('                  the trigger examples work once you activate them (they poll every minute).');
	say(`   n8n log:       ${logFile}`);
	say(`   Other n8n:     npm start -- --n8n=${RUNTIME === 'newest' ? 'oldest' : 'newest'}`);
	say('   Stop:          Ctrl-C (stops n8n and the sandbox; the sandbox forgets its data)');
	say('================================================================');
}

main().catch((error: unknown) => {
	say(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
	void stop('error', 1);
});
