/**
 * S6's way: three node processes on one key (scripts/bench-process.ts, forked by forkWorker), each running its
 * executions, all started on one go; the processes of every S6 way are forked before any measured run and held
 * here until the run, then told to exit.
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Sandbox } from '../../sandbox/server';
import type { NodeKind } from './bench-executions';
import { log, sec } from './bench-format';
import { itemsPerExecution, outcomeOf, scenarioKey, type RunOutcome, type Scenario } from './bench-scenarios';
import { forkWorker, runOnWorker } from './bench-workers';
import type { ToChild } from '../bench-process';

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
