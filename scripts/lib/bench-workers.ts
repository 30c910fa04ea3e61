/**
 * The bench's worker processes (scripts/bench-process.ts, forked with IPC, each its own modules as a queue-mode
 * worker has): S6 and S8 fork them before any measured run, so that ts-node's start-up falls on no measurement.
 * S6's way over them (processesWay) is here too, with the processes it holds between forking and the run.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ExecutionOutcome, ExecutionsSpec, NodeKind } from './bench-executions';
import type { FromChild, ToChild } from '../bench-process';
import { performance } from 'node:perf_hooks';
import type { Sandbox } from '../../sandbox/server';
import { log, sec } from './bench-format';
import { itemsPerExecution, outcomeOf, scenarioKey, type RunOutcome, type Scenario } from './bench-scenarios';

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

/** The worker processes of each S6 way, keyed "<part>|<kind>". */
const workers = new Map<string, ChildProcess[]>();
/** Forks the processes of every S6 way of the run (all at once; their ts-node start-up falls on no measurement). */
export async function prepareWorkers(scenarios: Scenario[]): Promise<void> {
	const jobs: Array<Promise<void>> = [];
	for (const sc of scenarios.filter((x) => x.processes !== undefined)) {
		for (const kind of ['new', 'baseline'] as const) {
			jobs.push(
				Promise.all(Array.from({ length: sc.processes ?? 1 }, () => forkWorker(kind))).then((list) => {
					workers.set(`${sc.part}|${kind}`, list);
				}),
			);
		}
	}
	const count = scenarios.reduce((sum, sc) => sum + 2 * (sc.processes ?? 0), 0);
	if (count === 0) return;
	log(`1. S6: forking ${count} node processes (scripts/bench-process.ts), before any measured run`);
	const started = performance.now();
	await Promise.all(jobs);
	log(`1. S6: ${count} node processes ready in ${sec(performance.now() - started)}`);
}

/** Tells every worker to exit and waits until they have (at most 3 s, then SIGKILL): the next scenario runs on a quiet machine. */
export async function stopWorkers(): Promise<void> {
	const exits: Array<Promise<void>> = [];
	for (const list of workers.values()) {
		for (const child of list) {
			if (child.exitCode !== null || child.signalCode !== null) continue;
			exits.push(
				new Promise<void>((resolve) => {
					const timer = setTimeout(() => {
						if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
						resolve();
					}, 3000);
					child.once('exit', () => {
						clearTimeout(timer);
						resolve();
					});
				}),
			);
			if (child.connected) child.send({ type: 'exit' } satisfies ToChild);
		}
	}
	workers.clear();
	await Promise.all(exits);
}

/** S6: every process of the way starts its executions on one 'go'; the wall time runs from the go to the last process's end. */
export function processesWay(kind: NodeKind, concurrency: number | undefined) {
	return async (sb: Sandbox, scenario: Scenario): Promise<RunOutcome> => {
		const list = workers.get(`${scenario.part}|${kind}`);
		if (!list) throw new Error(`no worker processes for ${scenarioKey(scenario)} (${kind})`);
		const outcomes = await Promise.all(
			list.map((child, p) =>
				runOnWorker(child, {
					baseUrl: sb.baseUrl,
					apiKey: sb.keys.full,
					executions: scenario.executions ?? 1,
					items: itemsPerExecution(scenario),
					concurrency,
					label: `${scenarioKey(scenario)} process ${p + 1}`,
				}),
			),
		);
		return outcomeOf(outcomes.flat());
	};
}
