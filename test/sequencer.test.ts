/** The files test/setup/sequencer.js puts first exist: a file moved or renamed must be named anew there. */
import fs from 'node:fs';
import path from 'node:path';

const { SLOWEST } = jest.requireActual<{ SLOWEST: Record<string, number> }>('./setup/sequencer.js');

test('every file the sequencer puts first exists', () => {
	const root = path.join(__dirname, '..');
	expect(Object.keys(SLOWEST).filter((f) => !fs.existsSync(path.join(root, f)))).toEqual([]);
});
