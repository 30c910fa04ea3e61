/**
 * The JSON reports of the test runners, read into one shape for CI's totals:
 * jest's `--json --outputFile` report (numPassedTests, numFailedTests, …) and
 * @playwright/test's JSON reporter (stats.expected, unexpected, flaky, skipped).
 * A report that is missing, unreadable, of no known kind, or in which no test
 * ran counts as one failure: a run that proves nothing must not pass.
 */
import * as fs from 'node:fs';

/** The totals of one report. */
export interface ReportTotals {
	/** The suite's name (the report's file name without .json). */
	name: string;
	kind: 'jest' | 'playwright' | 'missing' | 'unreadable';
	passed: number;
	failed: number;
	skipped: number;
	/** Playwright's flaky tests: passed on a retry (counted in `passed` too). */
	flaky: number;
	/** True when the run passed: no failure, at least one test, no error outside the tests. */
	ok: boolean;
	/** Why it failed outside its tests (a file that did not load, a global error, no test, no report…). */
	notes: string[];
}

/** The parts of jest's JSON report read here. */
interface JestReport {
	numPassedTests: number;
	numFailedTests: number;
	numPendingTests?: number;
	numTodoTests?: number;
	numTotalTests: number;
	numRuntimeErrorTestSuites?: number;
	success?: boolean;
	wasInterrupted?: boolean;
	testResults?: { name?: string; testFilePath?: string; status?: string; message?: string; failureMessage?: string | null; testExecError?: { message?: string } }[];
}

/** The parts of @playwright/test's JSON report read here. */
interface PlaywrightReport {
	stats: { expected: number; unexpected: number; flaky: number; skipped: number };
	errors?: { message?: string }[];
}

function isJest(r: unknown): r is JestReport {
	return typeof r === 'object' && r !== null && typeof (r as JestReport).numTotalTests === 'number' && typeof (r as JestReport).numFailedTests === 'number';
}

function isPlaywright(r: unknown): r is PlaywrightReport {
	const stats = (r as PlaywrightReport | null)?.stats;
	return typeof stats === 'object' && stats !== null && typeof stats.expected === 'number' && typeof stats.unexpected === 'number';
}

function firstLine(text: string | undefined | null): string {
	return (text ?? '').trim().split('\n')[0].slice(0, 200);
}

/** Totals of a parsed report (`name` names the suite in the output). */
export function totalsOf(name: string, report: unknown): ReportTotals {
	const notes: string[] = [];
	if (isJest(report)) {
		const files = report.testResults ?? [];
		const runtimeErrors = report.numRuntimeErrorTestSuites ?? 0;
		for (const t of files.filter((x) => x.testExecError)) notes.push(`${t.name ?? 'a test file'} did not run: ${firstLine(t.testExecError?.message)}`);
		if (report.wasInterrupted) notes.push('the run was interrupted');
		if (report.numTotalTests === 0) notes.push('no test ran');
		// A test file that did not run, a run with no test, an interrupted run: one failure more each.
		let failed = report.numFailedTests + runtimeErrors + (report.numTotalTests === 0 ? 1 : 0) + (report.wasInterrupted ? 1 : 0);
		if (failed === 0 && report.success === false) {
			// Every test passed, yet jest failed the run: an error outside the tests (afterAll, an open handle…).
			failed = 1;
			const failedFiles = files.filter((x) => x.status === 'failed');
			notes.push(`jest failed the run outside its tests${failedFiles.length ? `: ${failedFiles.map((f) => `${f.name ?? '?'}: ${firstLine(f.failureMessage ?? f.message)}`).join('; ')}` : ''}`);
		}
		return {
			name,
			kind: 'jest',
			passed: report.numPassedTests,
			failed,
			skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
			flaky: 0,
			ok: failed === 0,
			notes,
		};
	}
	if (isPlaywright(report)) {
		const { expected, unexpected, flaky, skipped } = report.stats;
		const errors = report.errors ?? [];
		for (const e of errors.slice(0, 3)) notes.push(`error outside the tests: ${firstLine(e.message)}`);
		if (expected + unexpected + flaky === 0) notes.push('no test ran');
		const extra = errors.length + (expected + unexpected + flaky === 0 ? 1 : 0);
		if (flaky > 0) notes.push(`${flaky} flaky (passed on a retry)`);
		return { name, kind: 'playwright', passed: expected + flaky, failed: unexpected + extra, skipped, flaky, ok: unexpected + extra === 0, notes };
	}
	return { name, kind: 'unreadable', passed: 0, failed: 1, skipped: 0, flaky: 0, ok: false, notes: ['neither a jest nor a Playwright JSON report'] };
}

/** Totals of a report file; a missing or unreadable file is one failure. */
export function readReport(name: string, file: string): ReportTotals {
	if (!fs.existsSync(file)) return { name, kind: 'missing', passed: 0, failed: 1, skipped: 0, flaky: 0, ok: false, notes: [`no report (${file})`] };
	let parsed: unknown;
	try {
		parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (error) {
		return { name, kind: 'unreadable', passed: 0, failed: 1, skipped: 0, flaky: 0, ok: false, notes: [`unreadable report ${file}: ${error instanceof Error ? error.message : String(error)}`] };
	}
	return totalsOf(name, parsed);
}

/** One line per suite, then the grand total; `ok` when every suite is. */
export function summarize(totals: ReportTotals[]): { lines: string[]; ok: boolean; passed: number; failed: number; skipped: number } {
	const lines: string[] = [];
	const width = Math.max(5, ...totals.map((t) => t.name.length));
	for (const t of totals) {
		const counts = `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
		lines.push(`${t.ok ? '✓' : '✗'} ${t.name.padEnd(width)}  ${counts}${t.kind === 'missing' || t.kind === 'unreadable' ? '' : ` (${t.kind})`}`);
		for (const n of t.notes) lines.push(`  ${' '.repeat(width)}  ${n}`);
	}
	const passed = totals.reduce((n, t) => n + t.passed, 0);
	const failed = totals.reduce((n, t) => n + t.failed, 0);
	const skipped = totals.reduce((n, t) => n + t.skipped, 0);
	const ok = totals.length > 0 && totals.every((t) => t.ok);
	lines.push(`${ok ? '✓' : '✗'} ${'total'.padEnd(width)}  ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} in ${totals.length} suites`);
	return { lines, ok, passed, failed, skipped };
}
