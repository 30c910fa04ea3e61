/** The app definition against Zapier's schema and publishing conventions, and against the catalogue it derives from. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRAND } from '../../shared/brand';
import { OPERATIONS, getOperation } from '../../shared/catalogue';
import type { OperationKey } from '../../shared/catalogue';
import { App, ZAPIER_DIR, zapier } from './helpers';

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
	return Array.isArray(a.operation.inputFields) ? a.operation.inputFields : [];
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
		// Ids a previous step returns and no list endpoint offers: they are mapped, and say so.
		const mapped = new Set(['workflowId', 'ideaId', 'questionId']);
		for (const a of all) {
			for (const f of [...fieldsOf(a), ...fieldsOf(a).flatMap((x) => x.children ?? [])]) {
				if (!/id$/i.test(f.key) && !/\bID\b/.test(f.label ?? '')) continue;
				if (mapped.has(f.key)) expect(`${a.key}.${f.key}: ${f.helpText}`).toMatch(/Map|returned by/);
				else expect(`${a.key}.${f.key} dynamic=${f.dynamic}`).toMatch(/dynamic=(listWritingProfiles|listDrafts)\.id\.label$/);
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
