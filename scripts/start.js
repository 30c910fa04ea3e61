#!/usr/bin/env node
/**
 * `npm start`: a local, real n8n with this package installed, on the sandbox.
 * The newest n8n by default (2.41.0 on Node 24); `npm start -- --n8n=oldest`
 * (or POST_WRITER_N8N=oldest) gives the oldest supported (2.8.4 on Node 20).
 * The bring-up itself (install, build and pack, sandbox, credential, example
 * workflows, `n8n start`, owner account) is scripts/lib/local-n8n.js, shared
 * with the browser test; this prints the editor URL, the login and the
 * sandbox key. Ctrl-C stops n8n and the sandbox.
 * Env: POST_WRITER_CACHE (cache root), POST_WRITER_N8N (newest | oldest),
 *      N8N_USER_FOLDER (default <cache>/n8n-user-<newest|oldest>),
 *      N8N_PORT (default 5678, or a free port when taken).
 */
'use strict';
const path = require('node:path');
const rt = require('./lib/n8n-runtime');
const { startLocalN8n, DEFAULT_RUNTIME } = require('./lib/local-n8n');

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const RUNTIME = arg('n8n') || process.env.POST_WRITER_N8N || DEFAULT_RUNTIME;

let running;
let stopping = false;

function say(message = '') {
	process.stdout.write(`${message}\n`);
}

async function stop(signal, code = 0) {
	if (stopping) return;
	stopping = true;
	say(`\nStopping (${signal})…`);
	if (running) await running.stop();
	say('Stopped n8n and the sandbox.');
	process.exit(code);
}

async function main() {
	process.on('SIGINT', () => stop('Ctrl-C'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	process.on('SIGHUP', () => stop('SIGHUP'));
	if (!rt.RUNTIME_NAMES.includes(RUNTIME)) throw new Error(`--n8n=${RUNTIME}: use one of ${rt.RUNTIME_NAMES.join(', ')}`);

	// One user folder per runtime: n8n migrates its database forward only, so 2.8.4 cannot open a folder 2.41 used.
	const userFolder = process.env.N8N_USER_FOLDER || path.join(rt.cacheRoot(), `n8n-user-${RUNTIME}`);
	running = await startLocalN8n({
		runtime: RUNTIME,
		userFolder,
		port: Number(process.env.N8N_PORT || 5678),
		keySeed: 'npm-start',
		log: say,
		onExit: (code, signal) => {
			say(`n8n stopped on its own (${signal ?? `exit ${code}`}); see ${running?.logFile}`);
			stop('n8n exit', 1);
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

main().catch((error) => {
	say(`npm start failed: ${(error && error.message) || error}`);
	stop('error', 1);
});
