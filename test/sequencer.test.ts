/** The files test/setup/sequencer.js puts first exist: a file moved or renamed must be named anew there. */
import fs from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SLOWEST } = require('./setup/sequencer.js') as { SLOWEST: Record<string, number> };

test('every file the sequencer puts first exists', () => {
	const root = path.join(__dirname, '..');
	expect(Object.keys(SLOWEST).filter((f) => !fs.existsSync(path.join(root, f)))).toEqual([]);
});
