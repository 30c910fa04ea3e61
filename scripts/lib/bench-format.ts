/**
 * What every part of the bench prints with: its log line on stderr, the figures' units, the Markdown table of
 * its reports, and the machine it ran on.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** A progress line on stderr: stdout holds the report and, last, the machine-readable summary. */
export function log(line: string): void {
	process.stderr.write(`[bench] ${line}\n`);
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export function table(head: string[], rows: Array<Array<string | number>>): string {
	const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
	for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
	return lines.join('\n');
}

/** A section of the bench's report: its Markdown and its targets ([target, measured, verdict]). */
export interface BenchSection {
	section: string;
	targets: string[][];
}

export const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first `max` distinct messages. */
export function firstMessages(messages: string[], max = 2): string[] {
	return [...new Set(messages)].slice(0, max);
}

/** The machine, for the report's head: a figure means little without it. */
export function machine() {
	const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
	const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
	let nproc = String(cpus().length);
	try {
		nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
	} catch {
		/* cpus().length */
	}
	return {
		nproc,
		memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
		node: process.version,
		cpu: model,
		platform: `${process.platform} ${process.arch}`,
		load: loadavg()
			.map((x) => x.toFixed(2))
			.join(' / '),
	};
}
