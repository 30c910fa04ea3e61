/**
 * The chaos suite (npm run test:chaos): the platforms' actions and triggers
 * against the sandbox's fault injection, the bad-input table, and the
 * capture of every output for the secret scan (scripts/secret-scan.ts).
 */
const path = require('node:path');
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	roots: ['<rootDir>/test/chaos'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	globalSetup: '<rootDir>/test/chaos/global-setup.ts',
	reporters: [['<rootDir>/test/chaos/log-reporter.js', { name: 'chaos' }], 'default'],
	testTimeout: 60000,
	// The suite mostly waits (Retry-After, backoff, held connections): 3 workers fit 2 cores.
	maxWorkers: 3,
};
