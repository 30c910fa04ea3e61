/**
 * Runs end-to-end suites side by side, each a command with its output in its
 * own log file, at most `concurrency` at a time. Most of a suite's time is spent
 * waiting for n8n's minute-long poll intervals, so running them together
 * shortens CI without loading the machine much. Each suite's log is printed
 * whole when it ends, with its time; a suite that does not end within its
 * `timeoutMs` is killed with its process group and counts as failed.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const RESULT_LINE = /^([^\n:]+): (\d+) passed, (\d+) failed\b/gm;

function say(message) {
	process.stdout.write(`${message}\n`);
}

/** The result lines of a log: [{ label, passed, failed }], the last one per label. */
function resultLines(text) {
	const byLabel = new Map();
	for (const m of text.matchAll(RESULT_LINE)) byLabel.set(m[1], { label: m[1], passed: Number(m[2]), failed: Number(m[3]) });
	return [...byLabel.values()];
}

/**
 * suites: [{ name, command, args, env?, timeoutMs? }]. Resolves
 * [{ name, code, seconds, logFile, results }] in the order given.
 */
async function runSuites(suites, { outDir, concurrency = 3, started = Date.now() }) {
	fs.mkdirSync(outDir, { recursive: true });
	const queue = suites.map((s, index) => ({ ...s, index }));
	const done = [];
	const running = new Set();
	const children = new Set();
	const stopAll = () => {
		for (const child of children) {
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				// already gone
			}
		}
	};
	process.once('SIGINT', stopAll);
	process.once('SIGTERM', stopAll);
	const runOne = (suite) =>
		new Promise((resolve) => {
			const logFile = path.join(outDir, `${suite.name}.log`);
			const out = fs.openSync(logFile, 'w');
			const t0 = Date.now();
			say(`[${suite.name}] started at t+${Math.round((t0 - started) / 1000)}s: ${[suite.command, ...suite.args].join(' ')}`);
			const child = spawn(suite.command, suite.args, { env: { ...process.env, ...suite.env }, stdio: ['ignore', out, out], detached: true });
			children.add(child);
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				try {
					process.kill(-child.pid, 'SIGTERM');
					setTimeout(() => {
						try {
							process.kill(-child.pid, 'SIGKILL');
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
				children.delete(child);
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
	await new Promise((resolveAll) => {
		const pump = () => {
			if (queue.length === 0 && running.size === 0) return resolveAll();
			while (running.size < concurrency && queue.length > 0) {
				const suite = queue.shift();
				const p = runOne(suite).then((r) => {
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

/** Prints a table of the suites; returns true when every suite exited 0 with a result line and no failure. */
function report(results) {
	let ok = true;
	say('\nsuite results:');
	for (const r of results) {
		const lines = r.results.map((x) => `${x.label}: ${x.passed} passed, ${x.failed} failed`).join('; ') || 'no result line';
		const good = r.code === 0 && r.results.length > 0 && r.results.every((x) => x.failed === 0);
		ok &&= good;
		say(`  ${good ? '✓' : '✗'} ${r.name} (${r.seconds} s): ${lines}`);
	}
	return ok;
}

module.exports = { runSuites, report, resultLines };
