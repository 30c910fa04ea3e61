/**
 * The sandbox and workflows the suites give n8n: the sandbox in this process,
 * a post published at once, and the repository's workflows adapted to where
 * the node is loaded.
 */
import type { PostRecord, Sandbox, SandboxOptions } from '../../sandbox';

/** A credential an n8n workflow refers to. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** The parts of an n8n workflow (exported JSON) adaptWorkflow reads. */
export interface N8nWorkflow {
	nodes: { type: string; credentials?: Record<string, CredentialRef>; [key: string]: unknown }[];
	[key: string]: unknown;
}

/** Options of adaptWorkflow. */
export interface AdaptOptions {
	/** The package name the workflow's types start with (n8n-nodes-post-writer). */
	packageName: string;
	/** What it becomes: the package name, or `CUSTOM` for a custom extensions folder. */
	typePrefix: string;
	/** The credential the Post Writer nodes use instead of the workflow's. */
	credential?: CredentialRef;
}

/** The sandbox, in this process (loaded when first asked for: most callers never need it). */
export async function startSandbox(options?: Partial<SandboxOptions>): Promise<Sandbox> {
	const { startSandbox: start } = await import('../../sandbox');
	return await start(options);
}

/** A draft scheduled a second ago in the sandbox, published by it at once: the post it published. */
export function publishNow(sandbox: Sandbox, text: string): PostRecord {
	const at = new Date(sandbox.clock.now() - 1000).toISOString();
	sandbox.state.createDraft('acc_1', text, at);
	const published = sandbox.publishDue();
	return published[published.length - 1];
}

/**
 * A workflow of n8n/examples or test/n8n/e2e (types `n8n-nodes-post-writer.*`)
 * adapted to where the node is loaded (`CUSTOM` for a custom extensions
 * folder), and optionally pointed at another credential. The workflow given is not changed.
 */
export function adaptWorkflow<W extends N8nWorkflow>(workflow: W, { packageName, typePrefix, credential }: AdaptOptions): W {
	const copy = JSON.parse(JSON.stringify(workflow)) as W;
	for (const node of copy.nodes) {
		if (node.type.startsWith(`${packageName}.`)) node.type = `${typePrefix}.${node.type.slice(packageName.length + 1)}`;
		if (credential && node.credentials?.postWriterApi) node.credentials.postWriterApi = { id: credential.id, name: credential.name };
	}
	return copy;
}
