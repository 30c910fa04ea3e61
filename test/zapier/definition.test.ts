/** The app definition against Zapier's schema and publishing conventions, and against the catalogue it derives from. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRAND } from '../../shared/base';
import { OPERATIONS, getOperation } from '../../shared/catalogue';
import type { OperationKey } from '../../shared/catalogue';
import { App, ZAPIER_DIR, zapier } from './helpers';

const visible = (list: Action[]) => list.filter((a) => !a.display.hidden);
const words = (text: string) => text.trim().split(/\s+/).length;

type Action = { key: string; noun: string; display: { label?: string; description?: string; hidden?: boolean }; operation: any };
const triggers = Object.values(App.triggers as Record<string, Action>);
const creates = Object.values(App.creates as Record<string, Action>);
const searches = Object.values(App.searches as Record<string, Action>);
const all = [...triggers, ...creates, ...searches];

/** The creates built from one catalogue operation each, and the catalogue fields they replace by others. */
const FROM_CATALOGUE: Record<string, { op: OperationKey; replaced?: string[] }> = {
	generatePost: { op: 'generatePost' },
	analyzePost: { op: 'analyzePost' },
	rewritePost: { op: 'rewritePost', replaced: ['instruction'] },
	predictVirality: { op: 'predictVirality' },
	createDraft: { op: 'createDraft' },
	activateWritingProfile: { op: 'activateWritingProfile' },
	startPostCreation: { op: 'startPostCreation' },
	preparePost: { op: 'preparePost' },
	writePost: { op: 'writePost' },
	validatePost: { op: 'validatePost' },
	refinePost: { op: 'refinePost', replaced: ['instruction'] },
	searchInspirations: { op: 'searchInspirations' },
};

function fieldsOf(a: Action): any[] {
	return Array.isArray(a.operation?.inputFields) ? a.operation.inputFields : [];
}

