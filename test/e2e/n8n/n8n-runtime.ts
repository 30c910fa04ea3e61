/**
 * A typed view of scripts/lib/n8n-runtime.js for this suite. Temporary: its
 * own n8n-runtime.d.ts types only what scripts/bench.ts uses, and the lib is
 * being converted to TypeScript (branch i19-scripts); then the suite imports it
 * directly and this file goes.
 */
import type { ChildProcess } from 'node:child_process';
import * as lib from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall, N8nRun, RuntimeName } from '../../../scripts/lib/n8n-runtime';
import type { Sandbox } from '../../../sandbox/server';
import type { PostRecord } from '../../../sandbox/state';

export type { N8nInstall, N8nRun, RuntimeName };

/** A runtime's pins (scripts/n8n-runtime/<name>/package.json). */
export interface RuntimePins {
	name: RuntimeName;
	pinsDir: string;
	version: string;
	/** The Node it needs when not the machine's (e.g. "24.21.0"). */
	node?: string;
}

/** `npm pack` of the n8n package: the tarball, the paths it holds and the package name. */
export interface Packed {
	tarball: string;
	files: string[];
	name: string;
}

/** An n8n workflow as exported (only what adaptWorkflow reads). */
export interface Workflow {
	nodes: Array<{ type: string; credentials?: Record<string, unknown> }>;
	[key: string]: unknown;
}

interface N8nRuntimeLib {
	ROOT: string;
	PACKAGE_DIR: string;
	RUNTIME_NAMES: RuntimeName[];
	runtime(name: RuntimeName): RuntimePins;
	ensureN8n(name: RuntimeName): Promise<N8nInstall>;
	buildAndPack(dest: string): Packed;
	unpack(tarball: string, dir: string): void;
	freePort(): Promise<number>;
	n8nEnv(userFolder: string, extra?: Record<string, string>, install?: N8nInstall): NodeJS.ProcessEnv;
	runN8n(bin: string, args: string[], options: { env: NodeJS.ProcessEnv; timeoutMs?: number; outDir: string; label: string }): Promise<N8nRun>;
	killGroup(child: ChildProcess, signal: NodeJS.Signals): void;
	parseRunOutput(text: string): unknown;
	/** A draft scheduled a second ago, published by the sandbox at once: the post it published. */
	publishNow(sandbox: Sandbox, text: string): PostRecord;
	adaptWorkflow(workflow: Workflow, options: { packageName: string; typePrefix: string; credential?: { id: string; name: string } }): Workflow;
}

export const rt = lib as unknown as N8nRuntimeLib;
