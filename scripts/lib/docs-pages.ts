/**
 * The generated blocks of the design notes under docs/ (`npm run docs` writes them; test/docs/generated.test.ts
 * fails when a page holds another text):
 *   docs/paid-calls.md   paid-operations  which operations cost credits, which the node remembers for retries,
 *                                         which offer Options › Minimum Credits to Keep (from the catalogue and
 *                                         the node's own Options collections)
 *   docs/benchmarks.md   bench-targets    the bench's targets, the constants its verdicts use
 * The operations reference (docs/operations.md) is scripts/docs-operations.ts's.
 */
import type { INodeProperties } from 'n8n-workflow';

import { OPERATION_KEYS, getOperation, spendsCredits, type OperationKey } from '../../shared/catalogue';
import { MIN_CREDITS_TO_KEEP } from '../../n8n/nodes/PostWriter/helpers/options';
import { PAID_MEMORY_MINUTES } from '../../n8n/nodes/PostWriter/helpers/paid';
import { nodeOperations, propertyOf, type NodeOperation } from './docs-n8n';
import { BATCH_TARGETS as B, FOOTPRINT_TARGETS as F, POLL_TARGETS as P, percent, times } from './bench-targets';
import { GRID_TARGETS as G } from './pacing-grid';

/** The catalogue key of an n8n operation (Create Guided Post: GUIDED_OPERATION, several steps). */
function keyOf(op: NodeOperation): OperationKey | undefined {
	return OPERATION_KEYS.find((key) => getOperation(key).resource === op.resource && getOperation(key).action === op.operation);
}

const offers = (op: NodeOperation, option: string): boolean => ((propertyOf(op, 'options')?.options ?? []) as INodeProperties[]).some((o) => o.name === option);
const yesNo = (yes: boolean): string => (yes ? 'yes' : 'no');

/** Every operation that runs Post Writer's writing (scope posts:generate), with what it costs and what guards it. */
export function paidOperationsBlock(): string {
	const rows = ['| n8n: resource › operation | credits | answers remembered for a retry | Options › Minimum Credits to Keep |', '|---|---|---|---|'];
	for (const op of nodeOperations()) {
		const key = keyOf(op);
		const guided = op.resource === 'creation' && !key;
		// Create Guided Post runs the creation steps, each of them a call of this scope.
		if (!guided && (!key || getOperation(key).scope !== 'posts:generate')) continue;
		const cost = key ? getOperation(key).cost : null;
		const credits = cost === null ? 'may spend (cost not documented)' : String(cost);
		const paid = key ? spendsCredits(key) : true;
		rows.push(`| ${op.label} | ${credits}${paid ? '' : ' (free)'} | ${yesNo(offers(op, PAID_MEMORY_MINUTES))} | ${yesNo(offers(op, MIN_CREDITS_TO_KEEP))} |`);
	}
	return rows.join('\n');
}

/** The bench's targets, from the constants its verdicts use. */
export function benchTargetsBlock(): string {
	const rows: Array<[string, string]> = [
		['S1, S2', `wall ≤ ${times(B.s1s2Ratio)} the quota-bound limit; ≤ ${percent(B.s1s2Share429)} of requests answered 429; 0 failed, credits = items. S1 at the maximum Concurrency (b): ≤ ${times(B.s1MaxConcurrencyRatio)}`],
		['S3', `wall ≤ ${times(B.s3Ratio)}, and ahead of the naive loop (d) in the same run`],
		['S4', 'every way: 0 failed, no `WORKFLOW_BUSY` surfaced, no double charge'],
		['S5', `wall ≤ ${times(B.s5Ratio)}; ≤ ${percent(B.s5Share429)} answered 429; 0 failed, credits = items`],
		['S6', `0 failed in every header form; wall ≤ ${times(B.s6Ratio)}; ≤ ${percent(B.s6Share429)} answered 429 where the answers tell the quota`],
		['S7', `wall ≤ ${times(B.s7Ratio)}`],
		[
			'S8, every case',
			`0 failed, credits = items; wall ≤ ${times(G.ratioOneProcess)} in one process, ≤ ${times(G.ratioProcesses)} across three; no told form more than ${percent(G.vsRetryAfter - 1)} slower than \`Retry-After\` alone for the same latency and clients; ≤ ${percent(G.share429Told)} answered 429 where the answers tell the quota, ≤ ${percent(G.share429Refusals)} where only refusals do`,
		],
		['poll cost', `exactly ${P.requestsPerPoll} request per steady-state poll`],
		['trigger state', `≤ ${P.stateBytes / 1024} KB of JSON after ${P.statePosts.toLocaleString('en-US')} posts`],
		['footprint', `each package's own load ≤ ${F.ownLoadMs} ms over its platform's library; the n8n tarball < ${F.tarballKb} KB`],
	];
	return ['| part | target (the node with default settings, way (a), unless said) |', '|---|---|', ...rows.map(([part, target]) => `| ${part} | ${target} |`)].join('\n');
}

/** Each page's generated blocks, by name. */
export const DOC_PAGE_BLOCKS: Record<string, Record<string, () => string>> = {
	'docs/paid-calls.md': { 'paid-operations': paidOperationsBlock },
	'docs/benchmarks.md': { 'bench-targets': benchTargetsBlock },
};
