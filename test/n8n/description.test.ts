/**
 * The static side of the package: parameters derived from the catalogue,
 * every operation routed, the credential, icons, codex files, package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { INode, INodeParameters, INodeProperties, INodeTypes, IWorkflowDataProxyAdditionalKeys } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { PostWriterApi } from '../../n8n/credentials/PostWriterApi.credentials';
import { PostWriter } from '../../n8n/nodes/PostWriter/PostWriter.node';
import { compareLabels } from '../../n8n/nodes/PostWriter/helpers/wording';
import { PostWriterTrigger } from '../../n8n/nodes/PostWriterTrigger/PostWriterTrigger.node';
import { BRAND } from '../../shared/base';
import { OPERATION_KEYS, getOperation, spendsCredits, normaliseBaseUrl } from '../../shared/catalogue';
import { MILESTONE_METRICS, OTHER_METRIC, TRIGGER_KEYS, getTrigger } from '../../shared/triggers';

const ROOT = path.resolve(__dirname, '../..');
const node = new PostWriter().description;
const trigger = new PostWriterTrigger().description;
const credential = new PostWriterApi();
const PACKAGE_DIR = path.join(ROOT, 'n8n');
const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));

function shownFor(resource: string, operation: string): INodeProperties[] {
	return node.properties.filter((p) => {
		const show = p.displayOptions?.show;
		return show?.resource?.includes(resource) && show?.operation?.includes(operation);
	});
}

function namesIn(props: INodeProperties[]): string[] {
	return props.flatMap((p) => [p.name, ...(p.type === 'collection' ? ((p.options ?? []) as INodeProperties[]).map((o) => o.name) : [])]);
}

describe('Post Writer node description', () => {
	test('names and flags come from the brand; usable as a tool; resource → operation', () => {
		expect(node.name).toBe(BRAND.n8nNodeName);
		expect(node.displayName).toBe(BRAND.displayName);
		expect(node.usableAsTool).toBe(true);
		expect(node.credentials).toEqual([{ name: BRAND.n8nCredentialName, required: true }]);
		expect(node.properties[0].name).toBe('resource');
	});

	test.each(OPERATION_KEYS)('catalogue operation %s has a picker entry and every one of its fields as a parameter', (key) => {
		const spec = getOperation(key);
		const picker = node.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(spec.resource));
		expect((picker?.options ?? []).map((o) => (o as { value: string }).value)).toContain(spec.action);
		const names = namesIn(shownFor(spec.resource, spec.action));
		for (const field of spec.fields) expect(names).toContain(field.name);
		for (const prop of shownFor(spec.resource, spec.action)) {
			const field = spec.fields.find((f) => f.name === prop.name);
			if (field) expect(prop.displayName).toBe(field.label);
		}
		expect(names.includes('minCreditsToKeep')).toBe(spendsCredits(key));
	});

	test('types follow the catalogue: integer bounds, booleans, datetimes, suggestions with Custom, dynamic dropdowns', () => {
		const generate = shownFor('post', 'generate');
		expect(generate.find((p) => p.name === 'numProposals')).toMatchObject({ type: 'number', default: 1, typeOptions: { minValue: 1, maxValue: 10 } });
		expect(generate.find((p) => p.name === 'saveDraft')).toMatchObject({ type: 'boolean', default: true });
		expect(generate.find((p) => p.name === 'scheduledAt')).toMatchObject({ type: 'dateTime' });
		const instruction = shownFor('post', 'rewrite').find((p) => p.name === 'instruction');
		expect(instruction?.type).toBe('options');
		expect((instruction?.options ?? []).map((o) => (o as { name: string }).name)).toEqual(expect.arrayContaining(['Punchier', 'Shorter', 'Custom']));
		const profile = shownFor('writingProfile', 'activate').find((p) => p.name === 'id');
		expect(profile?.type).toBe('resourceLocator');
		expect(profile?.modes?.[0].typeOptions?.searchListMethod).toBe('listWritingProfiles');
		expect(Object.keys(new PostWriter().methods.listSearch)).toEqual(['listWritingProfiles']);
		for (const op of ['prepare', 'write', 'validate', 'refine']) {
			expect(shownFor('creation', op).find((p) => p.name === 'workflowId')?.default).toBe('={{ $json.workflowId }}');
		}
	});

	test('node-only operations: Create Guided Post, Get Many with Return All / Limit / Simplify', () => {
		const guided = namesIn(shownFor('creation', 'createGuided'));
		expect(guided).toEqual(
			expect.arrayContaining(['topic', 'context', 'preferences', 'language', 'ideaSelection', 'ideaIndex', 'ideaMatch', 'answers', 'maxRefinements']),
		);
		expect(namesIn(shownFor('post', 'getMany'))).toEqual(['returnAll', 'limit', 'simplify', 'options', 'maxQuotaWait']);
	});

	test('one-sentence descriptions have no final period, as n8n writes them', () => {
		const all = node.properties.flatMap((p) => [p, ...((p.type === 'collection' ? p.options : []) as INodeProperties[])]);
		for (const p of all) {
			if (p.description && !/\.\s+[A-Z]/.test(p.description)) expect(p.description.endsWith('.')).toBe(false);
		}
	});

	test("labels sort as n8n's linter sorts them (localeCompare), in both nodes", () => {
		// compareLabels stands in for localeCompare at load time; every label list the nodes show must sort the same both ways.
		const lists: string[][] = [];
		const walk = (props: readonly unknown[]): void => {
			const labels = props.map((p) => {
				const o = p as { name?: string; displayName?: string; values?: unknown[]; options?: unknown[] };
				if (Array.isArray(o.values)) walk(o.values);
				if (Array.isArray(o.options)) walk(o.options);
				return o.displayName ?? o.name;
			});
			const strings = labels.filter((l): l is string => typeof l === 'string');
			if (strings.length > 1) lists.push(strings);
		};
		walk(node.properties);
		walk(trigger.properties);
		expect(lists.length).toBeGreaterThan(20);
		for (const labels of lists) {
			expect([...labels].sort(compareLabels)).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
		}
		expect(compareLabels('Post', 'post')).toBe(1);
		expect(['b', 'B', 'a', 'A b', 'Ab'].sort(compareLabels)).toEqual(['b', 'B', 'a', 'A b', 'Ab'].sort((a, b) => a.localeCompare(b)));
	});
});

describe('Post Writer Trigger description', () => {
	test("polling trigger with the trigger catalogue's events, sorted by name; no tool use", () => {
		expect(trigger.name).toBe(BRAND.n8nTriggerName);
		expect(trigger.displayName).toBe(`${BRAND.displayName} Trigger`);
		expect(trigger.polling).toBe(true);
		expect(trigger.inputs).toEqual([]);
		const event = trigger.properties.find((p) => p.name === 'event');
		const byName = TRIGGER_KEYS.map((key) => [getTrigger(key).name, key]).sort((a, b) => a[0].localeCompare(b[0]));
		expect(byName).toHaveLength(5);
		expect((event?.options ?? []).map((o) => [(o as { name: string }).name, (o as { value: string }).value])).toEqual(byName);
		expect(trigger).not.toHaveProperty('usableAsTool');
	});

	test("the milestone's metric options are the core's metrics plus 'Other Metric'", () => {
		const metric = trigger.properties.find((p) => p.name === 'metric');
		const values = (metric?.options ?? []).map((o) => (o as { value: string }).value).sort();
		expect(values).toEqual([...MILESTONE_METRICS.map((m) => m.value), OTHER_METRIC].sort());
		for (const m of MILESTONE_METRICS) expect(metric?.options).toContainEqual(expect.objectContaining({ name: m.label, value: m.value }));
	});

	test.each(TRIGGER_KEYS.map((key) => [key, getTrigger(key).name]))("the subtitle of event '%s' is its name, by n8n's expression engine", (value, name) => {
		const node: INode = { id: 't', name: 'Trigger', type: 'x.trigger', typeVersion: 1, position: [0, 0], parameters: { event: value } };
		const type = new PostWriterTrigger();
		const nodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) } as unknown as INodeTypes;
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		expect(workflow.expression.getSimpleParameterValue(node, String(trigger.subtitle), 'manual', {} as IWorkflowDataProxyAdditionalKeys)).toBe(name);
	});

	test('each event shows only its own options', () => {
		const shown = (event: string) =>
			trigger.properties.filter((p) => p.name !== 'event' && (p.displayOptions?.show?.event as string[] | undefined)?.includes(event)).map((p) => p.name);
		expect(shown('newPublishedPost')).toEqual([]);
		expect(shown('newDraft')).toEqual([]);
		expect(shown('upcomingScheduledDraft')).toEqual(['notifyAmount', 'notifyUnit']);
		expect(shown('postMetricMilestone')).toEqual(['metric', 'metricName', 'threshold', 'watchDays']);
		expect(shown('creditsLow')).toEqual(['threshold']);
	});

	test("the two 'Threshold' parameters keep their own defaults, as n8n resolves them", () => {
		const resolve = (event: string) =>
			NodeHelpers.getNodeParameters(trigger.properties, { event } as INodeParameters, true, false, { typeVersion: 1 }, null) as INodeParameters;
		expect(resolve('creditsLow')).toMatchObject({ event: 'creditsLow', threshold: 10 });
		expect(resolve('postMetricMilestone')).toMatchObject({ event: 'postMetricMilestone', metric: 'likes', threshold: 100, watchDays: 7 });
		expect(resolve('newDraft')).not.toHaveProperty('threshold');
	});
});

describe('credential', () => {
	test('API key (password) and base URL; generic Bearer header', () => {
		expect(credential.name).toBe(BRAND.n8nCredentialName);
		expect(credential.displayName).toBe(`${BRAND.displayName} API`);
		expect(credential.documentationUrl).toBe('https://github.com/post-writer/n8n-nodes-post-writer/tree/main/n8n#credentials');
		const [apiKey, baseUrl] = credential.properties;
		expect(apiKey).toMatchObject({ name: 'apiKey', typeOptions: { password: true }, required: true });
		expect(baseUrl).toMatchObject({ name: 'baseUrl', default: BRAND.defaultBaseUrl });
		expect(credential.authenticate).toEqual({ type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } } });
	});

	test('the test calls /account/profile and tells what to do on 401 and 403', () => {
		expect(credential.test.request).toMatchObject({ url: '/account/profile', method: 'GET' });
		const rules = credential.test.rules ?? [];
		const byCode = Object.fromEntries(rules.map((r) => [(r.properties as { value: number }).value, (r.properties as { message: string }).message]));
		expect(byCode[401]).toMatch(/Create a new key in Post Writer under Settings › API keys/);
		expect(byCode[403]).toMatch(/account:read/);
	});

	test.each([
		'https://app.example.com/api/v1',
		'https://app.example.com/api/v1//',
		'https://app.example.com',
		'https://app.example.com/',
		'https://app.example.com/api',
		'https://app.example.com/api/',
		'https://app.example.com/api/v1/generate',
		'  https://app.example.com/base/api/v1  ',
		'https://app.example.com/base',
		'http://localhost:4010',
		'http://127.0.0.1:4010/api/v1',
	])('the test request goes to the Base URL the node uses: %s', (baseUrl) => {
		// Evaluated by n8n-workflow's own expression engine, as n8n does before the test request.
		const node: INode = { id: 'c', name: 'Credential', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} };
		const type = { description: { properties: [] } };
		const nodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) } as unknown as INodeTypes;
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const resolved = workflow.expression.getSimpleParameterValue(node, String(credential.test.request.baseURL), 'manual', {
			$credentials: { baseUrl },
		} as IWorkflowDataProxyAdditionalKeys);
		expect(resolved).toBe(normaliseBaseUrl(baseUrl));
	});
});

describe('package', () => {
	test('community package shape: keyword, MIT, no dependencies, n8n-workflow the only peer', () => {
		expect(pkg.name).toBe(BRAND.n8nPackage);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies)).toEqual(['n8n-workflow']);
		expect(pkg.files).toEqual(['dist']);
		expect(fs.existsSync(path.join(PACKAGE_DIR, 'LICENSE'))).toBe(true);
		expect(fs.existsSync(path.join(PACKAGE_DIR, 'README.md'))).toBe(true);
		expect(pkg.n8n.strict).toBe(true);
		expect(fs.readFileSync(path.join(PACKAGE_DIR, 'eslint.config.mjs'), 'utf8').replace(/\s+/g, ' ').trim()).toBe(
			"import { config } from '@n8n/node-cli/eslint'; export default config;",
		);
	});

	test('every n8n entry has its source, its icons (light and dark) and, for nodes, a codex file', () => {
		for (const entry of [...pkg.n8n.credentials, ...pkg.n8n.nodes] as string[]) {
			const source = path.join(PACKAGE_DIR, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			expect(fs.existsSync(source)).toBe(true);
			const dir = path.dirname(source);
			for (const icon of ['postWriter.svg', 'postWriter.dark.svg']) {
				expect(fs.readFileSync(path.join(dir, icon), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
			}
			if (entry.endsWith('.node.js')) {
				const codex = JSON.parse(fs.readFileSync(source.replace(/\.ts$/, '.json'), 'utf8'));
				const description = entry.includes('Trigger') ? trigger : node;
				expect(codex.node).toBe(`${BRAND.n8nPackage}.${description.name}`);
			}
		}
	});

	test('node, credential and core code imports nothing but n8n-workflow and relative paths', () => {
		const files: string[] = [];
		const walk = (dir: string) => {
			for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
				const p = path.join(dir, e.name);
				if (e.isDirectory()) walk(p);
				else if (p.endsWith('.ts')) files.push(p);
			}
		};
		for (const dir of ['n8n/nodes', 'n8n/credentials', 'shared']) walk(path.join(ROOT, dir));
		expect(files.length).toBeGreaterThan(40);
		for (const file of files) {
			const source = fs.readFileSync(file, 'utf8');
			// node:crypto (allowed by n8n's no-restricted-imports) only for the digest of the pacing registry's keys.
			for (const m of source.matchAll(/^(?:import|export)\b[^;]*? from '([^']+)';/gms)) {
				const allowed = file.endsWith('transport/index.ts') ? /: (n8n-workflow|node:crypto|\.{1,2}\/.*)$/ : /: (n8n-workflow|\.{1,2}\/.*)$/;
				expect(`${file}: ${m[1]}`).toMatch(allowed);
			}
			expect(source).not.toMatch(/\/sdk['/]/);
			expect(source).not.toMatch(/eslint-disable/);
		}
	});
});
