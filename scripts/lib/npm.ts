/** npm run as a child process: under another node binary when asked, its output in a log file, bounded in time. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Options of runNpm. */
export interface RunNpmOptions {
	cwd: string;
	/** Runs npm under this node binary (default: the `npm` on PATH). */
	nodeBin?: string;
	/** npm's output is appended to it. */
	logFile: string;
	timeoutMs?: number;
}

/** npm's own entry script, so that npm can run under another node binary. */
export function npmCliPath(): string | undefined {
	const candidates: string[] = [];
	if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)) candidates.push(process.env.npm_execpath);
	candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
	const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
	if (which.status === 0 && which.stdout.trim()) {
		try {
			candidates.push(path.join(path.dirname(fs.realpathSync(which.stdout.trim())), 'npm-cli.js'));
		} catch {
			/* not a symlink into npm's folder */
		}
	}
	return candidates.find((c) => fs.existsSync(c));
}

/** Runs npm (with the given node binary when there is one), output to a log file, bounded in time. Throws when it fails. */
export function runNpm(args: string[], { cwd, nodeBin, logFile, timeoutMs = 600_000 }: RunNpmOptions): void {
	const npmCli = nodeBin ? npmCliPath() : undefined;
	const [cmd, argv] = npmCli && nodeBin ? [nodeBin, [npmCli, ...args]] : ['npm', args];
	const env: NodeJS.ProcessEnv = { ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
	if (nodeBin) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
	const out = fs.openSync(logFile, 'a');
	try {
		const r = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', out, out], timeout: timeoutMs });
		if (r.status !== 0) {
			throw new Error(`npm ${args.join(' ')} failed (${r.error ? r.error.message : `exit ${r.status}`}); see ${logFile}`);
		}
	} finally {
		fs.closeSync(out);
	}
}
