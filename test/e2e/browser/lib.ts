/**
 * The parts of scripts/lib (plain JS until its TypeScript version lands, branch
 * i19-scripts) that the browser suite uses, typed here. Loaded with a require
 * of this file's own (createRequire): Playwright's loader, not jest, runs these files.
 */
import { createRequire } from 'node:module';
import type { Sandbox } from '../../../sandbox/server';

export type RuntimeName = 'oldest' | 'newest';

export interface LocalN8n {
	n8n: { version: string };
	editorUrl: string;
	sandbox: Sandbox;
	/** The owner login `npm start` created; undefined when it could not. */
	owner?: { email: string; password: string };
	credential: { id: string; name: string };
	logFile: string;
	stop(): Promise<void>;
}

interface RuntimeLib {
	ROOT: string;
	PACKAGE_DIR: string;
}

interface LocalN8nLib {
	startLocalN8n(options: {
		runtime: RuntimeName;
		userFolder: string;
		workDir: string;
		logDir: string;
		port: number;
		keySeed: string;
		log: (message: string) => void;
	}): Promise<LocalN8n>;
}

interface DebianLib {
	ensureDebianPackages(packages: string[], options: { log: (message: string) => void }): { installed: string[]; seconds: number };
}

const load = createRequire(__filename);
export const rt = load('../../../scripts/lib/n8n-runtime.js') as RuntimeLib;
export const { startLocalN8n } = load('../../../scripts/lib/local-n8n.js') as LocalN8nLib;
export const { ensureDebianPackages } = load('../../../scripts/lib/debian.js') as DebianLib;
