/**
 * Steps that run as written. For every shell block and inline command of the docs (README.md, CONTRIBUTING.md,
 * docs/*.md, and the pages of n8n/, sandbox/ and zapier/): every `npm run X` (and `npm start`, `npm test`) names a
 * script of the package.json of the folder the step runs in, following the reader's `cd`s
 * (scripts/lib/markdown-commands.ts); every path of the repository the docs name exists; every section of another
 * document named in the prose (`the README, "Section"`) is a heading there.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { githubSlug, anchorsOf } from '../../scripts/lib/markdown-links';
import { namedSections, repoPaths, scriptSteps, scriptsOf } from '../../scripts/lib/markdown-commands';
import { ALL_MARKDOWN, ROOT, read } from './files';

const scriptsCache = new Map<string, Record<string, string> | undefined>();
function scriptsIn(dir: string): Record<string, string> | undefined {
	if (!scriptsCache.has(dir)) {
		const file = join(ROOT, dir, 'package.json');
		scriptsCache.set(dir, existsSync(file) ? ((JSON.parse(read(join(dir, 'package.json'))) as { scripts?: Record<string, string> }).scripts ?? {}) : undefined);
	}
	return scriptsCache.get(dir);
}

test.each(ALL_MARKDOWN)('every npm script %s runs is in the package.json of the folder it runs in', (file) => {
	const wrong = scriptSteps(read(file))
		.filter((step) => step.dir !== null)
		.map((step) => ({ line: step.line, command: step.command, folder: step.dir || '.', found: scriptsIn(step.dir as string)?.[step.script] !== undefined }))
		.filter((step) => !step.found);
	expect(wrong).toEqual([]);
});

test('the docs run the scripts that matter: the two commands, and the checks of a release', () => {
	const ran = ALL_MARKDOWN.flatMap((file) => scriptSteps(read(file)).map((s) => `${s.dir} ${s.script}`));
	expect(ran).toEqual(expect.arrayContaining([' start', ' test', ' docs', ' bench', ' test:zapier-cli', 'zapier build']));
});

/** The changelog names files as they were when each entry was written: history, not steps. */
const CURRENT = ALL_MARKDOWN.filter((file) => file !== 'CHANGELOG.md');

test.each(CURRENT)('every path of the repository %s names exists', (file) => {
	const missing = repoPaths(read(file)).filter(({ path }) => !existsSync(join(ROOT, path)));
	expect(missing).toEqual([]);
});

test.each(ALL_MARKDOWN)('every section of another document %s names in its prose is a heading there', (file) => {
	const broken = namedSections(read(file))
		.map((ref) => ({ ...ref, found: existsSync(join(ROOT, ref.doc)) && anchorsOf(read(ref.doc)).has(githubSlug(ref.heading)) }))
		.filter((ref) => !ref.found);
	expect(broken).toEqual([]);
});

describe('the reader follows the cd of the steps', () => {
	test('a block that goes into a folder runs its scripts there, and leaves the reader there for the rest of the section', () => {
		const md = ['## Release', '```bash', 'cd zapier && npm version 1.0.0', '```', 'Then `npm run build && npm run test:zapier-cli`.', '## Next', '`npm run test:zapier-cli`'].join('\n');
		expect(scriptSteps(md).map((s) => [s.dir, s.script, s.line])).toEqual([
			['zapier', 'build', 5],
			['zapier', 'test:zapier-cli', 5],
			['', 'test:zapier-cli', 7],
		]);
	});

	test('parentheses keep their cd, `cd ..` goes back, --prefix and --workspace send a script to their folder', () => {
		expect(scriptsOf('(cd zapier && npm ci) && npm run build', '', 1).steps.map((s) => s.dir)).toEqual(['']);
		expect(scriptsOf('cd zapier\nnpm run build\ncd ..\nnpm run test:zapier-cli', '', 1).steps.map((s) => [s.dir, s.script])).toEqual([
			['zapier', 'build'],
			['', 'test:zapier-cli'],
		]);
		expect(scriptsOf('npm run build --workspace n8n && npm --prefix zapier run build # comment: npm run nothing', '', 1).steps.map((s) => [s.dir, s.script])).toEqual([
			['n8n', 'build'],
			['zapier', 'build'],
		]);
		expect(scriptsOf('npm start -- --n8n=oldest && npm test', '', 1).steps.map((s) => s.script)).toEqual(['start', 'test']);
	});

	test('paths with braces are each checked; made files and placeholders are not paths', () => {
		expect(repoPaths('`scripts/n8n-runtime/{oldest,newest}/package.json` `n8n/dist/` `<cache>/x` `zapier/.zapierapprc` `docs/images/`').map((p) => p.path)).toEqual([
			'scripts/n8n-runtime/oldest/package.json',
			'scripts/n8n-runtime/newest/package.json',
			'docs/images',
		]);
	});

	test('a section named in prose is found', () => {
		expect(namedSections('as the README, "Two commands" says; CONTRIBUTING.md\'s "Layout"').map((s) => [s.doc, s.heading])).toEqual([
			['README.md', 'Two commands'],
			['CONTRIBUTING.md', 'Layout'],
		]);
	});
});
