/**
 * The steps a Markdown file asks its reader to run, for the docs' step check (test/docs/steps.test.ts): the
 * commands of its shell blocks and of its inline code spans, each with the folder it runs in, and the paths of
 * the repository it names.
 *
 * The folder follows the reader: a shell block starts where the last one of its section left the reader (the
 * repository's root after a heading), and `cd` moves it, line after line (`(cd x && …)` only for its own
 * parentheses); an inline command runs where the section's last block left the reader.
 */

/** One npm script a step runs: `npm run X`, `npm start`, `npm test`, with the folder whose package.json must have it. */
export interface ScriptStep {
	/** The folder, from the repository's root ('' for the root; null when the docs `cd` out of the repository or to a placeholder). */
	dir: string | null;
	script: string;
	/** The command as the docs write it. */
	command: string;
	/** 1-based line of the file. */
	line: number;
}

const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);
/** Inline code spans that are commands. */
const INLINE_COMMAND = /^(?:\(?cd |npm |npx )/;

/** A path joined the way `cd` moves: relative to `dir`, `..` going up; null outside the repository. */
function moved(dir: string | null, to: string | undefined): string | null {
	if (dir === null || to === undefined || to === '~' || /^[~/$<]/.test(to)) return null;
	const parts = dir === '' ? [] : dir.split('/');
	for (const part of to.replace(/\/+$/, '').split('/')) {
		if (part === '..') {
			if (parts.length === 0) return null;
			parts.pop();
		} else if (part !== '.' && part !== '') parts.push(part);
	}
	return parts.join('/');
}

/** The words of a command, quotes removed (no expansion). */
function words(command: string): string[] {
	return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The script an npm command runs, and the folder `--prefix` or `--workspace` sends it to. */
function npmScript(argv: string[], dir: string | null): { script: string; dir: string | null } | undefined {
	let where = dir;
	const rest: string[] = [];
	for (let i = 1; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--') break;
		if (a === '--prefix' || a === '--workspace' || a === '-w' || a === '-C') where = moved(dir, argv[++i]);
		else if (/^--(prefix|workspace)=/.test(a)) where = moved(dir, a.split('=')[1]);
		else if (!a.startsWith('-')) rest.push(a);
	}
	const [sub, name] = rest;
	if ((sub === 'run' || sub === 'run-script') && name) return { script: name, dir: where };
	if (sub === 'start' || sub === 'test' || sub === 't') return { script: sub === 't' ? 'test' : sub, dir: where };
	return undefined;
}

/**
 * The npm scripts of a shell text run from `dir`, and the folder the reader is left in. Commands are split on
 * newlines (a trailing `\` joins lines), `&&`, `||`, `;` and `|`; comments are dropped; a `(` … `)` keeps its `cd`s.
 */
export function scriptsOf(shell: string, dir: string | null, line: number): { steps: ScriptStep[]; dir: string | null } {
	const steps: ScriptStep[] = [];
	const stack: Array<string | null> = [];
	let here = dir;
	shell
		.replace(/\\\n/g, ' ')
		.split('\n')
		.forEach((text, i) => {
			const code = text.replace(/(^|\s)#.*$/, '');
			for (const raw of code.split(/&&|\|\||;|\|/)) {
				let command = raw.trim();
				while (command.startsWith('(')) {
					stack.push(here);
					command = command.slice(1).trim();
				}
				let closes = 0;
				while (command.endsWith(')') && stack.length > closes) {
					closes++;
					command = command.slice(0, -1).trim();
				}
				const argv = words(command);
				if (argv[0] === 'cd') here = moved(here, argv[1]);
				if (argv[0] === 'npm') {
					const found = npmScript(argv, here);
					if (found) steps.push({ ...found, command, line: line + i });
				}
				for (; closes > 0; closes--) here = stack.pop() ?? here;
			}
		});
	return { steps, dir: here };
}

/** Every npm script a Markdown file runs, its shell blocks and inline commands, each in the folder it runs in. */
export function scriptSteps(markdown: string): ScriptStep[] {
	const steps: ScriptStep[] = [];
	let dir: string | null = '';
	let block: { lang: string; start: number; lines: string[] } | undefined;
	markdown.split('\n').forEach((text, i) => {
		const line = i + 1;
		const fence = /^\s*(```|~~~)\s*([\w-]*)/.exec(text);
		if (fence) {
			if (!block) block = { lang: fence[2].toLowerCase(), start: line + 1, lines: [] };
			else {
				if (SHELL_LANGS.has(block.lang)) {
					const ran = scriptsOf(block.lines.join('\n'), dir, block.start);
					steps.push(...ran.steps);
					dir = ran.dir;
				}
				block = undefined;
			}
			return;
		}
		if (block) {
			block.lines.push(text.replace(/^\s*\$ /, ''));
			return;
		}
		if (/^#{1,6}\s/.test(text)) dir = '';
		for (const m of text.matchAll(/(`+)([^`\n]+?)\1/g)) {
			const code = m[2].trim();
			if (INLINE_COMMAND.test(code)) steps.push(...scriptsOf(code, dir, line).steps);
		}
	});
	return steps;
}

/** Folders and files of the repository a doc may name in code spans; a path under these must exist. */
const REPO_TOP = /^(?:\.github|\.ci|docs|n8n|sandbox|scripts|sdk|shared|test|tools|zapier)\/|^(?:package\.json|tsconfig\.json|jest\.config\.js|eslint\.config\.mjs|CHANGELOG\.md|CONTRIBUTING\.md|README\.md|LICENSE)$/;
/** What a build, a run or the user makes: named by the docs, never in the repository. */
const MADE = /(?:^|\/)(?:dist|node_modules|\.e2e|\.bench|\.env|\.zapierapprc|\.n8n)(?:\/|$)|^n8n\/shared\/?$/;

/** `a/{b,c}/d` as `a/b/d` and `a/c/d`. */
function expandBraces(path: string): string[] {
	const m = /\{([^{}]+)\}/.exec(path);
	if (!m) return [path];
	return m[1].split(',').flatMap((part) => expandBraces(path.slice(0, m.index) + part + path.slice(m.index + m[0].length)));
}

/** The paths of the repository a Markdown file names in its inline code spans (with their line), placeholders and made files left out. */
export function repoPaths(markdown: string): Array<{ path: string; line: number }> {
	const out: Array<{ path: string; line: number }> = [];
	let fenced = false;
	markdown.split('\n').forEach((text, i) => {
		if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
		if (fenced) return;
		for (const m of text.matchAll(/(`+)([^`\n]+?)\1/g)) {
			const code = m[2].trim();
			if (/\s/.test(code) || /[<>*$…]|\.\.\./.test(code) || !REPO_TOP.test(code)) continue;
			for (const path of expandBraces(code.replace(/[,.:;]$/, ''))) if (!MADE.test(path)) out.push({ path: path.replace(/\/$/, ''), line: i + 1 });
		}
	});
	return out;
}

/** The documents the prose may name a section of, by the names it gives them. */
export const DOC_NAMES: Record<string, string> = { README: 'README.md', CONTRIBUTING: 'CONTRIBUTING.md', CHANGELOG: 'CHANGELOG.md' };

/**
 * Sections of another document named in prose rather than linked: `the README, "Section"`, `CONTRIBUTING.md's
 * "Section"`, `docs/x.md, section "Section"`. Each is a document and the heading's text.
 */
export function namedSections(markdown: string): Array<{ doc: string; heading: string; line: number }> {
	const out: Array<{ doc: string; heading: string; line: number }> = [];
	const docName = `(README|CONTRIBUTING|CHANGELOG|[\\w./-]+\\.md)`;
	const pattern = new RegExp(`\\b(?:the )?${docName}(?:\\.md)?(?:'s|’s|,)\\s+(?:section\\s+|the section\\s+)?["“]([^"”]+)["”]`, 'g');
	markdown.split('\n').forEach((text, i) => {
		for (const m of text.matchAll(pattern)) out.push({ doc: DOC_NAMES[m[1]] ?? m[1], heading: m[2], line: i + 1 });
	});
	return out;
}
