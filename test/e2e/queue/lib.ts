/**
 * The parts of scripts/lib this suite uses, typed. Temporary: scripts/lib is
 * plain JS until the i19-scripts conversion lands (then the suite imports the
 * typed modules and this file goes). createRequire, since the lint rules
 * forbid a bare require().
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Sandbox } from '../../../sandbox';
import type * as n8nRuntime from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall, N8nRun, RuntimeName } from '../../../scripts/lib/n8n-runtime';

export type { N8nInstall, N8nRun };

const load = createRequire(__filename);
const LIB = path.resolve(__dirname, '../../../scripts/lib');

interface RuntimeRest {
	PACKAGE_DIR: string;
	runtime(name: RuntimeName): { name: RuntimeName; version: string };
	buildAndPack(dest: string): { tarball: string; files: string[]; name: string };
	unpack(tarball: string, dir: string): void;
	killGroup(child: ChildProcess, signal: NodeJS.Signals): void;
	publishNow(sandbox: Sandbox, text: string): { id: string };
	adaptWorkflow<T>(workflow: T, options: { packageName: string; typePrefix: string }): T;
}

/** scripts/lib/n8n-runtime: its .d.ts types a part of it, RuntimeRest the rest used here. */
export const rt = load(path.join(LIB, 'n8n-runtime')) as typeof n8nRuntime & RuntimeRest;

export interface Postgres {
	port: number;
	bin: string;
	dataDir: string;
	user: string;
	password: string;
	database: string;
	/** Rows of a query in n8n's database, each an array of column texts. */
	query(sql: string): string[][];
	dump(file: string): void;
	saveLog(): void;
	stop(): void;
}

export interface Redis {
	port: number;
	stop(): void;
}

export const { startPostgres, startRedis } = load(path.join(LIB, 'queue-services')) as {
	startPostgres(options: { port: number; user: string; password: string; database: string; logDir: string }): Postgres;
	startRedis(options: { port: number; logDir: string }): Promise<Redis>;
};

export const { ensureDebianPackages } = load(path.join(LIB, 'debian')) as {
	ensureDebianPackages(packages: string[], options?: { log?: (message: string) => void }): { installed: string[]; seconds: number };
};
