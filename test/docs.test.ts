/** The README's operation reference is the one generated from the code (scripts/docs-operations.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { withTable } from '../scripts/docs-operations';

test('README.md holds the generated operation table (run: npm run docs)', () => {
	const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
	expect(readme).toBe(withTable(readme));
});
