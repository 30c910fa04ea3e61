/**
 * The order of npm test's files. Jest runs the files that took longest in its last run first, but with no
 * timings cached (a fresh clone, CI) it orders them by size, and some of the slowest are small: the grid on
 * virtual time (5 KB) started last and ran alone at the end, 28 s of a 158 s run on a busy machine. Without
 * timings, the files below go first, slowest first (mean seconds of two runs of npm test from an empty jest
 * cache on 2 cores, 2026-11-27, after swc and the soaks' move: the first two also carry most of the transforms), then
 * the others by size, as jest has them. Once jest has timings of its own, its order stands.
 */
'use strict';
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST = {
	'test/integration/paging-conventions.sandbox.test.ts': 11.1,
	'test/n8n/nodes/PostWriterTrigger/newPublishedPost.test.ts': 9.7,
	'test/zapier/dedupe.test.ts': 7.2,
	'test/zapier/sandbox.integration.test.ts': 6.7,
	'test/sandbox/sandbox.test.ts': 4.4,
	'test/integration/record-shapes.sandbox.test.ts': 3.8,
	'test/n8n/nodes/PostWriterTrigger/newDraft.test.ts': 3.3,
	'test/record-shapes.test.ts': 3.2,
	'test/n8n/nodes/PostWriterTrigger/postMetricMilestone.test.ts': 3.0,
	'test/integration/client-sandbox.test.ts': 2.7,
	'test/integration/paging-stalls.sandbox.test.ts': 2.5,
	'test/load.test.ts': 2.4,
	'test/error-bodies.test.ts': 2.4,
	'test/zapier/dropdowns.test.ts': 2.3,
};
const ROOT = path.resolve(__dirname, '../..');

class SlowestFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		if (sorted.some((t) => t.duration != null)) return sorted;
		const seconds = (t) => SLOWEST[path.relative(ROOT, t.path).split(path.sep).join('/')] ?? 0;
		// A stable sort: the files not listed keep jest's order by size.
		return [...sorted].sort((a, b) => seconds(b) - seconds(a));
	}
}

module.exports = SlowestFirst;
module.exports.SLOWEST = SLOWEST;
