/**
 * The catalogue against the spec, written out by hand from docs/api-v1.md:
 * the sandbox reads its routes and scopes from the catalogue, so a mistake
 * there could never fail an integration test. This table can.
 */
import { OPERATIONS, OPERATION_KEYS, spendsCredits } from '../../../shared/catalogue';

// [method, path, scope, cost (null: the spec does not say)]
const SPEC: Record<string, [string, string, string, number | null]> = {
	generatePost: ['POST', '/generate', 'posts:generate', 1],
	analyzePost: ['POST', '/analyze', 'posts:generate', 1],
	rewritePost: ['POST', '/rewrite', 'posts:generate', 1],
	predictVirality: ['POST', '/virality', 'posts:generate', 0],
	listDrafts: ['GET', '/drafts', 'posts:read', 0],
	createDraft: ['POST', '/drafts', 'posts:write', 0],
	listPosts: ['GET', '/posts', 'posts:read', 0],
	getCalendar: ['GET', '/calendar', 'posts:read', 0],
	searchInspirations: ['GET', '/inspirations', 'posts:read', 0],
	getAccountProfile: ['GET', '/account/profile', 'account:read', 0],
	getCredits: ['GET', '/credits', 'account:read', 0],
	listWritingProfiles: ['GET', '/writing-profiles', 'account:read', 0],
	activateWritingProfile: ['POST', '/writing-profiles/:id/activate', 'account:write', 0],
	startPostCreation: ['POST', '/creation/ideas', 'posts:generate', null],
	preparePost: ['POST', '/creation/prepare', 'posts:generate', null],
	writePost: ['POST', '/creation/write', 'posts:generate', null],
	validatePost: ['POST', '/creation/validate', 'posts:generate', null],
	refinePost: ['POST', '/creation/refine', 'posts:generate', null],
};

test('the catalogue covers exactly the operations of the spec', () => {
	expect([...OPERATION_KEYS].sort()).toEqual(Object.keys(SPEC).sort());
});

test.each(Object.entries(SPEC))('%s: method, path, scope and cost', (key, [method, path, scope, cost]) => {
	const op = OPERATIONS[key as keyof typeof OPERATIONS];
	expect([op.method, op.path, op.scope, op.cost]).toEqual([method, path, scope, cost]);
	// Undocumented cost counts as possibly spending (guards the credit floor and retries).
	expect(spendsCredits(key as keyof typeof OPERATIONS)).toBe(cost === null || cost > 0);
});

test('scheduling needs posts:schedule on top of the operation scope', () => {
	for (const key of ['generatePost', 'createDraft'] as const) {
		expect(OPERATIONS[key].fields.find((f) => f.name === 'scheduledAt')?.scope).toBe('posts:schedule');
	}
});

test('every operation that sets a path parameter declares it as a path field', () => {
	for (const key of OPERATION_KEYS) {
		const op = OPERATIONS[key];
		const params = [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
		expect(op.fields.filter((f) => f.in === 'path').map((f) => f.name)).toEqual(params);
	}
});
