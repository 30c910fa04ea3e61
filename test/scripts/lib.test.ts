/** The pure parts of scripts/lib: what `n8n execute` prints, workflows adapted to where the node loads, n8n's environment, suites' result lines, lock stubs. */
import { platformOf } from '../../scripts/lock-platform-stubs';
import { adaptWorkflow, n8nEnv, parseRunOutput } from '../../scripts/lib/n8n-runtime';
import { resultLines } from '../../scripts/lib/suites';

describe('parseRunOutput', () => {
	it('finds the run data after the task runner log lines, and ignores a log line after it', () => {
		const text = ['Task runner started', '{', '  "data": { "resultData": { "lastNodeExecuted": "Generate" } }', '}', 'Task runner stopped'].join('\n');
		expect(parseRunOutput(text)?.data?.resultData?.lastNodeExecuted).toBe('Generate');
	});

	it('is undefined without JSON', () => {
		expect(parseRunOutput('Execution was not successful\n')).toBeUndefined();
	});
});

describe('adaptWorkflow', () => {
	const workflow = {
		name: 'wf',
		nodes: [
			{ type: 'n8n-nodes-post-writer.postWriter', credentials: { postWriterApi: { id: 'x', name: 'X' } } },
			{ type: 'n8n-nodes-base.manualTrigger' },
		],
	};

	it('renames the package prefix and points the Post Writer nodes at the credential, on a copy', () => {
		const adapted = adaptWorkflow(workflow, { packageName: 'n8n-nodes-post-writer', typePrefix: 'CUSTOM', credential: { id: 'c1', name: 'Sandbox' } });
		expect(adapted.nodes.map((n) => n.type)).toEqual(['CUSTOM.postWriter', 'n8n-nodes-base.manualTrigger']);
		expect(adapted.nodes[0].credentials).toEqual({ postWriterApi: { id: 'c1', name: 'Sandbox' } });
		expect(workflow.nodes[0].type).toBe('n8n-nodes-post-writer.postWriter');
	});
});

describe('n8nEnv', () => {
	it('keeps n8n on loopback, without telemetry, with the runtime node first on PATH', () => {
		const env = n8nEnv('/tmp/user', { N8N_PORT: '5999' }, { nodeBin: '/cache/node24/bin/node' });
		expect(env).toMatchObject({ N8N_USER_FOLDER: '/tmp/user', N8N_PORT: '5999', N8N_DIAGNOSTICS_ENABLED: 'false', N8N_LISTEN_ADDRESS: '127.0.0.1', NO_PROXY: '127.0.0.1,localhost' });
		expect(env.PATH?.startsWith('/cache/node24/bin:')).toBe(true);
	});
});

describe('resultLines', () => {
	it('keeps the last line of each label', () => {
		expect(resultLines('a: 1 passed, 0 failed\nb: 2 passed, 1 failed\na: 3 passed, 0 failed\n')).toEqual([
			{ label: 'a', passed: 3, failed: 0 },
			{ label: 'b', passed: 2, failed: 1 },
		]);
	});
});

describe('platformOf (lock-platform-stubs)', () => {
	it('reads os, cpu and libc from a platform package name', () => {
		expect(platformOf('@unrs/resolver-binding-linux-x64-musl')).toEqual({ os: ['linux'], cpu: ['x64'], libc: ['musl'] });
		expect(platformOf('@unrs/resolver-binding-linux-arm-gnueabihf')).toEqual({ os: ['linux'], cpu: ['arm'], libc: ['glibc'] });
		expect(platformOf('@unrs/resolver-binding-android-arm-eabi')).toEqual({ os: ['android'], cpu: ['arm'] });
		expect(platformOf('@unrs/resolver-binding-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
		expect(platformOf('left-pad')).toBeUndefined();
	});
});
