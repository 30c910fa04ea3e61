/**
 * A throwaway PostgreSQL cluster for n8n's queue mode, from Debian's package:
 * a private cluster (initdb + pg_ctl as the `postgres` OS user, since it
 * refuses root) in a temporary folder, on 127.0.0.1 and the port given, with
 * fsync off. stop() stops it and deletes it, keeping its log.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Options of startPostgres. */
export interface PostgresOptions {
	port: number;
	/** The role n8n logs in as, owner of `database`. */
	user: string;
	password: string;
	database: string;
	/** Where the server's log is kept (postgres.log). */
	logDir: string;
}

/** A running cluster. */
export interface PostgresServer {
	port: number;
	/** The bin folder of the PostgreSQL used. */
	bin: string;
	dataDir: string;
	logFile: string;
	user: string;
	password: string;
	database: string;
	/** Rows of a query in n8n's database, each an array of column texts. */
	query(sql: string): string[][];
	/** A plain-SQL pg_dump of n8n's database into `file`. */
	dump(file: string): void;
	/** Copies the server's log to logDir/postgres.log. */
	saveLog(): void;
	/** Stops the cluster at once, keeps its log in logDir and deletes its folder. */
	stop(): void;
}

interface RunOptions {
	timeoutMs?: number;
	env?: NodeJS.ProcessEnv;
	input?: string;
	allowFail?: boolean;
}

/** The bin folder of the newest PostgreSQL installed by Debian (/usr/lib/postgresql/<ver>/bin). */
export function postgresBin(): string {
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

function run(cmd: string, args: string[], options: RunOptions = {}): SpawnSyncReturns<string> {
	const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, env: options.env ?? process.env, input: options.input });
	if (r.status !== 0 && !options.allowFail) {
		throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${(r.stderr || r.stdout || '').trim()}`);
	}
	return r;
}

function isRoot(): boolean {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** As the postgres OS user when this process is root (PostgreSQL refuses to run as root). */
function asPostgres(cmd: string, args: string[], options?: RunOptions): SpawnSyncReturns<string> {
	return isRoot() ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], options) : run(cmd, args, options);
}

/**
 * Starts a private cluster on 127.0.0.1:`port` (no Unix socket, fsync off),
 * with a database `database` owned by role `user` (password `password`).
 */
export function startPostgres({ port, user, password, database, logDir }: PostgresOptions): PostgresServer {
	const bin = postgresBin();
	// A folder the postgres user can enter (mkdtemp makes 0700 folders owned by us).
	const top = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-pg-'));
	fs.chmodSync(top, 0o755);
	const dataDir = path.join(top, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	// The server's log lives beside its data (the postgres user may not enter logDir); stop() copies it to logDir.
	const logFile = path.join(top, 'postgres.log');
	fs.mkdirSync(logDir, { recursive: true });
	if (isRoot()) run('chown', ['-R', 'postgres:postgres', top]);
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
	const psqlAs = (role: string, db: string, sql: string): string =>
		run(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', role, '-d', db, '-v', 'ON_ERROR_STOP=1', '-At', '-F', '\t', '-c', sql], {
			env: { ...process.env, PGPASSWORD: role === user ? password : '', PGCONNECT_TIMEOUT: '10' },
		}).stdout;
	psqlAs('postgres', 'postgres', `CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
	psqlAs('postgres', 'postgres', `CREATE DATABASE ${database} OWNER ${user}`);
	const saveLog = (): void => {
		if (fs.existsSync(logFile)) fs.copyFileSync(logFile, path.join(logDir, 'postgres.log'));
	};
	return {
		port,
		bin,
		dataDir,
		logFile,
		user,
		password,
		database,
		query(sql) {
			return psqlAs(user, database, sql)
				.split('\n')
				.filter((l) => l !== '')
				.map((l) => l.split('\t'));
		},
		dump(file) {
			const r = run(path.join(bin, 'pg_dump'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '--format=plain', '--no-owner', database], {
				env: { ...process.env, PGPASSWORD: password },
				timeoutMs: 120_000,
			});
			fs.writeFileSync(file, r.stdout);
		},
		saveLog,
		stop() {
			if (stopped) return;
			stopped = true;
			asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', '-t', '30', 'stop'], { allowFail: true, timeoutMs: 60_000 });
			saveLog();
			fs.rmSync(top, { recursive: true, force: true });
		},
	};
}
