/**
 * The verification projects, run on their own (not by `npm test`): each check is
 * one test, so that CI totals them from jest's JSON report.
 *   npm run verify:n8n          test/verify/n8n.test.ts: what n8n's verification scanner checks, on the built package
 *   npm run validate:workflows  test/verify/workflows.test.ts: the GitHub workflows, offline, one test per file
 */
const path = require('node:path');

module.exports = {
	rootDir: path.resolve(__dirname, '../..'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/verify'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } }] },
	// The n8n checks run in one child process (beforeAll) that packs, scans and lints: minutes on a busy machine.
	testTimeout: 10 * 60_000,
	maxWorkers: 1,
	verbose: true,
};
