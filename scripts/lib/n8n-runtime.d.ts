/** Types of the parts of n8n-runtime.js that TypeScript scripts use (scripts/bench.ts). */

export type RuntimeName = 'oldest' | 'newest';

export interface N8nInstall {
	name: RuntimeName;
	dir: string;
	bin: string;
	version: string;
	/** The Node binary n8n runs on, when it is not this process's node (Node 24 for the newest). */
	nodeBin?: string;
}

export interface N8nRun {
	code: number | null;
	signal?: NodeJS.Signals | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	outFile: string;
	errFile: string;
}

export const ROOT: string;
export const N8N_VERSION: string;
export function runtimeDir(name?: RuntimeName): string;
/** The installed n8n of the cache, or undefined; never installs. */
export function findN8n(name?: RuntimeName): N8nInstall | undefined;
export function ensureN8n(name?: RuntimeName): Promise<N8nInstall>;
export function freePort(): Promise<number>;
export function n8nEnv(userFolder: string, extra?: Record<string, string>, install?: N8nInstall): NodeJS.ProcessEnv;
export function runN8n(bin: string, args: string[], options: { env: NodeJS.ProcessEnv; timeoutMs?: number; outDir: string; label: string }): Promise<N8nRun>;
/** The run data that `n8n execute --rawOutput` prints after its log lines. */
export function parseRunOutput(text: string): unknown;
