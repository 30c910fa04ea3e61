/**
 * Adding an operation (CONTRIBUTING.md, "Adding an operation"): one catalogue entry in
 * shared/catalogue/ (its resource's file and index.ts), then one place per platform and one sandbox handler.
 * This test walks every catalogue operation through every place and, when one
 * is forgotten, fails with the file to edit.
 */
import fs from 'node:fs';
import path from 'node:path';

import { RESOURCE_MODULES } from '../n8n/nodes/PostWriter/actions/resources';
import { PostWriter } from '../n8n/nodes/PostWriter/PostWriter.node';
import { OPERATION_KEYS, getOperation } from '../shared/catalogue';
import type { OperationKey, OperationSpec } from '../shared/catalogue';
import App from '../zapier/src';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Operations Zapier offers through a trigger event rather than under their own key. */
const ZAPIER_VIA_TRIGGER: Partial<Record<OperationKey, string>> = {
	listPosts: 'newPublishedPost',
	getCalendar: 'upcomingScheduledDraft',
};
/** Operations Zapier reads in its connection test (the account's profile labels the connection). */
const ZAPIER_VIA_CONNECTION: OperationKey[] = ['getAccountProfile'];

const node = new PostWriter().description;

/** What is missing for `key`; `op` is its catalogue entry (a test passes one the catalogue lacks). */
function missingPlaces(key: OperationKey, op: Pick<OperationSpec, 'resource' | 'action' | 'method'> = getOperation(key)): string[] {
	const missing: string[] = [];
	const n8nFile = `n8n/nodes/PostWriter/actions/${op.resource}/${op.action}.operation.ts`;
	const resourceFile = `n8n/nodes/PostWriter/actions/${op.resource}/${pascal(op.resource)}.resource.ts`;
	const module = (RESOURCE_MODULES as Record<string, Record<string, { execute?: unknown; description?: unknown }>>)[op.resource]?.[op.action];
	if (!fs.existsSync(path.join(ROOT, n8nFile))) missing.push(`${key}: n8n operation file ${n8nFile}`);
	if (typeof module?.execute !== 'function' || !Array.isArray(module?.description)) missing.push(`${key}: export it from ${resourceFile}`);
	const picker = node.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(op.resource));
	if (!picker?.options?.some((o) => 'value' in o && o.value === op.action)) missing.push(`${key}: the operation picker of ${resourceFile} (operationPicker)`);

	const zapier = App as unknown as Record<'creates' | 'searches' | 'triggers', Record<string, unknown>>;
	const onZapier = [zapier.creates[key], zapier.searches[key], zapier.triggers[key]].some(Boolean);
	const viaTrigger = ZAPIER_VIA_TRIGGER[key];
	const viaConnection = ZAPIER_VIA_CONNECTION.includes(key) && typeof (App.authentication as { test?: unknown }).test === 'function';
	if (!onZapier && !(viaTrigger && zapier.triggers[viaTrigger]) && !viaConnection) {
		missing.push(`${key}: Zapier file zapier/src/${op.method === 'GET' ? 'searches' : 'creates'}/${key}.ts, registered in zapier/src/index.ts`);
	}

	if (!new RegExp(`^\\t\\t${key}: `, 'm').test(read('sandbox/handlers.ts'))) missing.push(`${key}: a handler in sandbox/handlers.ts`);
	if (!new RegExp(`^\\t${key}: `, 'm').test(read('test/shared/catalogue/catalogue.test.ts'))) missing.push(`${key}: the hand-written spec row in test/shared/catalogue/catalogue.test.ts`);
	if (!new RegExp(`^\\t${key}: `, 'm').test(read('test/shared/client/request.test.ts'))) missing.push(`${key}: the request case in test/shared/client/request.test.ts`);
	if (!read('docs/operations.md').includes(`| \`${key}\` |`)) missing.push(`${key}: its row in the operation table of docs/operations.md (npm run docs)`);
	return missing;
}

test('every catalogue operation is wired in every place (CONTRIBUTING.md: Adding an operation)', () => {
	expect(OPERATION_KEYS.length).toBeGreaterThanOrEqual(18);
	expect(OPERATION_KEYS.flatMap((key) => missingPlaces(key))).toEqual([]);
});

test('the check names the places of an operation that is wired nowhere', () => {
	// An operation present in the catalogue only: every place is reported, each with its file.
	const fake = { ...getOperation('predictVirality'), key: 'summarizePost', action: 'summarize', name: 'Summarize Post' };
	expect(missingPlaces('summarizePost' as OperationKey, fake)).toEqual([
		'summarizePost: n8n operation file n8n/nodes/PostWriter/actions/post/summarize.operation.ts',
		'summarizePost: export it from n8n/nodes/PostWriter/actions/post/Post.resource.ts',
		'summarizePost: the operation picker of n8n/nodes/PostWriter/actions/post/Post.resource.ts (operationPicker)',
		'summarizePost: Zapier file zapier/src/creates/summarizePost.ts, registered in zapier/src/index.ts',
		'summarizePost: a handler in sandbox/handlers.ts',
		'summarizePost: the hand-written spec row in test/shared/catalogue/catalogue.test.ts',
		'summarizePost: the request case in test/shared/client/request.test.ts',
		'summarizePost: its row in the operation table of docs/operations.md (npm run docs)',
	]);
});
