/**
 * Throwaway PostgreSQL and Redis servers for n8n's queue mode, on 127.0.0.1
 * and free ports, from Debian's packages (scripts/lib/debian.js installs them).
 * Neither touches the system's clusters or services: PostgreSQL runs a private
 * cluster (initdb + pg_ctl as the `postgres` OS user, since it refuses root)
 * in a temporary folder, Redis runs without persistence. Both are stopped and
 * deleted by their stop().
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

/** The bin folder of the newest PostgreSQL installed by Debian (/usr/lib/postgresql/<ver>/bin). */
function postgresBin() {
	const base = '/usr/lib/postgresql';
	const versions = fs.existsSync(base)
		? fs
				.readdirSync(base)
				.filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length === 0) throw new Error(`no PostgreSQL server in ${base} (apt-get install postgresql)`);
	return path.join(base, versions[0], 'bin');
}

function run(cmd, args, options = {}) {
	const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, env: options.env ?? process.env, input: options.input });
	if (r.status !== 0 && !options.allowFail) {
		throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${(r.stderr || r.stdout || '').trim()}`);
	}
	return r;
}

/** As the postgres OS user when this process is root (PostgreSQL refuses to run as root). */
function asPostgres(cmd, args, options) {
	const root = typeof process.getuid === 'function' && process.getuid() === 0;
	return root ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], options) : run(cmd, args, options);
}

/**
 * Starts a private cluster on 127.0.0.1:`port` (no Unix socket, fsync off),
 * with a database `database` owned by role `user` (password `password`).
 * Returns { port, bin, dataDir, logFile, user, password, database, psql(sql), dump(file), stop() }.
 */
function startPostgres({ port, user, password, database, logDir }) {
	const bin = postgresBin();
	// A folder the postgres user can enter (mkdtemp makes 0700 folders owned by us).
	const top = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-pg-'));
	fs.chmodSync(top, 0o755);
	const dataDir = path.join(top, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	// The server's log lives beside its data (the postgres user may not enter logDir); stop() copies it to logDir.
	const logFile = path.join(top, 'postgres.log');
	fs.mkdirSync(logDir, { recursive: true });
	const root = typeof process.getuid === 'function' && process.getuid() === 0;
	if (root) run('chown', ['-R', 'postgres:postgres', top]);
	const options = [`-c listen_addresses=127.0.0.1`, `-p ${port}`, `-c unix_socket_directories=''`, '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=100'].join(' ');
	try {
		asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'], { timeoutMs: 180_000 });
		asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', logFile, '-w', '-t', '60', 'start'], { timeoutMs: 90_000 });
	} catch (error) {
		// Not started: keep the log, delete the folder (a server started late is stopped first).
		asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop'], { allowFail: true, timeoutMs: 30_000 });
		if (fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(logDir, 'postgres.log'));
		fs.rmSync(top, { recursive: true, force: true });
		throw error;
	}
	let stopped = false;
	const psqlAs = (role, db, sql) =>
		run(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', role, '-d', db, '-v', 'ON_ERROR_STOP=1', '-At', '-F', '\t', '-c', sql], {
			env: { ...process.env, PGPASSWORD: role === user ? password : '', PGCONNECT_TIMEOUT: '10' },
		}).stdout;
	psqlAs('postgres', 'postgres', `CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
	psqlAs('postgres', 'postgres', `CREATE DATABASE ${database} OWNER ${user}`);
	return {
		port,
		bin,
		dataDir,
		logFile,
		user,
		password,
		database,
		/** Rows of a query in n8n's database, each an array of column texts. */
		query(sql) {
			return psqlAs(user, database, sql)
				.split('\n')
				.filter((l) => l !== '')
				.map((l) => l.split('\t'));
		},
		/** A plain-SQL pg_dump of n8n's database into `file`. */
		dump(file) {
			const r = run(path.join(bin, 'pg_dump'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '--format=plain', '--no-owner', database], {
				env: { ...process.env, PGPASSWORD: password },
				timeoutMs: 120_000,
			});
			fs.writeFileSync(file, r.stdout);
		},
		/** Copies the server's log to logDir/postgres.log. */
		saveLog() {
			if (fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(logDir, 'postgres.log'));
		},
		/** Stops the cluster at once, keeps its log in logDir and deletes its folder. */
		stop() {
			if (stopped) return;
			stopped = true;
			asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', '-t', '30', 'stop'], { allowFail: true, timeoutMs: 60_000 });
			this.saveLog();
			fs.rmSync(top, { recursive: true, force: true });
		},
	};
}

/** redis-server on 127.0.0.1:`port`, no persistence. Resolves { port, child, stop() } once it answers PING. */
async function startRedis({ port, logDir }) {
	const out = fs.openSync(path.join(logDir, 'redis.log'), 'w');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-redis-'));
	const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		stdio: ['ignore', out, out],
		detached: true,
	});
	const stop = () => {
		if (child.exitCode === null && child.signalCode === null) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		fs.rmSync(dir, { recursive: true, force: true });
	};
	const until = Date.now() + 30_000;
	while (Date.now() < until) {
		const ping = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'PING'], { encoding: 'utf8', timeout: 5000 });
		if (ping.stdout && ping.stdout.trim() === 'PONG') return { port, child, stop };
		if (child.exitCode !== null) break;
		await new Promise((r) => setTimeout(r, 200));
	}
	stop();
	throw new Error(`redis-server did not start on port ${port}; see ${path.join(logDir, 'redis.log')}`);
}

module.exports = { postgresBin, startPostgres, startRedis };
