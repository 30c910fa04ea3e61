/**
 * One node process of the bench's S6 and S8 (several processes on one key),
 * forked by forkWorker (scripts/lib/bench-workers.ts) with IPC and run with ts-node (--transpile-only, TypeScript
 * extensions preferred): its own module instance, as a queue-mode worker is.
 *
 *   argv: <new | baseline>
 *   → {type: 'ready'} once its modules are loaded (ts-node's start-up is not timed);
 *   ← {type: 'go', spec: ExecutionsSpec}: runs the executions, all started together;
 *   → {type: 'done', outcomes: ExecutionOutcome[], wallMs} (or {type: 'error', message});
 *   ← {type: 'exit'} or the parent gone: exits.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadNode, runExecutions } from './lib/bench-executions';
import type { ExecutionsSpec, NodeKind } from './lib/bench-executions';

const ROOT = join(__dirname, '..');

export type ToChild = { type: 'go'; spec: ExecutionsSpec } | { type: 'exit' };
export type FromChild =
	| { type: 'ready'; pid: number }
	| { type: 'done'; outcomes: Awaited<ReturnType<typeof runExecutions>>; wallMs: number }
	| { type: 'error'; message: string };

function send(message: FromChild): void {
	process.send?.(message);
}

function main(): void {
	const kind = process.argv[2] as NodeKind;
	if (kind !== 'new' && kind !== 'baseline') throw new Error(`bench-process: expected new or baseline, got ${String(kind)}`);
	if (!process.send) throw new Error('bench-process: run it with fork() (an IPC channel)');
	const Node = loadNode(kind, ROOT);
	process.on('message', (message: ToChild) => {
		if (message.type === 'exit') {
			process.disconnect?.();
			process.exit(0);
		}
		if (message.type === 'go') {
			const started = performance.now();
			runExecutions(Node, message.spec).then(
				(outcomes) => send({ type: 'done', outcomes, wallMs: performance.now() - started }),
				(e: unknown) => send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
			);
		}
	});
	process.on('disconnect', () => process.exit(0));
	send({ type: 'ready', pid: process.pid });
}

try {
	main();
} catch (e) {
	process.stderr.write(`[bench-process] ${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
}
