/** Types of the parts of n8n-runtime.js that TypeScript scripts use (scripts/bench.ts). */

export interface N8nInstall {
	dir: string;
	bin: string;
	version: string;
}

export interface N8nRun {
	code: number | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	outFile: string;
	errFile: string;
}

export const ROOT: string;
export const N8N_VERSION: string;
export function runtimeDir(): string;
/** The installed n8n of the cache, or undefined; never installs. */
export function findN8n(): N8nInstall | undefined;
export function freePort(): Promise<number>;
export function n8nEnv(userFolder: string, extra?: Record<string, string>): NodeJS.ProcessEnv;
export function runN8n(bin: string, args: string[], options: { env: NodeJS.ProcessEnv; timeoutMs?: number; outDir: string; label: string }): Promise<N8nRun>;
/** The run data that `n8n execute --rawOutput` prints after its log lines. */
export function parseRunOutput(text: string): unknown;
