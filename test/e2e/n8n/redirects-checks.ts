/**
 * [7] of the n8n end-to-end suite: a Base URL that answers with a redirect,
 * in a real n8n (`n8n execute` of test/n8n/e2e/redirects.workflow.json). Five
 * credentials point at the redirecting front of test/helpers/redirect-servers.ts:
 * 301, 302, 307 and 308 to another host (`localhost`, where the front is
 * 127.0.0.1), and 307 within the front's own origin. Each Generate runs under
 * On Error: Continue. The other host must receive nothing, so no key; each
 * item names its status and says nothing was charged; the same-origin
 * redirect is followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as rt from '../../../scripts/lib/n8n-runtime';
import type { N8nInstall, N8nItem, N8nRun, N8nWorkflow } from '../../../scripts/lib/n8n-runtime';
import { startRedirectServers, type RedirectServers, type SeenRequest } from '../../helpers/redirect-servers';
import { once, withContext } from './support';

const WORKFLOW_FILE = path.join(rt.ROOT, 'test', 'n8n', 'e2e', 'redirects.workflow.json');
const WORKFLOW_ID = 'pwE2eRedirects01';
/** The statuses sent to another host; the node named `Generate <status> elsewhere` meets each. */
const ELSEWHERE = [301, 302, 307, 308];
const SAME_ORIGIN_NODE = 'Generate 307 same origin';

export interface RedirectDeps {
	n8n: N8nInstall;
	env: NodeJS.ProcessEnv;
	logs: string;
	/** The folder of the suite's scratch files. */
	work: string;
	packageName: string;
	apiKey: string;
	say: (message: string) => void;
	cleanup: (fn: () => unknown) => void;
}

interface RedirectResults {
	imports: N8nRun[];
	execution: N8nRun;
	outputs: Record<string, N8nItem[] | undefined>;
	front: SeenRequest[];
	elsewhere: SeenRequest[];
	elsewhereOrigin: string;
}

async function runRedirects(deps: RedirectDeps): Promise<RedirectResults> {
	const { n8n, env, logs, work, say } = deps;
	const servers: RedirectServers = await startRedirectServers();
	deps.cleanup(() => servers.close());
	say(`[7] a Base URL that redirects (front ${servers.baseUrl(301, 'elsewhere')}, other host ${servers.elsewhereOrigin})`);
	const credentials = [...ELSEWHERE.map((s) => [s, 'elsewhere'] as const), [307, 'same'] as const].map(([status, kind]) => ({
		id: `pwRedir${status}${kind === 'same' ? 'Same' : 'Else'}01`,
		name: `Post Writer redirect ${status} ${kind === 'same' ? 'same' : 'else'}`,
		type: 'postWriterApi',
		data: { apiKey: deps.apiKey, baseUrl: servers.baseUrl(status, kind) },
	}));
	const credentialsFile = path.join(work, 'redirect-credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify(credentials));
	const workflowFile = path.join(work, 'redirect-workflow.json');
	const workflow = rt.adaptWorkflow(JSON.parse(fs.readFileSync(WORKFLOW_FILE, 'utf8')) as N8nWorkflow, { packageName: deps.packageName, typePrefix: 'CUSTOM' });
	fs.writeFileSync(workflowFile, JSON.stringify(workflow));
	const imports = [
		await rt.runN8n(n8n.bin, ['import:credentials', `--input=${credentialsFile}`], { env, outDir: logs, label: 'import-redirect-credentials', timeoutMs: 120_000 }),
		await rt.runN8n(n8n.bin, ['import:workflow', `--input=${workflowFile}`], { env, outDir: logs, label: 'import-redirect-workflow', timeoutMs: 120_000 }),
	];
	const execution = await rt.runN8n(n8n.bin, ['execute', '--id', WORKFLOW_ID, '--rawOutput'], { env, outDir: logs, label: 'execute-redirects', timeoutMs: 180_000 });
	const runData = rt.parseRunOutput(execution.stdout)?.data?.resultData?.runData ?? {};
	const outputs = Object.fromEntries(Object.entries(runData).map(([node, runs]) => [node, runs[0]?.data?.main?.[0]]));
	return { imports, execution, outputs, front: [...servers.front], elsewhere: [...servers.elsewhere], elsewhereOrigin: servers.elsewhereOrigin };
}

export function redirectChecks({ check, deps }: { check: (name: string, fn: () => Promise<void>) => void; deps: () => Promise<RedirectDeps> }): void {
	const results = once(async () => await runRedirects(await deps()));
	const where = (r: RedirectResults) => `see ${r.execution.outFile} and ${r.execution.errFile}`;

	describe('[7] a Base URL that answers with a redirect', () => {
		check('the redirect credentials and workflow import, and n8n execute runs to the end', async () => {
			const r = await results();
			withContext(where(r), () => {
				expect(r.imports.map((i) => i.code)).toEqual([0, 0]);
				expect(r.execution.code).toBe(0);
				expect(Object.keys(r.outputs)).toEqual(expect.arrayContaining([SAME_ORIGIN_NODE]));
			});
		});

		check(`301, 302, 307 and 308 to another host: 0 requests reach it (so no key), each item names its status, the other address and that nothing was charged`, async () => {
			const r = await results();
			withContext(where(r), () => {
				expect(r.elsewhere).toEqual([]);
				for (const status of ELSEWHERE) {
					const error = String(r.outputs[`Generate ${status} elsewhere`]?.[0]?.json.error);
					expect(error).toMatch(new RegExp(`^POST /generate was answered ${status} [A-Za-z ]+, pointing to ${r.elsewhereOrigin}/api/v1/generate`));
					expect(error).toContain('the API key did not leave for it');
					expect(error).toContain('nothing was charged');
					expect(error).toContain('Check the Base URL');
				}
			});
		});

		check('307 within the Base URL origin: followed, with the key, and the answer is the output', async () => {
			const r = await results();
			withContext(where(r), () => {
				const [item] = r.outputs[SAME_ORIGIN_NODE] ?? [];
				expect(item?.json).toMatchObject({ proposals: ['Redirected proposal one.', 'Redirected proposal two.'], creditsRemaining: 42 });
				// Four refused at the front, then the same-origin one twice (its redirect and the moved address).
				expect(r.front.map((q) => q.method)).toEqual(Array(6).fill('POST'));
				expect(r.front.every((q) => q.authorization?.startsWith('Bearer '))).toBe(true);
			});
		});
	});
}
