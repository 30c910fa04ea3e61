/**
 * Runs end-to-end suites side by side, each a command with its output in its
 * own log file, at most `concurrency` at a time. Most of a suite's time is spent
 * waiting for n8n's minute-long poll intervals, so running them together
 * shortens CI without loading the machine much. Each suite's log is printed
 * whole when it ends, with its time; a suite that does not end within its
 * `timeoutMs` is killed with its process group and counts as failed.
 * Result lines ("<label>: N passed, M failed") a suite prints are shown in the
 * table too; the totals of CI come from the suites' JSON reports (test-reports.ts).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { say } from './paths';

const RESULT_LINE = /^([^\n:]+): (\d+) passed, (\d+) failed\b/gm;

/** A suite to run. */
export interface Suite {
	name: string;
	command: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
	/** Killed with its process group after this long (default 30 minutes). */
	timeoutMs?: number;
}

/** A "<label>: N passed, M failed" line. */
export interface ResultLine {
	label: string;
	passed: number;
	failed: number;
}

/** How a suite ended. */
export interface SuiteResult {
	name: string;
	/** Its exit code; 124 when it was killed over its time limit. */
	code: number | null;
	seconds: number;
	logFile: string;
	/** The result lines of its log. */
	results: ResultLine[];
}

/** Options of runSuites. */
export interface RunSuitesOptions {
	/** Where <name>.log is written. */
	outDir: string;
	concurrency?: number;
	/** The start of the run, for the "started at t+Ns" lines. */
	started?: number;
}

/** The result lines of a log, the last one per label. */
export function resultLines(text: string): ResultLine[] {
	const byLabel = new Map<string, ResultLine>();
	for (const m of text.matchAll(RESULT_LINE)) byLabel.set(m[1], { label: m[1], passed: Number(m[2]), failed: Number(m[3]) });
	return [...byLabel.values()];
}

/** Runs the suites, at most `concurrency` at a time; resolves their results in the order given. */
export async function runSuites(suites: Suite[], { outDir, concurrency = 3, started = Date.now() }: RunSuitesOptions): Promise<SuiteResult[]> {
	fs.mkdirSync(outDir, { recursive: true });
	const queue = suites.map((s, index) => ({ ...s, index }));
	const done: SuiteResult[] = [];
	const running = new Set<Promise<void>>();
	const children = new Set<number>();
	const stopAll = (): void => {
		for (const pid of children) {
			try {
				process.kill(-pid, 'SIGTERM');
			} catch {
				// already gone
			}
		}
	};
	process.once('SIGINT', stopAll);
	process.once('SIGTERM', stopAll);
	const runOne = (suite: Suite): Promise<SuiteResult> =>
		new Promise((resolve) => {
			const logFile = path.join(outDir, `${suite.name}.log`);
			const out = fs.openSync(logFile, 'w');
			const t0 = Date.now();
			say(`[${suite.name}] started at t+${Math.round((t0 - started) / 1000)}s: ${[suite.command, ...suite.args].join(' ')}`);
			const child = spawn(suite.command, suite.args, { env: { ...process.env, ...suite.env }, stdio: ['ignore', out, out], detached: true });
			const pid = child.pid as number;
			children.add(pid);
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				try {
					process.kill(-pid, 'SIGTERM');
					setTimeout(() => {
						try {
							process.kill(-pid, 'SIGKILL');
						} catch {
							// gone
						}
					}, 20_000).unref();
				} catch {
					// gone
				}
			}, suite.timeoutMs ?? 30 * 60_000);
			child.on('close', (code) => {
				clearTimeout(timer);
				children.delete(pid);
				fs.closeSync(out);
				const seconds = Math.round((Date.now() - t0) / 1000);
				const text = fs.readFileSync(logFile, 'utf8');
				const results = resultLines(text);
				say(`\n----- ${suite.name} (${seconds} s, exit ${code}${timedOut ? ', killed: over its time limit' : ''}) -----`);
				process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
				say(`----- end of ${suite.name} -----`);
				resolve({ name: suite.name, code: timedOut ? 124 : code, seconds, logFile, results });
			});
		});
	await new Promise<void>((resolveAll) => {
		const pump = (): void => {
			if (queue.length === 0 && running.size === 0) return resolveAll();
			while (running.size < concurrency && queue.length > 0) {
				const suite = queue.shift() as Suite & { index: number };
				const p: Promise<void> = runOne(suite).then((r) => {
					done[suite.index] = r;
					running.delete(p);
					pump();
				});
				running.add(p);
			}
		};
		pump();
	});
	process.removeListener('SIGINT', stopAll);
	process.removeListener('SIGTERM', stopAll);
	return done;
}

/**
 * Prints a table of the suites: time, exit code, and the result lines a suite
 * printed, if any. Returns true when every suite exited 0 and no result line
 * counts a failure. (CI's totals come from the suites' JSON reports, not from here.)
 */
export function report(results: SuiteResult[]): boolean {
	let ok = true;
	say('\nsuite results:');
	for (const r of results) {
		const lines = r.results.map((x) => `${x.label}: ${x.passed} passed, ${x.failed} failed`).join('; ');
		const good = r.code === 0 && r.results.every((x) => x.failed === 0);
		ok &&= good;
		say(`  ${good ? '✓' : '✗'} ${r.name} (${r.seconds} s, ${r.code === 124 ? 'killed over its time limit' : `exit ${r.code}`})${lines ? `: ${lines}` : ''}`);
	}
	return ok;
}
