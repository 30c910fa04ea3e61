/**
 * The operation catalogue: the single source of truth for every API v1 operation. Path, method,
 * scope, credit cost, input fields (with their validation rules and UI hints) and output shape live
 * in one file per resource beside this one; the client, the validator, the n8n node and the Zapier
 * app all derive from them. This file assembles them into OPERATIONS, in the catalogue's order,
 * and derives the types and look-ups the rest of the code uses (they come through index.ts).
 */
import type { Answer } from '../base';
import { ACCOUNT_OPERATIONS as account } from './account';
import { CALENDAR_OPERATIONS as calendar } from './calendar';
import { CREATION_OPERATIONS as creation } from './creation';
import { DRAFT_OPERATIONS as draft } from './draft';
import { INSPIRATION_OPERATIONS as inspiration } from './inspiration';
import { POST_OPERATIONS as post } from './post';
import type { OperationSpec, Resource, Typed } from './spec';
import { WRITING_PROFILE_OPERATIONS as writingProfile } from './writing-profile';

/** Every operation under its key. The order is the catalogue's (OPERATION_KEYS, the docs, the pickers). */
export const OPERATIONS = {
	generatePost: post.generatePost,
	analyzePost: post.analyzePost,
	rewritePost: post.rewritePost,
	predictVirality: post.predictVirality,
	listDrafts: draft.listDrafts,
	createDraft: draft.createDraft,
	listPosts: post.listPosts,
	getCalendar: calendar.getCalendar,
	searchInspirations: inspiration.searchInspirations,
	getAccountProfile: account.getAccountProfile,
	getCredits: account.getCredits,
	listWritingProfiles: writingProfile.listWritingProfiles,
	activateWritingProfile: writingProfile.activateWritingProfile,
	startPostCreation: creation.startPostCreation,
	preparePost: creation.preparePost,
	writePost: creation.writePost,
	validatePost: creation.validatePost,
	refinePost: creation.refinePost,
} as const;

export type Operations = typeof OPERATIONS;
export type OperationKey = keyof Operations;
export const OPERATION_KEYS = Object.keys(OPERATIONS) as OperationKey[];

type FieldValue<F> = F extends { type: 'integer' }
	? number
	: F extends { type: 'boolean' }
		? boolean
		: F extends { type: 'answers' }
			? Answer[]
			: string;

type FieldsOf<K extends OperationKey> = Operations[K]['fields'][number];

/** The input type of an operation, derived from its fields. */
export type InputOf<K extends OperationKey> = {
	[F in FieldsOf<K> as F extends { required: true } ? F['name'] : never]: FieldValue<F>;
} & {
	[F in FieldsOf<K> as F extends { required: true } ? never : F['name']]?: FieldValue<F>;
};

/** The output type of an operation (lists: the item array). */
export type OutputOf<K extends OperationKey> =
	Operations[K] extends Typed<infer O> ? O : never;

export type ItemOf<K extends OperationKey> = OutputOf<K> extends Array<infer T> ? T : OutputOf<K>;

export function getOperation(key: OperationKey): OperationSpec {
	return OPERATIONS[key];
}

export function isListOperation(key: OperationKey): boolean {
	return Boolean((OPERATIONS[key] as OperationSpec).list);
}

/** True when a call may spend credits (documented cost > 0, or undocumented). */
export function spendsCredits(key: OperationKey): boolean {
	const cost = (OPERATIONS[key] as OperationSpec).cost;
	return cost === null || cost > 0;
}

/** The credit cost of an operation as one sentence for a description, e.g. "Costs 1 credit." */
export function costSentence(key: OperationKey): string {
	const cost = (OPERATIONS[key] as OperationSpec).cost;
	if (cost === null) return 'May spend credits.';
	if (cost === 0) return 'Costs no credits.';
	return `Costs ${cost} credit${cost === 1 ? '' : 's'}.`;
}

/** Operations grouped by resource, in catalogue order. */
export function operationsByResource(): Map<Resource, OperationSpec[]> {
	const map = new Map<Resource, OperationSpec[]>();
	for (const key of OPERATION_KEYS) {
		const spec = OPERATIONS[key] as OperationSpec;
		const list = map.get(spec.resource) ?? [];
		list.push(spec);
		map.set(spec.resource, list);
	}
	return map;
}

