/**
 * Normalises successful responses to the shapes in types.ts, accepting the
 * plausible variants of everything the spec leaves "not shown".
 */
import type { OperationKey, OperationSpec } from './catalogue';
import { getOperation } from './catalogue';
import { MalformedResponseError, snippetOf } from './errors';
import { normaliseCalendar, normaliseList } from './lists';

import type { Obj } from './values';
import { isObj } from './values';

/** Unwraps `{data: {...}}` / `{result: {...}}` envelopes around a single object. */
function unwrap(value: unknown): Obj | undefined {
	if (!isObj(value)) return undefined;
	for (const k of ['data', 'result']) {
		const inner = value[k];
		if (isObj(inner) && Object.keys(value).every((key) => key === k || key === 'meta' || key === 'success' || key === 'ok')) return inner;
	}
	return value;
}

/** `creditsRemaining` from its plausible spellings. */
export function creditsRemainingOf(value: unknown): number | undefined {
	if (!isObj(value)) return undefined;
	const credits = value.credits;
	for (const v of [
		value.creditsRemaining,
		value.credits_remaining,
		value.remainingCredits,
		isObj(credits) ? credits.remaining : undefined,
		isObj(credits) ? credits.balance : undefined,
	]) {
		if (typeof v === 'number') return v;
	}
	return undefined;
}

function idOf(o: Obj, keys: string[]): string | undefined {
	for (const k of keys) {
		const v = o[k];
		if (typeof v === 'string' && v !== '') return v;
		if (typeof v === 'number') return String(v);
	}
	return undefined;
}

function normaliseItems(list: unknown, idKeys: string[]): Obj[] {
	const page = normaliseList<unknown>(list, []);
	return page.items.map((item, i) => {
		if (typeof item === 'string') return { id: String(i + 1), text: item };
		const o = isObj(item) ? item : { value: item };
		const id = idOf(o, ['id', ...idKeys]) ?? String(i + 1);
		return { ...o, id };
	});
}

function malformed(op: OperationSpec, value: unknown, what: string): never {
	throw new MalformedResponseError(
		`${op.method} ${op.path} answered without ${what}: "${snippetOf(value)}". This is a fault on the service side.`,
		{ operation: op.key, snippet: snippetOf(value) },
	);
}

/**
 * Normalises a successful (non-list) body for an operation. `input` supplies
 * fallbacks (the workflow id, the calendar dates).
 */
export function parseOutput(key: OperationKey, value: unknown, input: Obj): unknown {
	const op = getOperation(key);
	if (key === 'getCalendar') return normaliseCalendar(value, String(input.from), String(input.to));
	const body = unwrap(value) ?? {};
	const withCredits = (o: Obj): Obj => {
		const c = creditsRemainingOf(o);
		return c === undefined ? o : { ...o, creditsRemaining: c };
	};
	switch (key) {
		case 'generatePost': {
			const raw = body.proposals ?? body.posts ?? body.texts;
			if (!Array.isArray(raw)) malformed(op, value, 'a "proposals" list');
			const proposals = (raw as unknown[]).map((p) => (typeof p === 'string' ? p : isObj(p) ? String(p.text ?? p.content ?? '') : String(p)));
			return withCredits({ ...body, proposals, draftId: idOf(body, ['draftId', 'draft_id']) ?? (isObj(body.draft) ? idOf(body.draft, ['id']) : undefined) ?? null });
		}
		case 'rewritePost':
		case 'writePost':
		case 'refinePost': {
			const text = body.text ?? body.rewritten ?? body.content ?? body.post;
			if (typeof text !== 'string') malformed(op, value, 'a "text"');
			const out = withCredits({ ...body, text });
			if (op.resource === 'creation') out.workflowId = idOf(body, ['workflowId', 'workflow_id']) ?? input.workflowId;
			return out;
		}
		case 'predictVirality': {
			const score = body.score ?? body.viralityScore ?? body.virality;
			if (typeof score !== 'number') malformed(op, value, 'a numeric "score"');
			return withCredits({ ...body, score });
		}
		case 'getCredits': {
			const balance = [body.balance, body.credits, body.remaining].find((v) => typeof v === 'number');
			const history = normaliseList<Obj>(body.history ?? body.transactions ?? body.items ?? [], ['transactions']).items;
			return { ...body, balance: balance ?? creditsRemainingOf(body), history };
		}
		case 'getAccountProfile': {
			// `credits` as a number whatever its spelling, the active writing profile beside the list.
			const spellings = [body.credits, isObj(body.credits) ? body.credits.balance : undefined, body.creditBalance, body.balance];
			const balance = spellings.find((v) => typeof v === 'number') ?? creditsRemainingOf(body);
			const profiles = Array.isArray(body.writingProfiles) ? (body.writingProfiles as unknown[]).filter(isObj) : [];
			const active = profiles.find((p) => p.active === true);
			return {
				...body,
				...(body.id === undefined ? {} : { id: String(body.id) }),
				...(balance === undefined ? {} : { credits: balance }),
				activeWritingProfile: active ? { id: active.id, name: active.name } : null,
			};
		}
		case 'activateWritingProfile': {
			const profile = isObj(body.writingProfile) ? body.writingProfile : isObj(body.profile) ? body.profile : body;
			return { ...profile, id: idOf(profile, ['id', 'profileId']) ?? input.id, active: profile.active ?? true };
		}
		case 'startPostCreation': {
			const workflowId = idOf(body, ['workflowId', 'workflow_id']);
			if (!workflowId) malformed(op, value, 'a "workflowId"');
			return { ...body, workflowId, ideas: normaliseItems(body.ideas ?? body.items ?? [], ['ideaId', 'idea_id']) };
		}
		case 'preparePost': {
			return {
				...body,
				workflowId: idOf(body, ['workflowId', 'workflow_id']) ?? input.workflowId,
				questions: normaliseItems(body.questions ?? body.items ?? [], ['questionId', 'question_id']),
			};
		}
		case 'validatePost': {
			const verdict = isObj(body.verdict) ? body.verdict : typeof body.verdict === 'string' ? { summary: body.verdict } : {};
			const readyRaw = body.ready ?? verdict.ready;
			return {
				...body,
				workflowId: idOf(body, ['workflowId', 'workflow_id']) ?? input.workflowId,
				verdict,
				ready: readyRaw === true || readyRaw === 'true',
			};
		}
		default:
			return withCredits(body);
	}
}
