/**
 * The long grids on virtual time (npm run test:grid), run on their own, not by `npm test` (which stays under a
 * minute): S8's grid, every case against its targets (test/grid/pacing-grid.test.ts, about 16 s), and the
 * statistical sweep of its three-process cases over 30 seeds (test/grid/pacing-grid-runs.test.ts, about 30 s
 * of one core; 73 s of `npm test`'s 162 s before it moved here). CI runs them as a step of its own and totals
 * its report (.ci/run: grid.json).
 */
const path = require('node:path');
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	roots: ['<rootDir>/test/grid'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	// Two files: two workers.
	maxWorkers: 2,
};
