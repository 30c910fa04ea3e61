/** Child processes and ports: what every suite and `npm start` need around n8n. */
import type { ChildProcess } from 'node:child_process';
import * as net from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
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
