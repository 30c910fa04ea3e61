/**
 * The soaks (npm run test:soak), run on their own, not by `npm test` (which stays under a minute on 2 cores):
 * the triggers over thousands of records and hundreds of polls, each beside the unit test of what it soaks
 * (`<name>.soak.test.ts`). CI runs them as a step of its own with its own report (.ci/run: soak.json).
 */
const path = require('node:path');
const base = require('../jest.config.js');

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '..'),
	testMatch: ['**/*.soak.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/chaos/', '<rootDir>/test/grid/'],
};
