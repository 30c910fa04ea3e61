/**
 * The order of npm test's files. Jest runs the files that took longest in its last run first, but with no
 * timings cached (a fresh clone, CI) it orders them by size, and some of the slowest are small: the grid on
 * virtual time (5 KB) started last and ran alone at the end, 28 s of a 158 s run on a busy machine. Without
 * timings, the files below go first, slowest first (mean seconds of three runs of npm test on 2 cores, busy
 * with other work, 2026-11-27), then the others by size, as jest has them. Once jest has timings of its own,
 * its order stands.
 */
'use strict';
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST = {
	'test/integration/paging-conventions.sandbox.test.ts': 22.9,
	'test/n8n/nodes/PostWriterTrigger/newPublishedPost.test.ts': 22.7,
	'test/shared/triggers/events.test.ts': 17.8,
	'test/zapier/dedupe.test.ts': 14.6,
	'test/sandbox/sandbox.test.ts': 12.6,
	'test/n8n/nodes/PostWriterTrigger/upcomingScheduledDraft.test.ts': 11.2,
	'test/integration/record-shapes.sandbox.test.ts': 9.8,
	'test/integration/client-sandbox.test.ts': 9.4,
	'test/shared/triggers/published-upcoming-state.test.ts': 9.2,
	'test/zapier/sandbox.integration.test.ts': 8.4,
	'test/n8n/nodes/PostWriterTrigger/newDraft.test.ts': 8.4,
	'test/n8n/description-lint.test.ts': 7.6,
	'test/n8n/nodes/PostWriterTrigger/postMetricMilestone.test.ts': 7.3,
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
