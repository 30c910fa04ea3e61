/**
 * The generated blocks of the docs, from the code, so that no table or stated default can drift from it:
 *   docs/operations.md   the operation reference (this file: the catalogue and what each platform derives from it)
 *   n8n/README.md        the package page's blocks (scripts/lib/docs-n8n.ts)
 *   docs/paid-calls.md, docs/benchmarks.md   the design notes' blocks (scripts/lib/docs-pages.ts)
 *   npm run docs    rewrites them all (ts-node --prefer-ts-exts, so that `PostWriter.node` resolves to the .ts
 *                   file, not its codex .json)
 * test/docs/generated.test.ts fails when a file holds another text than the generated one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';

import { PostWriter } from '../n8n/nodes/PostWriter/PostWriter.node';
import { GUIDED_OPERATION, OPERATION_KEYS, getOperation } from '../shared/catalogue';
import App from '../zapier/src';
import { N8N_README_BLOCKS } from './lib/docs-n8n';
import { DOC_PAGE_BLOCKS } from './lib/docs-pages';
import { withBlocks } from './lib/generated-blocks';

type ZapierAction = { key: string; noun: string; display: { label: string; hidden?: boolean } };
const zapier = App as unknown as Record<'creates' | 'searches' | 'triggers', Record<string, ZapierAction>>;

/** Zapier triggers that read an operation under their own key. */
const VIA_TRIGGER: Record<string, string> = { listPosts: 'newPublishedPost', getCalendar: 'upcomingScheduledDraft' };
/** Operations the Zapier connection test reads. */
const VIA_CONNECTION: Record<string, string> = { getAccountProfile: 'read by the connection test (its label)' };

function n8nName(resource: string, operation: string): string {
	const props = new PostWriter().description.properties;
	const resources = props.find((p) => p.name === 'resource')?.options as INodePropertyOptions[];
	const picker = props.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
	const op = (picker?.options as INodePropertyOptions[] | undefined)?.find((o) => o.value === operation);
	return `${resources.find((r) => r.value === resource)?.name ?? resource} › ${op?.name ?? operation}`;
}

function zapierCell(key: string): string {
	const cells: string[] = [];
	for (const kind of ['creates', 'searches', 'triggers'] as const) {
		const action = zapier[kind][key];
		if (!action) continue;
		const what = kind === 'creates' ? (action.display.hidden ? 'hidden action' : 'action') : kind === 'searches' ? 'search' : action.display.hidden ? 'dropdown' : 'trigger';
		cells.push(`${action.display.label} (${what})`);
	}
	const trigger = VIA_TRIGGER[key] && zapier.triggers[VIA_TRIGGER[key]];
	if (trigger) cells.push(`read by ${trigger.display.label} (trigger)`);
	if (VIA_CONNECTION[key]) cells.push(VIA_CONNECTION[key]);
	return cells.join(' · ') || '—';
}

function credits(cost: number | null): string {
	return cost === null ? 'may spend (cost not documented)' : String(cost);
}

export function operationsTable(): string {
	const rows = ['| key (SDK method, Zapier key) | n8n: resource › operation | Zapier | request | scope | credits |', '|---|---|---|---|---|---|'];
	for (const key of OPERATION_KEYS) {
		const op = getOperation(key);
		rows.push(`| \`${key}\` | ${n8nName(op.resource, op.action)} | ${zapierCell(key)} | \`${op.method} ${op.path}\` | \`${op.scope}\` | ${credits(op.cost)} |`);
	}
	rows.push(
		`| \`createPostGuided\` | ${n8nName('creation', 'createGuided')} | ${zapierCell('createPostGuided')} | the four creation steps above | \`posts:generate\` | may spend (cost not documented) |`,
	);
	return rows.join('\n');
}

/** Every file with generated blocks, and its blocks by name. */
export const GENERATED_FILES: Record<string, Record<string, () => string>> = {
	'docs/operations.md': { operations: operationsTable },
	'n8n/README.md': N8N_README_BLOCKS,
	...DOC_PAGE_BLOCKS,
};

/** `text` (the file `file`) with its generated blocks replaced. */
export function withGenerated(file: string, text: string): string {
	return withBlocks(text, GENERATED_FILES[file], file);
}

if (require.main === module) {
	const root = join(__dirname, '..');
	const write = process.argv.includes('--write');
	for (const [file, blocks] of Object.entries(GENERATED_FILES)) {
		const path = join(root, file);
		if (write) {
			writeFileSync(path, withGenerated(file, readFileSync(path, 'utf8')));
			process.stdout.write(`${file}: ${Object.keys(blocks).join(', ')} written.\n`);
		} else process.stdout.write(`${file}\n${Object.values(blocks).map((render) => render()).join('\n\n')}\n\n`);
	}
	if (write) process.stdout.write(`(${OPERATION_KEYS.length + 1} operations, ${GUIDED_OPERATION.name} included)\n`);
}
