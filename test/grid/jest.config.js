/**
 * The statistical sweep (npm run test:grid), run on its own, not by `npm test`: S8's three-process cases over
 * 30 seeds on virtual time (test/grid/pacing-grid-runs.test.ts), about 30 s of one core's time in one file
 * (over a minute when the machine is busy: 73 s of `npm test`'s 162 s before it moved here).
 * CI runs it as a step of its own and totals its report (.ci/run: grid.json).
 */
const path = require('node:path');
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	roots: ['<rootDir>/test/grid'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	// One file: one worker.
	maxWorkers: 1,
};
