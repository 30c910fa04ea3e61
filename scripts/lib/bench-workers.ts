/**
 * The bench's worker processes (scripts/bench-process.ts, forked with IPC, each its own modules as a queue-mode
 * worker has): S6 and S8 fork them before any measured run, so that ts-node's start-up falls on no measurement.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ExecutionOutcome, ExecutionsSpec, NodeKind } from './bench-executions';
import type { FromChild, ToChild } from '../bench-process';
import { sec } from './bench-format';

const ROOT = join(__dirname, '..', '..');

/** ts-node compiles the node's modules in each process: on a busy 2-core machine that has taken over a minute. */
const WORKER_READY_TIMEOUT_MS = 180_000;
/** The longest run a worker gets: S6's and S8's slowest ways took about a minute before the pacing of issue 26. */
const WORKER_RUN_TIMEOUT_MS = 300_000;

export function forkWorker(kind: NodeKind): Promise<ChildProcess> {
	const child = fork(join(ROOT, 'scripts/bench-process.ts'), [kind], {
		cwd: ROOT,
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		env: { ...process.env, TS_NODE_PREFER_TS_EXTS: 'true' },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => fail(new Error(`bench-process (${kind}) not ready after ${sec(WORKER_READY_TIMEOUT_MS)}`)), WORKER_READY_TIMEOUT_MS);
		const fail = (e: Error) => {
			clearTimeout(timer);
			child.kill();
			reject(e);
		};
		child.once('exit', (code) => fail(new Error(`bench-process (${kind}) exited with ${code} before it was ready`)));
		child.once('message', (m: FromChild) => {
			clearTimeout(timer);
			child.removeAllListeners('exit');
			if (m.type === 'ready') resolve(child);
			else fail(new Error(`bench-process (${kind}): ${JSON.stringify(m)}`));
		});
	});
}

export function runOnWorker(child: ChildProcess, spec: ExecutionsSpec): Promise<ExecutionOutcome[]> {
	return new Promise((resolve, reject) => {
		const done = (e: Error | undefined, outcomes?: ExecutionOutcome[]) => {
			clearTimeout(timer);
			child.off('message', onMessage);
			child.off('exit', onExit);
			if (e) reject(e);
			else resolve(outcomes ?? []);
		};
		const onMessage = (m: FromChild) => {
			if (m.type === 'done') done(undefined, m.outcomes);
			else if (m.type === 'error') done(new Error(`bench-process ${child.pid}: ${m.message}`));
		};
		const onExit = (code: number | null) => done(new Error(`bench-process ${child.pid} exited with ${code} during the run`));
		const timer = setTimeout(() => done(new Error(`bench-process ${child.pid}: no answer after ${sec(WORKER_RUN_TIMEOUT_MS)}`)), WORKER_RUN_TIMEOUT_MS);
		child.on('message', onMessage);
		child.once('exit', onExit);
		child.send({ type: 'go', spec } satisfies ToChild);
	});
}
