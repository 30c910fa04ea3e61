/**
 * `npm run test:e2e`: the end-to-end workflows in real n8n, one test file per
 * n8n runtime (n8n-<version>[-<variant>].test.ts, each the suite of suite.ts).
 * `npm run test:e2e -- 2.8.4` runs the files whose path matches (jest's own filter).
 */
const { e2eProject } = require('../jest.base.js');

module.exports = e2eProject('n8n', {
	// Both runtimes are installed first, one at a time: each install uses both cores.
	globalSetup: '<rootDir>/test/e2e/n8n/global-setup.ts',
	// The three files run side by side, each in its own worker with its own n8n, sandbox
	// and ports: they mostly wait for n8n's minute-long polls, so together they take
	// about as long as one. The steps inside a file still run in order.
	maxWorkers: 3,
	// jest's node environment, plus Ctrl-C stopping the n8n processes a file started.
	testEnvironment: '<rootDir>/test/e2e/n8n/environment.ts',
});
