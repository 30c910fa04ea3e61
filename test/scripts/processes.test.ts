/** freePort: below the ephemeral range, never handed out twice, and reserved against the other suites of the machine. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../scripts/lib/processes';

const RESERVATIONS = path.join(os.tmpdir(), 'post-writer-ports');
const FLOOR = 20_000;

function ephemeralLow(): number {
	try {
		return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
	} catch {
		return 32_768;
	}
}

/** Math.random picking `ports` in turn, then its own choices. */
function pickInTurn(ports: number[]): void {
	const span = ephemeralLow() - FLOOR;
	const spy = jest.spyOn(Math, 'random');
	for (const port of ports) spy.mockReturnValueOnce((port - FLOOR + 0.5) / span);
}

/** A pid no process has: a child that has ended. */
function deadPid(): number {
	return spawnSync(process.execPath, ['-e', '0']).pid;
}

afterEach(() => jest.restoreAllMocks());

describe('freePort', () => {
	it('hands out ports below the ephemeral range, each once', async () => {
		const ports: number[] = [];
		for (let i = 0; i < 30; i++) ports.push(await freePort());
		expect(new Set(ports).size).toBe(30);
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(FLOOR);
			expect(port).toBeLessThan(ephemeralLow());
			expect(fs.readFileSync(path.join(RESERVATIONS, String(port)), 'utf8')).toBe(String(process.pid));
		}
	});

	it('skips a port another live process reserved, and one something listens on', async () => {
		const live = await freePort();
		fs.writeFileSync(path.join(RESERVATIONS, String(live)), String(process.ppid));
		const busy = await freePort();
		fs.rmSync(path.join(RESERVATIONS, String(busy)), { force: true });
		const server = net.createServer();
		await new Promise<void>((resolve) => server.listen(busy, '127.0.0.1', () => resolve()));
		const fallback = await freePort();
		fs.rmSync(path.join(RESERVATIONS, String(fallback)), { force: true });
		try {
			pickInTurn([live, busy, fallback]);
			expect(await freePort()).toBe(fallback);
			expect(fs.readFileSync(path.join(RESERVATIONS, String(live)), 'utf8')).toBe(String(process.ppid));
			expect(fs.existsSync(path.join(RESERVATIONS, String(busy)))).toBe(false);
		} finally {
			server.close();
			fs.rmSync(path.join(RESERVATIONS, String(live)), { force: true });
		}
	});

	it('takes over a reservation whose process has ended', async () => {
		const port = await freePort();
		fs.writeFileSync(path.join(RESERVATIONS, String(port)), String(deadPid()));
		pickInTurn([port]);
		expect(await freePort()).toBe(port);
		expect(fs.readFileSync(path.join(RESERVATIONS, String(port)), 'utf8')).toBe(String(process.pid));
	});
});
