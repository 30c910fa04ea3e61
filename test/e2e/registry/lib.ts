/**
 * The parts of scripts/lib (plain JS until its TypeScript version lands, branch
 * i19-scripts) that the registry rehearsal uses, typed here: n8n-runtime.d.ts
 * covers only what scripts/bench.ts needs, verdaccio.js has no types yet.
 */
import type { ChildProcess } from 'node:child_process';

export interface N8nInstall {
	name: 'oldest' | 'newest';
	dir: string;
	bin: string;
	version: string;
	/** The Node binary n8n runs on when it is not this process's (Node 24 for the newest). */
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

interface RuntimeLib {
	ROOT: string;
	PACKAGE_DIR: string;
	runtime(name: 'oldest' | 'newest'): { version: string };
	ensureN8n(name: 'oldest' | 'newest'): Promise<N8nInstall>;
	freePort(): Promise<number>;
	n8nEnv(userFolder: string, extra: Record<string, string>, install: N8nInstall): NodeJS.ProcessEnv;
	runN8n(bin: string, args: string[], options: { env: NodeJS.ProcessEnv; timeoutMs?: number; outDir: string; label: string }): Promise<N8nRun>;
	killGroup(child: ChildProcess, signal: NodeJS.Signals): void;
	parseRunOutput(text: string): unknown;
	unpack(tarball: string, dir: string): void;
}

export interface VerdaccioInstall {
	dir: string;
	entry: string;
	version: string;
	installedNow: boolean;
	seconds: number;
}

export interface VerdaccioRequest {
	status: number;
	method: string;
	path: string;
}

export interface Registry {
	url: string;
	child: ChildProcess;
	logFile: string;
	requests(): VerdaccioRequest[];
}

interface VerdaccioLib {
	ensureVerdaccio(nodeBin: string): VerdaccioInstall;
	startVerdaccio(install: VerdaccioInstall, options: { nodeBin: string; work: string; port: number }): Promise<Registry>;
	addUser(url: string, name: string, password: string): Promise<string>;
	cleanEnv(nodeBin?: string): NodeJS.ProcessEnv;
}

export const rt = jest.requireActual<RuntimeLib>('../../../scripts/lib/n8n-runtime.js');
export const vd = jest.requireActual<VerdaccioLib>('../../../scripts/lib/verdaccio.js');
