/** Unit and integration tests; the real-runtime e2e runs through `npm run test:e2e`. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } }] },
	testTimeout: 30000,
	maxWorkers: 2,
};
