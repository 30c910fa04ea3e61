/** Child processes and ports: what every suite and `npm start` need around n8n. */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Ports handed out lie below the kernel's ephemeral range (Linux: 32768–60999 unless /proc says otherwise). A port taken
 * from the ephemeral range can be given to an outgoing connection (to the sandbox, PostgreSQL, Redis) between its pick
 * and the child's bind, and n8n binds its task broker only after its database migrations, minutes later under load:
 * CI saw a queue-mode worker stop on "Task Broker's port … is already in use".
 */
const PORT_FLOOR = 20_000;
const FALLBACK_EPHEMERAL_LOW = 32_768;
/** Where a handed-out port is reserved for every suite on this machine (they run side by side): one file per port, holding the pid. */
const RESERVATIONS = path.join(os.tmpdir(), 'post-writer-ports');
/** A reservation older than this is stale whatever its pid says (a pid can be reused); no suite holds a port that long. */
const RESERVATION_MAX_AGE_MS = 3 * 60 * 60 * 1000;
/** Tries before giving up: each picks a random port, so this many misses in a row means the range is full. */
const PICK_ATTEMPTS = 200;

function ephemeralLow(): number {
	try {
		const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
		return Number.isInteger(low) && low > PORT_FLOOR + 1000 ? low : FALLBACK_EPHEMERAL_LOW;
	} catch {
		return FALLBACK_EPHEMERAL_LOW;
	}
}

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The ports this process reserved: their files go when it exits (a reservation left behind is stale anyway). */
const reserved = new Set<number>();

function releaseAll(): void {
	for (const port of reserved) {
		const file = path.join(RESERVATIONS, String(port));
		try {
			if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file, { force: true });
		} catch {
			// gone already
		}
	}
	reserved.clear();
}

/** Reserves `port` for this process; false when a live process holds it. A stale reservation is taken over. */
function reserve(port: number): boolean {
	fs.mkdirSync(RESERVATIONS, { recursive: true });
	const file = path.join(RESERVATIONS, String(port));
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			if (reserved.size === 0) process.once('exit', releaseAll);
			reserved.add(port);
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			try {
				const holder = Number(fs.readFileSync(file, 'utf8'));
				const age = Date.now() - fs.statSync(file).mtimeMs;
				if (holder === process.pid || (pidAlive(holder) && age < RESERVATION_MAX_AGE_MS)) return false;
				fs.rmSync(file, { force: true });
			} catch {
				// removed or rewritten meanwhile: try once more
			}
		}
	}
	return false;
}

function canListen(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * A free TCP port on 127.0.0.1, outside the ephemeral range and reserved against every other suite of this machine
 * (a file per port in the temp folder, free again once this process has ended), so a child can bind it minutes later.
 */
export async function freePort(): Promise<number> {
	const high = ephemeralLow() - 1;
	for (let attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
		const port = PORT_FLOOR + Math.floor(Math.random() * (high - PORT_FLOOR + 1));
		if (!reserve(port)) continue;
		if (await canListen(port)) return port;
		reserved.delete(port);
		fs.rmSync(path.join(RESERVATIONS, String(port)), { force: true });
	}
	throw new Error(`no free port between ${PORT_FLOOR} and ${high} after ${PICK_ATTEMPTS} tries (reservations in ${RESERVATIONS})`);
}

/** True when something listens on 127.0.0.1:port. */
export function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Sends `signal` to the process group of a detached child (to the child alone when that fails); nothing when it has ended. */
export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-(child.pid as number), signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

/** Polls `predicate` (sync or async) every `intervalMs` until it is true (resolves true) or `timeoutMs` passed (resolves false). */
export async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 500): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await predicate()) return true;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	return false;
}
