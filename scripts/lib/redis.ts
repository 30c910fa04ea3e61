/** A throwaway redis-server for n8n's queue mode, from Debian's package: 127.0.0.1, the port given, no persistence. */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Options of startRedis. */
export interface RedisOptions {
	port: number;
	/** Where redis.log is written. */
	logDir: string;
}

/** A running redis-server. */
export interface RedisServer {
	port: number;
	child: ChildProcess;
	/** Kills it and deletes its folder. */
	stop(): void;
}

/** redis-server on 127.0.0.1:`port`, no persistence; resolves once it answers PING (within 30 s). */
export async function startRedis({ port, logDir }: RedisOptions): Promise<RedisServer> {
	const out = fs.openSync(path.join(logDir, 'redis.log'), 'w');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'post-writer-redis-'));
	const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	const stop = (): void => {
		if (child.exitCode === null && child.signalCode === null) {
			try {
				process.kill(-(child.pid as number), 'SIGKILL');
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
