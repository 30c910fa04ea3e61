/**
 * Facts the docs state, against the code that decides them: the README's requirements and first steps, the
 * defaults, bounds and costs of the design notes (paid calls, triggers, the Zapier app, n8n versions), and words
 * the README must not use. Each fact is built from the constant it states: a default changed in the code only fails
 * here, naming the page and the sentence.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PostWriter } from '../../n8n/nodes/PostWriter/PostWriter.node';
import { PostWriterApi } from '../../n8n/credentials/PostWriterApi.credentials';
import { DEFAULT_PAID_MEMORY_MINUTES, MAX_PAID_MEMORY_MINUTES } from '../../n8n/nodes/PostWriter/helpers/paid';
import { DEFAULT_MAX_QUOTA_WAIT_MINUTES } from '../../n8n/nodes/PostWriter/helpers/options';
import { BRAND } from '../../shared/base';
import { getOperation, spendsCredits } from '../../shared/catalogue';
import { DEFAULT_RETRY_POLICY } from '../../shared/client';
import { PAID_MEMORY_LIMITS } from '../../shared/paid';
import { LATEST_TRANSACTIONS, MAX_LOOKAHEAD_DAYS, MAX_MILESTONE_POSTS, MAX_WATCH_DAYS, POSTS_MAX_PAGES, POSTS_PAGE_SIZE, MAX_IDS_AT_WATERMARK } from '../../shared/triggers';
import { RETRY_BUDGET, STEP_DEADLINE_MS } from '../../zapier/src/client';
import { DROPDOWN_PAGE_SIZE } from '../../zapier/src/triggers/dropdown';
import { SCAN_LIMIT } from '../../zapier/src/searches/listDrafts';
import { DEFAULT_THROTTLE_SECONDS } from '../../zapier/src/zapier-errors';
import { FIRST_INSTALL_COST, NATIVE_BUILD_TOOLS } from '../../scripts/lib/n8n-install';
import { ZAPIER_CLI_VERSION } from '../../scripts/lib/zapier-cli';
import { POLL_TARGETS } from '../../scripts/lib/bench-targets';
import { paidOperationsBlock } from '../../scripts/lib/docs-pages';
import { proseOf } from '../../scripts/lib/generated-blocks';
import { DOCS, read, wordCount } from './files';

const README = read('README.md');
const pkg = (dir: string) => JSON.parse(read(`${dir}package.json`)) as { version: string; engines: { node: string }; dependencies?: Record<string, string> };
const list = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
const ACTION = new PostWriter().description.properties;
const generateField = (name: string) => ACTION.find((p) => p.name === name && p.displayOptions?.show?.operation?.includes('generate')) as INodeProperties;
const zapierSeconds = (ms: number | undefined) => `${(ms ?? 0) / 1_000} s`;

/** [file, what, the sentence the file states, built from the code]. */
const FACTS: Array<[file: string, what: string, text: string]> = [
	['README.md', 'the Node.js version of the engines field', `**Node.js ${pkg('').engines.node.replace('>=', '')} or later**`],
	['README.md', 'what the first npm start compiles with', `it needs **${list(NATIVE_BUILD_TOOLS)}**`],
	['README.md', 'what the first install costs', `it takes ${FIRST_INSTALL_COST}`],
	['README.md', "the credential's type", `a credential of type **${new PostWriterApi().displayName}**`],
	['README.md', "the credential's default Base URL", `Leave **Base URL** at \`${BRAND.defaultBaseUrl}\``],
	['README.md', "Generate's first field", `in **${generateField('prompt').displayName}**`],
	['README.md', "Generate's defaults", `Leave **${generateField('numProposals').displayName}** at ${String(generateField('numProposals').default)} and **${generateField('saveDraft').displayName}** ${generateField('saveDraft').default ? 'on' : 'off'}`],
	['README.md', "Generate's cost", `Generate costs ${getOperation('generatePost').cost} credit.`],
	['README.md', "Zapier's Node.js", `**Node.js ${pkg('zapier/').engines.node.replace('>=', '')}**`],
	['README.md', "the Zapier app's version to invite to", `users:add <their email> ${pkg('zapier/').version}\``],
	['README.md', 'the wait for the quota of the SDK', `waits out rate limits for up to ${DEFAULT_RETRY_POLICY.maxQuotaWaitMs / 60_000} minutes`],
	['README.md', 'Maximum Wait for the Quota', `**Options › Maximum Wait for the Quota** (${DEFAULT_MAX_QUOTA_WAIT_MINUTES} minutes by default)`],
	['docs/paid-calls.md', 'how long paid answers are kept', `**Options › Remember Paid Answers For (Minutes)** (${DEFAULT_PAID_MEMORY_MINUTES} by default, at most ${MAX_PAID_MEMORY_MINUTES})`],
	['docs/paid-calls.md', "the memory's bounds", `at most ${PAID_MEMORY_LIMITS.maxEntries.toLocaleString('en-US')} entries and ${PAID_MEMORY_LIMITS.maxBytes / 1024 / 1024} MiB`],
	['docs/paid-calls.md', 'sending an unclear item again', '**Options › Send Again After an Unclear Failure** (off by default)'],
	['docs/paid-calls.md', 'queue mode', '**In queue mode** the memory is per worker process'],
	['docs/paid-calls.md', 'Zapier replays', 'at most one extra charge per replay'],
	['docs/triggers.md', 'the IDs kept at the watermark', `the IDs of the posts at that time (at most ${MAX_IDS_AT_WATERMARK})`],
	['docs/triggers.md', 'the posts read when listed oldest first', `(up to ${POSTS_MAX_PAGES} pages of ${POSTS_PAGE_SIZE})`],
	['docs/triggers.md', 'the notice', `at most ${MAX_LOOKAHEAD_DAYS} days)`],
	['docs/triggers.md', "the milestone's state", `reached the threshold (at most ${MAX_MILESTONE_POSTS})`],
	['docs/triggers.md', "Credits Low's transactions", `the latest ${LATEST_TRANSACTIONS} transactions`],
	['docs/zapier.md', 'the platform core it is built on', `A Zapier CLI app on \`zapier-platform-core\` ${pkg('zapier/').dependencies?.['zapier-platform-core']}`],
	['docs/zapier.md', 'the notice', `hours or days, at most ${MAX_LOOKAHEAD_DAYS} days)`],
	['docs/zapier.md', 'the watch window', `Watch Posts of the Last (Days), at most ${MAX_WATCH_DAYS})`],
	['docs/zapier.md', "a dropdown's page", `one page of the API (${DROPDOWN_PAGE_SIZE} records)`],
	['docs/zapier.md', 'the drafts Find Draft reads', `Find Draft reads up to ${SCAN_LIMIT} drafts`],
	['docs/zapier.md', "a step's deadline", `within ${zapierSeconds(STEP_DEADLINE_MS)} of Zapier's 30 s`],
	['docs/zapier.md', 'the wait for the quota in a step (429)', `up to ${zapierSeconds(RETRY_BUDGET.maxQuotaWaitMs)} of waiting for the quota, within the step's ${zapierSeconds(STEP_DEADLINE_MS)}`],
	['docs/zapier.md', 'the wait for WORKFLOW_BUSY in a step', `waited out within the same ${zapierSeconds(RETRY_BUDGET.maxQuotaWaitMs)}`],
	['docs/zapier.md', "the throttled state's wait when a 429 gave none", `else with our default of ${DEFAULT_THROTTLE_SECONDS} s`],
];