function walk(value: unknown, visit: (v: unknown, path: string) => void, path = ''): void {
	visit(value, path);
	if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}[${i}]`));
	else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, visit, path ? `${path}.${k}` : k);
}

describe('package and platform', () => {
	const pkg = JSON.parse(readFileSync(join(ZAPIER_DIR, 'package.json'), 'utf8'));
	test('package name from BRAND, exact core pin, versions in the app', () => {
		expect(pkg.name).toBe(BRAND.zapierPackage);
		expect(pkg.private).toBe(true);
		expect(pkg.dependencies).toEqual({ 'zapier-platform-core': '19.1.0' });
		expect(App.version).toBe(pkg.version);
		expect(App.platformVersion).toBe('19.1.0');
		expect(zapier.version).toBe('19.1.0');
	});

	test("Zapier's schema accepts the app (the structural part of `zapier-platform validate`)", async () => {
		// createAppHandler is exported at run time but missing from the core's type declarations.
		const { createAppHandler } = zapier as unknown as { createAppHandler: (app: object) => (event: object) => Promise<{ results: unknown[] }> };
		const handler = createAppHandler(App);
		const { results } = await handler({ command: 'validate' });
		expect(results).toEqual([]);
	});
});

describe("Zapier's conventions", () => {
	test('keys are stable identifiers, labels are title case, nouns are set', () => {
		for (const a of all) {
			expect(a.key).toMatch(/^[a-zA-Z][a-zA-Z0-9_]*$/);
			expect(a.noun).toMatch(/^[A-Z][A-Za-z ]+$/);
			if (!a.display.hidden) expect(a.display.label).toMatch(/^([A-Z][A-Za-z]*|\(Guided\))( ([A-Z][A-Za-z]*|\(Guided\)))*$/);
		}
	});

	test('help text: "Triggers when…", "Finds…", a verb for creates, always ending with a period', () => {
		for (const t of triggers.filter((a) => !a.display.hidden)) expect(t.display.description).toMatch(/^Triggers when .+\.$/);
		for (const s of searches) expect(s.display.description).toMatch(/^Finds .+\.$/);
		for (const c of creates) expect(c.display.description).toMatch(/^(Creates|Generates|Analyzes|Rewrites|Predicts|Activates|Chooses|Writes|Checks|Corrects) .+\.$/);
		for (const a of all) for (const f of fieldsOf(a)) if (f.helpText) expect(`${a.key}.${f.key}: ${f.helpText}`).toMatch(/[.)]$/);
	});

	test('every trigger, create and search has a sample and labelled output fields', () => {
		for (const a of all) {
			expect(a.operation.sample).toEqual(expect.any(Object));
			expect(Object.keys(a.operation.sample).length).toBeGreaterThan(0);
			expect(a.operation.outputFields.length).toBeGreaterThan(0);
			for (const f of a.operation.outputFields) expect(`${a.key}.${f.key}: ${f.label ?? ''}`).toMatch(/: [A-Z]/);
		}
	});

	test('triggers return an id in their sample (the dedupe key)', () => {
		for (const t of triggers) expect(typeof t.operation.sample.id).toBe('string');
	});

	test('dates in samples are ISO 8601 with an offset', () => {
		for (const a of all) {
			walk(a.operation.sample, (v, path) => {
				if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) expect(`${a.key}.${path}=${v}`).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
			});
		}
	});

	test('no field asks for a typed id where a dropdown can serve', () => {
		// Ids a previous step returns and no list endpoint offers: only on the hidden creation steps, mapped, and saying so.
		const mapped = new Set(['workflowId', 'ideaId', 'questionId']);
		for (const a of all) {
			for (const f of [...fieldsOf(a), ...fieldsOf(a).flatMap((x) => x.children ?? [])]) {
				if (!/id$/i.test(f.key) && !/\bID\b/.test(f.label ?? '')) continue;
				if (mapped.has(f.key)) {
					expect(`${a.key} hidden=${a.display.hidden}`).toBe(`${a.key} hidden=true`);
					expect(`${a.key}.${f.key}: ${f.helpText}`).toMatch(/Map|returned by/);
				} else expect(`${a.key}.${f.key} dynamic=${f.dynamic}`).toMatch(/dynamic=(listWritingProfiles|listDrafts)\.id\.label$/);
			}
		}
	});

	test('paid actions return creditsRemaining', () => {
		for (const c of creates) {
			const source = FROM_CATALOGUE[c.key];
			if (!source || !((getOperation(source.op).cost ?? 0) > 0)) continue;
			expect(c.operation.sample.creditsRemaining).toEqual(expect.any(Number));
			expect(c.operation.outputFields).toContainEqual({ key: 'creditsRemaining', label: 'Credits Remaining', type: 'integer' });
		}
	});
});

describe('derived from the catalogue, not written twice', () => {
	test.each(Object.entries(FROM_CATALOGUE))('%s', (key, { op, replaced = [] }) => {
		const action = (App.creates as Record<string, Action>)[key] ?? (App.searches as Record<string, Action>)[key];
		const spec = getOperation(op);
		const fields = fieldsOf(action);
		for (const f of spec.fields) {
			if (replaced.includes(f.name)) {
				expect(fields.find((x) => x.key === f.name)).toBeUndefined();
				continue;
			}
			const field = fields.find((x) => x.key === f.name);
			expect(field).toBeDefined();
			expect(field.label).toBe(f.label);
			if (f.default !== undefined) expect(field.default).toBe(String(f.default));
			if (f.suggestions) expect(field.choices.map((c: any) => c.value)).toEqual(f.suggestions.map((s) => s.value));
		}
		for (const out of spec.outputFields) expect(action.operation.outputFields).toContainEqual(expect.objectContaining({ key: out.key, label: out.label }));
		expect(action.operation.sample).toEqual(expect.objectContaining(spec.sample));
	});

	test('every catalogue operation is offered somewhere', () => {
		const used = new Set<string>(Object.values(FROM_CATALOGUE).map((s) => s.op));
		// Read by triggers and searches rather than by one create each:
		for (const op of ['listDrafts', 'listPosts', 'getCalendar', 'getAccountProfile', 'getCredits', 'listWritingProfiles']) used.add(op);
		expect([...used].sort()).toEqual(Object.keys(OPERATIONS).sort());
	});
});

/**
 * Zapier's integration checks and publishing requirements that can be judged
 * offline, one test each (docs/zapier-review.md lists them with their verdicts).
 */
describe("Zapier's publishing review", () => {
	const auth = App.authentication as any;
	const searchOrCreates = ((App as any).searchOrCreates ?? {}) as Record<string, { key: string; search: string; create: string; display: { label: string; description: string } }>;

	test('D001: the API key is asked once, in the connection, never in a trigger or action', () => {
		for (const a of all) for (const f of fieldsOf(a)) expect(`${a.key}.${f.key} ${f.label}`).not.toMatch(/api.?key|token|secret|password|bearer/i);
		expect(auth.fields.find((f: any) => f.key === 'apiKey')).toMatchObject({ type: 'password', required: true });
	});

	test('D002: every connection field has help text; the API key links straight to the page where keys are made', () => {
		for (const f of auth.fields) expect(`${f.key}: ${f.helpText ?? ''}`).toMatch(/: .{20,}\.$/s);
		expect(BRAND.keysUrl).toMatch(/^https:\/\/[^\s]+$/);
		expect(auth.fields.find((f: any) => f.key === 'apiKey').helpText).toContain(`](${BRAND.keysUrl})`);
	});

	test('the connection has a test and a label that is not the key', () => {
		expect(typeof auth.test).toBe('function');
		expect(auth.connectionLabel).toMatch(/\{\{bundle\.inputData\.\w+\}\}/);
		expect(auth.connectionLabel).not.toMatch(/authData|apiKey/);
	});

	test('D004: no visible input field asks for an id to type or map; ids come from dropdowns', () => {
		for (const a of visible(all)) {
			for (const f of [...fieldsOf(a), ...fieldsOf(a).flatMap((x) => x.children ?? [])]) {
				if (!/id$/i.test(f.key) && !/\bID\b/.test(f.label ?? '')) continue;
				expect(`${a.key}.${f.key} dynamic=${f.dynamic}`).toMatch(/dynamic=\w+\.id\.label$/);
			}
		}
	});

	test('the creation steps are hidden (their ids have no list to pick from); Create Guided Post does the whole workflow', () => {
		for (const key of ['startPostCreation', 'preparePost', 'writePost', 'validatePost', 'refinePost']) expect((App.creates as any)[key].display.hidden).toBe(true);
		expect((App.creates as any).createPostGuided.display.hidden).toBeFalsy();
	});

	test('dynamic dropdowns point at hidden triggers with an id and a label; their search at an existing search', () => {
		for (const a of all) {
			for (const f of fieldsOf(a)) {
				if (!f.dynamic) continue;
				const [key, id, label] = f.dynamic.split('.');
				const source = (App.triggers as any)[key];
				expect(source).toBeDefined();
				expect(source.display.hidden).toBe(true);
				expect(source.operation.sample).toHaveProperty(id);
				expect(source.operation.sample).toHaveProperty(label);
				if (f.search) expect((App.searches as any)[f.search.split('.')[0]]).toBeDefined();
			}
		}
	});

	test('dropdown triggers page (canPaginate)', () => {
		for (const t of triggers.filter((x) => x.display.hidden)) expect(`${t.key} canPaginate=${t.operation.canPaginate}`).toBe(`${t.key} canPaginate=true`);
	});

	test('D009: every search has at least one search field', () => {
		for (const s of searches) expect(`${s.key}: ${fieldsOf(s).length}`).toMatch(/: [1-9]/);
	});

	test('input fields: unique keys and labels per step, and help text on every visible one', () => {
		for (const a of all) {
			const fields = fieldsOf(a);
			expect(new Set(fields.map((f) => f.key)).size).toBe(fields.length);
			expect(new Set(fields.map((f) => f.label)).size).toBe(fields.length);
			if (!a.display.hidden) for (const f of fields) expect(`${a.key}.${f.key}: ${f.helpText ?? ''}`).toMatch(/: \S/);
		}
	});

	test('copy: trigger nouns are one word, other nouns at most two', () => {
		for (const t of triggers) expect(`${t.key}: ${t.noun}`).toMatch(/: [A-Z][a-z]+$/);
		for (const a of [...creates, ...searches]) expect(`${a.key}: ${a.noun}`).toMatch(/: [A-Z][a-z]+( [A-Z][a-z]+)?$/);
	});

	test('copy: descriptions are short (a handful of words beyond the verb, the cost included), one claim each', () => {
		for (const a of [...all, ...Object.values(searchOrCreates)]) {
			const text = a.display.description as string;
			expect(`${a.key} (${words(text)} words): ${text}`).toMatch(/^\S+ \(([1-9]|1[0-2]) words\)/);
		}
	});

	test('copy: nothing the user reads says "not documented", promises an order the API does not, or names Zapier', () => {
		for (const a of [...all, ...Object.values(searchOrCreates)]) {
			const texts = [a.display.label, a.display.description, ...fieldsOf(a as Action).flatMap((f) => [f.label, f.helpText])].filter(Boolean).join(' | ');
			expect(`${a.key}: ${texts}`).not.toMatch(/not documented|newest first|most liked first|oldest first|\bZapier\b/i);
		}
	});

	test('polling triggers return the newest first (checked per trigger in triggers.test.ts and the sandbox test)', () => {
		// Upcoming Scheduled Draft sorts by the time furthest ahead (the last to enter the window); New Published Post reads the newest first.
		const source = readFileSync(join(ZAPIER_DIR, '..', 'shared', 'triggers', 'events.ts'), 'utf8');
		expect(source).toMatch(/latestScheduledFirst\(read\.entries\)/);
	});

	test('search-or-create: Find Draft + Create Draft, under the search key', () => {
		expect(searchOrCreates.listDrafts).toMatchObject({ key: 'listDrafts', search: 'listDrafts', create: 'createDraft' });
		for (const pair of Object.values(searchOrCreates)) {
			expect(pair.key).toBe(pair.search);
			expect((App.searches as any)[pair.search]).toBeDefined();
			expect((App.creates as any)[pair.create]).toBeDefined();
			expect(pair.display.label).toMatch(/^Find or Create [A-Z]/);
		}
	});

	test('creates return what they created, and the picked draft (samples and output fields)', () => {
		const c = App.creates as any;
		expect(c.createDraft.operation.sample).toEqual(expect.objectContaining({ id: expect.any(String), text: expect.any(String) }));
		expect(c.generatePost.operation.sample).toEqual(expect.objectContaining({ draftId: expect.any(String), proposals: expect.any(Array) }));
		expect(c.activateWritingProfile.operation.sample).toEqual(expect.objectContaining({ id: expect.any(String), active: true }));
		for (const key of ['analyzePost', 'rewritePost', 'predictVirality']) {
			expect(c[key].operation.outputFields).toEqual(expect.arrayContaining([{ key: 'draftId', label: 'Draft ID' }, { key: 'draftText', label: 'Draft Text' }]));
			expect(c[key].operation.sample).toEqual(expect.objectContaining({ draftId: expect.any(String), draftText: expect.any(String) }));
		}
	});

	describe('app metadata (zapier/app-metadata.json)', () => {
		const meta = JSON.parse(readFileSync(join(ZAPIER_DIR, 'app-metadata.json'), 'utf8'));

		test('title is the brand, without "Zapier", "API" or "Integration"', () => {
			expect(meta.title).toBe(BRAND.displayName);
			expect(meta.title).not.toMatch(/zapier|\bapi\b|integration/i);
		});

		test('description: "<Name> is a…", one sentence of at most 140 characters, never says Zapier', () => {
			expect(meta.description.startsWith(`${BRAND.displayName} is a`)).toBe(true);
			expect(meta.description.length).toBeLessThanOrEqual(140);
			expect(meta.description).toMatch(/^[^.]+\.$/);
			expect(meta.description).not.toMatch(/zapier/i);
		});

		test('a category, a homepage, and the keys page of BRAND', () => {
			expect(typeof meta.category).toBe('string');
			expect(meta.category.length).toBeGreaterThan(0);
			expect(meta.homepage).toMatch(/^https:\/\//);
			expect(meta.apiKeysPage).toBe(BRAND.keysUrl);
		});

		test('logo: a square PNG of at least 256 × 256 pixels, in the repository', () => {
			const png = readFileSync(join(ZAPIER_DIR, meta.logo));
			expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
			expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
			const width = png.readUInt32BE(16);
			const height = png.readUInt32BE(20);
			expect(width).toBe(height);
			expect(width).toBeGreaterThanOrEqual(256);
		});
	});

	test('docs/zapier-review.md names every check tested here, and no verdict fails', () => {
		const review = readFileSync(join(ZAPIER_DIR, '..', 'docs', 'zapier-review.md'), 'utf8');
		for (const id of ['D001', 'D002', 'D004', 'D009']) expect(review).toContain(id);
		const verdicts = [...review.matchAll(/^\|[^|\n]+\|[^|\n]+\| \*\*(\w[\w -]*)\*\* \|/gm)].map((m) => m[1]);
		expect(verdicts.length).toBeGreaterThan(25);
		for (const v of verdicts) expect(['pass', 'not judgeable offline']).toContain(v);
	});
});
