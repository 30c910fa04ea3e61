/**
 * What the bench's scenarios S5–S7 share with the worker processes of S6
 * (scripts/bench-process.ts): the baseline node (today's main before issue 18,
 * extracted from git into .bench/baseline) and K executions of Post ›
 * Generate started together, each its own `execute()` call on its own fake
 * n8n context (test/n8n/helpers/context.ts), as n8n runs them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PostWriter } from '../../n8n/nodes/PostWriter/PostWriter.node';
import { executeContext } from '../../test/n8n/helpers/context';

/** Today's main before issue 18: pacing per execution, Concurrency 5 by default. */
export const BASELINE_COMMIT = 'd211f54';
/** The baseline's default concurrency, set explicitly on its runs. */
export const BASELINE_CONCURRENCY = 5;

export type NodeKind = 'new' | 'baseline';

export type NodeClass = new () => { execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> };

export function baselineDir(root: string): string {
	return join(root, '.bench', 'baseline');
}

/**
 * `git archive <BASELINE_COMMIT> shared n8n/nodes n8n/shared | tar -x -C .bench/baseline`,
 * once (a marker file names the commit extracted). Inside the repository, so
 * that n8n-workflow resolves from the root node_modules.
 */
export function extractBaseline(root: string): string {
	const dir = baselineDir(root);
	const marker = join(dir, '.commit');
	const commit = execFileSync('git', ['rev-parse', `${BASELINE_COMMIT}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === commit) return dir;
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const tar = execFileSync('git', ['archive', commit, 'shared', 'n8n/nodes', 'n8n/shared'], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
	execFileSync('tar', ['-x', '-C', dir], { input: tar });
	writeFileSync(marker, `${commit}\n`);
	return dir;
}

/** The node class of this working tree ('new') or of the baseline (compiled by ts-node from .bench/baseline). */
export function loadNode(kind: NodeKind, root: string): NodeClass {
	if (kind === 'new') return PostWriter as unknown as NodeClass;
	const file = join(baselineDir(root), 'n8n/nodes/PostWriter/PostWriter.node.ts');
	if (!existsSync(file)) throw new Error(`the baseline is not extracted: ${file} is missing (extractBaseline first)`);
	// Loaded at run time from a path known only then (ts-node compiles it): createRequire, not an import.
	const mod = createRequire(__filename)(file) as { PostWriter: NodeClass };
	return mod.PostWriter;
}

export interface ExecutionsSpec {
	baseUrl: string;
	apiKey: string;
	/** Executions started together. */
	executions: number;
	/** Input items of each execution. */
	items: number;
	/** Options › Concurrency; undefined leaves it unset (the node's default). */
	concurrency?: number;
	/** Prefix of the prompts, so that every item of every execution and process has its own prompt. */
	label: string;
}

export interface ExecutionOutcome {
	items: number;
	failed: number;
	/** The first failure messages of the execution (at most 2). */
	messages: string[];
	/** The execution threw instead of giving items (each item counted as failed). */
	threw?: string;
}

export function prompt(label: string, execution: number, item: number): string {
	return `${label} execution ${execution + 1}, prompt ${item + 1}: what we learned from shipping weekly`;
}

/** One execution of Post › Generate with `items` input items, Continue On Fail on. */
export async function runExecution(Node: NodeClass, spec: ExecutionsSpec, execution: number): Promise<ExecutionOutcome> {
	const options = spec.concurrency === undefined ? {} : { concurrency: spec.concurrency };
	const { ctx } = executeContext({
		credentials: { apiKey: spec.apiKey, baseUrl: spec.baseUrl },
		params: { resource: 'post', operation: 'generate', prompt: '={{ $json.prompt }}', options },
		items: Array.from({ length: spec.items }, (_, i) => ({ json: { prompt: prompt(spec.label, execution, i) } })),
		continueOnFail: true,
	});
	try {
		const [output] = await new Node().execute.call(ctx);
		const errors = output.map((o) => o.json.error).filter((e): e is string => typeof e === 'string');
		const missing = Math.max(0, spec.items - output.length);
		return { items: spec.items, failed: errors.length + missing, messages: errors.slice(0, 2) };
	} catch (e) {
		const message = e instanceof Error ? e.message : String(e);
		return { items: spec.items, failed: spec.items, messages: [message], threw: message };
	}
}

/** `executions` executions started together; resolves when the last one ends. */
export async function runExecutions(Node: NodeClass, spec: ExecutionsSpec): Promise<ExecutionOutcome[]> {
	return await Promise.all(Array.from({ length: spec.executions }, (_, e) => runExecution(Node, spec, e)));
}