test.each(FACTS)('%s states %s as the code has it', (file, _what, text) => {
	expect(read(file)).toContain(text);
});

test("the trigger's state size is the one the bench measured, after the posts its target names", () => {
	const measured = /static data after ([\d,]+) posts[^*]*\*\*(\d+) bytes\*\* of JSON/.exec(read('docs/benchmarks.md'));
	expect(measured?.[1]).toBe(POLL_TARGETS.statePosts.toLocaleString('en-US'));
	expect(read('docs/triggers.md')).toContain(`its state after ${measured?.[1]} posts: ${measured?.[2]} bytes of JSON`);
	for (const file of [...DOCS, 'n8n/README.md']) expect({ file, hundred: /about a hundred bytes/i.test(read(file)) }).toEqual({ file, hundred: false });
});

test('Predict Post Virality is free and not remembered as paid; Create Guided Post has no Minimum Credits to Keep', () => {
	expect(getOperation('predictVirality').cost).toBe(0);
	expect(spendsCredits('predictVirality')).toBe(false);
	const rows = paidOperationsBlock().split('\n');
	expect(rows.find((r) => r.startsWith('| Post › Predict Virality |'))).toBe('| Post › Predict Virality | 0 (free) | no | no |');
	expect(rows.find((r) => r.startsWith('| Creation › Create Guided Post |'))).toMatch(/\| yes \| no \|$/);
	// No prose lists Predict Virality among the paid calls the node remembers, nor says every paid operation has the floor.
	for (const file of [...DOCS, 'n8n/README.md']) {
		const prose = proseOf(read(file));
		expect({ file, listed: /\((?:[^()]*, )?Predict (?:Post )?Virality, the creation steps\)/.test(prose) }).toEqual({ file, listed: false });
		expect({ file, every: /Paid operations[^.]*\. Their \*\*Options › Minimum Credits to Keep\*\*/.test(prose) }).toEqual({ file, every: false });
	}
});

