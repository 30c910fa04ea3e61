/** Unit and integration tests; the real-runtime suites (test/e2e/) run through `npm run test:e2e` and the other `test:*` scripts. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The chaos suite (about a minute of real waits) runs on its own: npm run test:chaos; so do the
	// verification projects on the built package and the workflows (npm run verify:n8n, validate:workflows),
	// and the statistical sweep of S8 over 30 seeds (npm run test:grid, about 30 s of one core).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/chaos/', '<rootDir>/test/e2e/', '<rootDir>/test/verify/', '<rootDir>/test/grid/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } }] },
	testTimeout: 30000,
	setupFilesAfterEnv: ['<rootDir>/test/setup/pacers.ts'],
	// nock's interceptor is touched after jest's soft cleanup of globals between files; that cleanup only warns (JEST-01).
	testEnvironmentOptions: { globalsCleanup: 'off' },
	maxWorkers: 2,
	// A worker whose heap passed this after a file is replaced before the next. Zapier's core ends its process
	// (process.exit) once it has served 250 runs and holds more than 450 MB of RSS (KILL_MAX_LIMIT): a worker
	// that ran many files reached that in test/zapier/dedupe.test.ts. 300 MB of heap keeps the RSS below it.
	workerIdleMemoryLimit: '300MB',
};
