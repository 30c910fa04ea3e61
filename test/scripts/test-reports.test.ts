/**
 * scripts/lib/test-reports.ts: CI's totals from jest's and Playwright's JSON reports.
 * The report objects below carry the fields those runners write (jest 30 `--json`,
 * @playwright/test 1.65 json reporter); a report that proves nothing is a failure.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readReport, summarize, totalsOf } from '../../scripts/lib/test-reports';

function jestReport(overrides: Record<string, unknown> = {}) {
	return {
		numFailedTestSuites: 0,
		numFailedTests: 0,
		numPassedTestSuites: 1,
		numPassedTests: 5,
		numPendingTestSuites: 0,
		numPendingTests: 0,
		numRuntimeErrorTestSuites: 0,
		numTodoTests: 0,
		numTotalTestSuites: 1,
		numTotalTests: 5,
		success: true,
		wasInterrupted: false,
		testResults: [{ name: '/repo/test/verify/n8n.test.ts', status: 'passed', message: '', assertionResults: [] }],
		...overrides,
	};
}

function playwrightReport(stats: Record<string, number>, errors: { message: string }[] = []) {
	return { config: {}, suites: [], errors, stats: { startTime: '2026-11-25T12:52:25.122Z', duration: 3297.9, expected: 0, skipped: 0, unexpected: 0, flaky: 0, ...stats } };
}

describe('jest reports', () => {
	it('counts passed, failed and skipped tests', () => {
		expect(totalsOf('jest', jestReport({ numPassedTests: 4, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1, numTotalTests: 8, success: false }))).toEqual({
			name: 'jest',
			kind: 'jest',
			passed: 4,
			failed: 1,
			skipped: 3,
			flaky: 0,
			ok: false,
			notes: [],
		});
		expect(totalsOf('jest', jestReport())).toMatchObject({ passed: 5, failed: 0, ok: true });
	});

	it('counts a test file that did not run as a failure, and says why', () => {
		const t = totalsOf(
			'queue',
			jestReport({
				numPassedTests: 3,
				numTotalTests: 3,
				numRuntimeErrorTestSuites: 1,
				success: false,
				testResults: [{ name: '/repo/test/e2e/queue/queue.test.ts', status: 'failed', testExecError: { message: 'Cannot find module x\nstack' } }],
			}),
		);
		expect(t).toMatchObject({ passed: 3, failed: 1, ok: false });
		expect(t.notes).toEqual(['/repo/test/e2e/queue/queue.test.ts did not run: Cannot find module x']);
	});

	it('fails a run with no test, an interrupted run, and a run jest failed outside its tests', () => {
		expect(totalsOf('e2e-n8n', jestReport({ numPassedTests: 0, numTotalTests: 0 }))).toMatchObject({ failed: 1, ok: false, notes: ['no test ran'] });
		expect(totalsOf('e2e-n8n', jestReport({ wasInterrupted: true, success: false }))).toMatchObject({ passed: 5, failed: 1, ok: false, notes: ['the run was interrupted'] });
		const afterAll = totalsOf('registry', jestReport({ success: false, testResults: [{ name: 'r.test.ts', status: 'failed', failureMessage: 'afterAll: n8n did not stop\n at…' }] }));
		expect(afterAll).toMatchObject({ passed: 5, failed: 1, ok: false });
		expect(afterAll.notes).toEqual(['jest failed the run outside its tests: r.test.ts: afterAll: n8n did not stop']);
	});
});

describe('Playwright reports', () => {
	it('counts expected as passed, unexpected as failed, flaky as passed (and says so), skipped apart', () => {
		expect(totalsOf('browser', playwrightReport({ expected: 1, unexpected: 2, skipped: 1 }))).toMatchObject({ kind: 'playwright', passed: 1, failed: 2, skipped: 1, ok: false });
		const flaky = totalsOf('browser', playwrightReport({ expected: 10, flaky: 1 }));
		expect(flaky).toMatchObject({ passed: 11, failed: 0, flaky: 1, ok: true, notes: ['1 flaky (passed on a retry)'] });
	});

	it('fails a run with an error outside the tests or with no test', () => {
		const none = totalsOf('browser', playwrightReport({}, [{ message: 'Error: No tests found' }]));
		expect(none).toMatchObject({ passed: 0, failed: 2, ok: false });
		expect(none.notes).toEqual(['error outside the tests: Error: No tests found', 'no test ran']);
		expect(totalsOf('browser', playwrightReport({ expected: 11 }, [{ message: 'Error: globalSetup failed\n at …' }]))).toMatchObject({ passed: 11, failed: 1, ok: false });
	});
});

describe('report files and the summary', () => {
	let dir: string;
	beforeAll(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-reports-'));
		fs.writeFileSync(path.join(dir, 'jest.json'), JSON.stringify(jestReport({ numPassedTests: 700, numTotalTests: 700 })));
		fs.writeFileSync(path.join(dir, 'browser.json'), JSON.stringify(playwrightReport({ expected: 11 })));
		fs.writeFileSync(path.join(dir, 'broken.json'), '{"numTotalTests": 3,');
		fs.writeFileSync(path.join(dir, 'other.json'), '{"results": []}');
	});
	afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('reads each kind, and counts a missing, unreadable or unknown report as one failure', () => {
		expect(readReport('jest', path.join(dir, 'jest.json'))).toMatchObject({ kind: 'jest', passed: 700, failed: 0, ok: true });
		expect(readReport('browser', path.join(dir, 'browser.json'))).toMatchObject({ kind: 'playwright', passed: 11, ok: true });
		expect(readReport('queue', path.join(dir, 'queue.json'))).toMatchObject({ kind: 'missing', passed: 0, failed: 1, ok: false });
		expect(readReport('broken', path.join(dir, 'broken.json'))).toMatchObject({ kind: 'unreadable', failed: 1, ok: false });
		expect(readReport('other', path.join(dir, 'other.json'))).toMatchObject({ kind: 'unreadable', failed: 1, ok: false });
	});

	it('prints one line per suite and the grand total', () => {
		const all = summarize(['jest', 'browser', 'queue'].map((n) => readReport(n, path.join(dir, `${n}.json`))));
		expect(all.ok).toBe(false);
		expect(all.lines).toEqual([
			'✓ jest     700 passed, 0 failed (jest)',
			'✓ browser  11 passed, 0 failed (playwright)',
			'✗ queue    0 passed, 1 failed',
			`           no report (${path.join(dir, 'queue.json')})`,
			'✗ total    711 passed, 1 failed in 3 suites',
		]);
		expect(summarize([readReport('jest', path.join(dir, 'jest.json'))])).toMatchObject({ ok: true, passed: 700, failed: 0 });
		expect(summarize([]).ok).toBe(false);
	});
});
