/**
 * The base of every end-to-end jest project (test/e2e/<suite>/jest.config.js):
 * real runtimes (n8n, Zapier's CLI, PostgreSQL, Redis, verdaccio), so each
 * project runs its files one after another (maxWorkers 1: runInBand without the
 * flag), with long timeouts, and never on `npm test` (the root config ignores
 * test/e2e/). CI passes `--json --outputFile=<file>` and reads the report.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

/** A project for the suite in test/e2e/<dir>; `overrides` are merged in. */
function e2eProject(dir, overrides = {}) {
	return {
		rootDir: ROOT,
		displayName: dir,
		testEnvironment: 'node',
		roots: [`<rootDir>/test/e2e/${dir}`],
		testMatch: ['**/*.test.ts'],
		transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } }] },
		// One check is one test; the steps they share run in beforeAll, which can take minutes (installs, n8n start, polls).
		testTimeout: 20 * 60_000,
		maxWorkers: 1,
		// A failed step must not hide the checks after it: every test still reports, then the suite fails.
		bail: 0,
		verbose: true,
		...overrides,
	};
}

module.exports = { ROOT, e2eProject };
