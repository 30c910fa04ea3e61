/** Unit and integration tests; the real-runtime suites (test/e2e/) run through `npm run test:e2e` and the other `test:*` scripts. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The chaos suite (about a minute of real waits) runs on its own: npm run test:chaos; so do the
	// verification projects on the built package and the workflows (npm run verify:n8n, validate:workflows),
	// the statistical sweep of S8 over 30 seeds (npm run test:grid, about 30 s of one core), and the soaks of the
	// triggers over thousands of records, <name>.soak.test.ts beside their unit tests (npm run test:soak).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/chaos/', '<rootDir>/test/e2e/', '<rootDir>/test/verify/', '<rootDir>/test/grid/', '\\.soak\\.test\\.ts$'],
	// swc (types stripped; `npm run typecheck` checks them), then each module's own bindings of the builtins it uses:
	// a global lookup inside jest's vm context is slow (test/setup/transform.js).
	transform: { '^.+\\.ts$': '<rootDir>/test/setup/transform.js' },
	testTimeout: 30000,
	// async-context.ts first: it stops the async context of the files before this one from taxing every promise of it.
	setupFilesAfterEnv: ['<rootDir>/test/setup/async-context.ts', '<rootDir>/test/setup/pacers.ts', '<rootDir>/test/setup/zapier-memory-guard.ts'],
	// With no timings cached (a fresh clone), the slowest files first rather than the largest.
	testSequencer: '<rootDir>/test/setup/sequencer.js',
	// nock's interceptor is touched after jest's soft cleanup of globals between files; that cleanup only warns (JEST-01).
	testEnvironmentOptions: { globalsCleanup: 'off' },
	maxWorkers: 2,
};
