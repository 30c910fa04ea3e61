/**
 * Normalises successful responses to the shapes in types.ts, accepting the
 * plausible variants of everything the spec leaves "not shown".
 */
import type { OperationKey, OperationSpec } from '../catalogue';
import { getOperation } from '../catalogue';
import { MalformedResponseError, snippetOf } from '../errors';
import { normaliseCalendar, normaliseList } from '../lists';
import type { RecordKind } from './specs';
import { keyOf } from './field-reader';
import { readCalendarEntry, readCredits, readCreditTransaction, readDraft, readPost } from './post-records';
import { readAccountProfile, readIdea, readInspiration, readQuestion, readVerdict, readWritingProfile } from './account-records';
import type { Obj } from '../base';
import { isObj } from '../base';

/** The reader of each record kind, by kind. */
export const RECORD_READERS: Readonly<Record<RecordKind, (raw: unknown) => Obj>> = {
	post: readPost,
	draft: readDraft,
	writingProfile: readWritingProfile,
	inspiration: readInspiration,
	accountProfile: readAccountProfile,
	credits: readCredits,
	creditTransaction: readCreditTransaction,
	calendarEntry: readCalendarEntry,
	idea: (raw) => readIdea(raw),
	question: (raw) => readQuestion(raw),
	verdict: readVerdict,
};

/** The record kind of each list operation's items. */
const LIST_RECORDS: Partial<Record<OperationKey, RecordKind>> = {
	listDrafts: 'draft',
	listPosts: 'post',
	searchInspirations: 'inspiration',
	listWritingProfiles: 'writingProfile',
};

/** Reads the items of a list operation with the reader of their kind (every field kept, see post-records.ts). */
export function readListItems(key: OperationKey, items: readonly unknown[]): Obj[] {
	const kind = LIST_RECORDS[key];
	const read = kind ? RECORD_READERS[kind] : (item: unknown) => (isObj(item) ? item : { value: item });
	return items.map((item) => read(item));
}

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

/** A list of creation items (ideas, questions), any list shape, each read; an item without an id gets its position. */
function readItems<T>(list: unknown, read: (raw: unknown, position: number) => T): T[] {
	return normaliseList<unknown>(list, []).items.map((item, i) => read(item, i + 1));
}

/** The fields of a verdict given at the top of the validate answer rather than under `verdict`. */
const VERDICT_FIELDS = ['score', 'issues', 'suggestions', 'problems', 'recommendations', 'summary', 'feedback'];

const WORKFLOW_ID_KEYS = ['workflowId', 'workflow_id', 'workflowID'];

/**
 * The operation's labelled output fields under their labelled names: a key
 * that differs only by its casing (`credits_remaining`, `DraftId`) is renamed,
 * when the labelled name is not there already. Values are not touched.
 */
function labelledNames(body: Obj, op: OperationSpec): Obj {
	const wanted = op.outputFields.map((f) => f.key.split(/__|\[\]/)[0]).filter((k) => !(k in body));
	if (wanted.length === 0) return body;
	const out: Obj = {};
	for (const [k, v] of Object.entries(body)) {
		const name = wanted.find((w) => keyOf(w) === keyOf(k) && !(w in out));
		out[name ?? k] = v;
	}
	return out;
}

/** The object without the given keys (a synonym whose value was taken under its labelled name). */
function withoutKeys(o: Obj, keys: readonly string[]): Obj {
	return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
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
	if (key === 'getCalendar') return normaliseCalendar(value, String(input.from), String(input.to), readCalendarEntry);
	const body = labelledNames(unwrap(value) ?? {}, op);
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
			if (op.resource === 'creation') return { ...withoutKeys(out, WORKFLOW_ID_KEYS), workflowId: idOf(body, WORKFLOW_ID_KEYS) ?? input.workflowId };
			return out;
		}
		case 'predictVirality': {
			const score = body.score ?? body.viralityScore ?? body.virality;
			if (typeof score !== 'number') malformed(op, value, 'a numeric "score"');
			return withCredits({ ...body, score });
		}
		case 'createDraft':
			return readDraft(body);
		case 'getCredits': {
			const credits = readCredits(body);
			return { ...credits, balance: credits.balance ?? creditsRemainingOf(body) };
		}
		case 'getAccountProfile': {
			// `credits` as a number whatever its spelling, the active writing profile beside the list.
			const profile = readAccountProfile(body);
			const balance = profile.credits ?? creditsRemainingOf(body);
			return balance === undefined ? profile : { ...profile, credits: balance };
		}
		case 'activateWritingProfile': {
			const profile = readWritingProfile(body);
			return { ...profile, id: profile.id ?? input.id, active: profile.active ?? true };
		}
		case 'startPostCreation': {
			const workflowId = idOf(body, WORKFLOW_ID_KEYS);
			if (!workflowId) malformed(op, value, 'a "workflowId"');
			const { ideas, items, ...rest } = body;
			return { workflowId, ideas: readItems(ideas ?? items ?? [], readIdea), ...withoutKeys(rest, WORKFLOW_ID_KEYS) };
		}
		case 'preparePost': {
			const { questions, items, ...rest } = body;
			return {
				workflowId: idOf(body, WORKFLOW_ID_KEYS) ?? input.workflowId,
				questions: readItems(questions ?? items ?? [], readQuestion),
				...withoutKeys(rest, WORKFLOW_ID_KEYS),
			};
		}
		case 'validatePost': {
			// The verdict under `verdict` (an object or a text), or its fields at the top of the answer.
			const given = body.verdict ?? body.validation ?? body.evaluation;
			const topFields = Object.fromEntries(Object.entries(body).filter(([k]) => VERDICT_FIELDS.includes(k)));
			const verdict = readVerdict(isObj(given) || typeof given === 'string' ? given : topFields);
			const top = readVerdict(body);
			const readyRaw = top.ready ?? verdict.ready;
			const rest = withoutKeys(body, [...WORKFLOW_ID_KEYS, 'verdict', 'ready', 'is_ready', 'isReady']);
			return {
				...rest,
				workflowId: idOf(body, WORKFLOW_ID_KEYS) ?? input.workflowId,
				verdict,
				ready: readyRaw === true,
			};
		}
		default:
			return withCredits(body);
	}
}