test("no doc gives Zapier's WORKFLOW_BUSY another budget than the Zapier client's", () => {
	for (const file of [...DOCS, 'n8n/README.md']) {
		const said = [...read(file).matchAll(/WORKFLOW_BUSY[^.\n]*?(?:about |up to |within (?:the same )?)(\d+) s/g)].map((m) => Number(m[1]) * 1_000);
		for (const ms of said) expect({ file, ms }).toEqual({ file, ms: RETRY_BUDGET.maxQuotaWaitMs });
	}
});

test("every Zapier CLI the docs run is the version the project pins", () => {
	for (const file of DOCS) {
		for (const m of read(file).matchAll(/zapier-platform-cli@([\d.]+)/g)) expect({ file, version: m[1] }).toEqual({ file, version: ZAPIER_CLI_VERSION });
	}
	expect(README).toContain(`npx zapier-platform-cli@${ZAPIER_CLI_VERSION} push`);
});

test("the durable poller's flags named are the ones the e2e sets", () => {
	const suite = read('test/e2e/n8n/suite.ts');
	const flags = [...(/const DURABLE_POLLER_ENV = \{([^}]*)\}/.exec(suite)?.[1] ?? '').matchAll(/(N8N_[A-Z_]+):/g)].map((m) => m[1]);
	expect(flags).toHaveLength(4);
	const page = read('docs/n8n-versions.md');
	expect(page).toContain(`with four environment variables: ${flags.slice(0, -1).map((f) => `\`${f}\``).join(', ')} and \`${flags[flags.length - 1]}\``);
	expect(read('n8n/README.md')).toContain(`(${flags.map((f) => `\`${f}\``).join(', ')})`);
});

describe('the README is for users', () => {
	test('at most 2,000 words, and no line a screen cannot hold', () => {
		expect(wordCount(README)).toBeLessThanOrEqual(2_000);
		const long = README.split('\n').filter((line) => line.length > 600);
		expect(long).toEqual([]);
	});

	test('no word of the internals, no decision number, no promise that the first start needs nothing', () => {
		const internals = /\b(lanes?|plateaus?|probes?|AIMD|Little's law|told forms?|S[1-8](?:–S[1-8])?|issue \d+|D0\d\d|\(a'\))\b|nothing else needed/gi;
		expect(README.match(internals) ?? []).toEqual([]);
	});

	test('in this order: what it is, the two commands, n8n (install, credential, a first run), Zapier, the SDK, troubleshooting, links', () => {
		const headings = [...README.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => m[2]);
		expect(headings).toEqual(['Two commands', 'n8n', 'Install the node', 'Create the credential', 'Run Generate', 'Zapier', 'SDK', 'Troubleshooting', 'Read more', 'Licence']);
	});
});

test("the README's first run picks an operation the node offers under that name", () => {
	const resource = ACTION.find((p) => p.name === 'resource')?.options as INodePropertyOptions[];
	const picker = ACTION.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('post'));
	const generate = (picker?.options as INodePropertyOptions[]).find((o) => o.value === 'generate');
	expect(README).toContain(`pick **${generate?.name}** under the ${resource.find((r) => r.value === 'post')?.name} actions`);
});
