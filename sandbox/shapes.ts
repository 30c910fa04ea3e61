/**
 * Record shapes of the sandbox (option `recordShape`). The spec shows no
 * record shapes, so a real service may make other plausible choices than the
 * sandbox's own; these modes serve the same data as two such services would,
 * to prove that the client reads them all (shared/records/post-records.ts):
 *
 * - `native` (default): the shapes in README.md, camelCase, ISO 8601 dates.
 * - `snake`: every key of every 2xx body in snake_case, every date as epoch
 *   seconds (a number).
 * - `nested`: each record nested under a key (`data` for list items and
 *   calendar entries, `user` for the account, `credits` for the balance,
 *   `draft`/`writingProfile` for single records), common synonyms for the
 *   labelled fields (`content`, `body`, `publishDate`, `scheduledFor`,
 *   `reposts`, `likeCount`, `fullName`, `title`, `isActive`…), an author as
 *   an object, issues as objects, every date as epoch milliseconds, and every
 *   other 2xx body wrapped in `{data: …}`.
 * - `social`: the style of a well-known social network's API: every key in
 *   snake_case, dates as ISO 8601 text, a post's publication time as
 *   `created_at` and its metrics in an object of their own, each a count
 *   (`public_metrics: {like_count, reply_count, retweet_count,
 *   impression_count, quote_count}`, any other metric as `<name>_count`);
 *   an inspiration's likes and comments likewise.
 *
 * Only 2xx bodies change; requests and errors keep the spec's shapes (errors
 * have their own option, errorShape, in errors.ts).
 */
import type { OperationKey } from '../shared/catalogue';

export type RecordShape = 'native' | 'snake' | 'nested' | 'social';
export const RECORD_SHAPES: readonly RecordShape[] = ['native', 'snake', 'nested', 'social'];

type Obj = Record<string, unknown>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function snakeKey(key: string): string {
	return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** snake_case keys, and dates as epoch seconds (or left as ISO 8601 text), all the way down. */
function toSnake(value: unknown, epoch = true): unknown {
	if (Array.isArray(value)) return value.map((v) => toSnake(v, epoch));
	if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeKey(k), toSnake(v, epoch)]));
	if (epoch && typeof value === 'string' && ISO.test(value)) return Math.floor(Date.parse(value) / 1000);
	return value;
}

// The social shape: metrics as counts in an object of their own.

/** The count names of the social shape for the sandbox's metrics; any other metric is `<name>_count`. */
const COUNTS: Readonly<Record<string, string>> = { likes: 'like_count', comments: 'reply_count', shares: 'retweet_count', impressions: 'impression_count' };

function publicMetrics(metrics: Obj): Obj {
	const out: Obj = {};
	for (const [name, value] of Object.entries(metrics)) out[COUNTS[name] ?? `${snakeKey(name).replace(/s$/, '')}_count`] = value;
	return { ...out, quote_count: 0 };
}

function socialPost(p: Obj): Obj {
	return { id: p.id, text: p.text, created_at: p.publishedAt, public_metrics: publicMetrics(isObj(p.metrics) ? p.metrics : {}), draft_id: p.draftId };
}

function socialInspiration(i: Obj): Obj {
	const { likes, comments, ...rest } = i;
	return { ...(toSnake(rest, false) as Obj), public_metrics: publicMetrics({ likes, comments }) };
}

const ms = (iso: unknown) => (typeof iso === 'string' && ISO.test(iso) ? Date.parse(iso) : iso);

// The nested shape, one function per record kind: the sandbox's record in, another service's out.

function nestedPost(p: Obj): Obj {
	const m = isObj(p.metrics) ? p.metrics : {};
	return {
		data: {
			uuid: p.id,
			content: p.text,
			publishDate: ms(p.publishedAt),
			stats: { likeCount: m.likes, commentCount: m.comments, reposts: m.shares, views: m.impressions },
			draftId: p.draftId,
		},
	};
}

function nestedDraftRecord(d: Obj): Obj {
	return { _id: d.id, body: d.text, state: d.status, scheduledFor: ms(d.scheduledAt), created: ms(d.createdAt), modifiedAt: ms(d.updatedAt) };
}

function nestedProfileRecord(p: Obj): Obj {
	return { profileId: p.id, title: p.name, about: p.description, isActive: p.active };
}

function nestedInspiration(i: Obj): Obj {
	return {
		data: {
			uuid: i.id,
			content: i.text,
			author: { name: i.author, profileUrl: `https://social.example/in/${String(i.author).toLowerCase().replace(/\W+/g, '-')}` },
			mediaType: i.format,
			stats: { likeCount: i.likes, commentCount: i.comments },
			permalink: i.url,
		},
	};
}

function nestedTransaction(t: Obj): Obj {
	return { transactionId: t.id, delta: t.amount, reason: t.operation, runningBalance: t.balanceAfter, timestamp: ms(t.createdAt) };
}

function nestedCalendarEntry(e: Obj): Obj {
	return { data: { kind: e.type, _id: e.id, draftId: e.draftId, postId: e.postId, content: e.text, when: ms(e.date) } };
}

const LIST_ITEM: Partial<Record<OperationKey, (item: Obj) => Obj>> = {
	listPosts: nestedPost,
	listDrafts: (d) => ({ data: nestedDraftRecord(d) }),
	listWritingProfiles: (p) => ({ data: nestedProfileRecord(p) }),
	searchInspirations: nestedInspiration,
};

/** The body of a single-record or action answer in the nested shape (before the `{data}` wrapper). */
function nestedBody(key: OperationKey, body: Obj): Obj {
	switch (key) {
		case 'createDraft':
			return { draft: nestedDraftRecord(body) };
		case 'activateWritingProfile':
			return { writingProfile: nestedProfileRecord(body) };
		case 'getAccountProfile':
			return {
				user: { id: body.id, email: body.email, fullName: body.name },
				credits: { balance: body.credits, unit: 'credit' },
				profiles: (body.writingProfiles as Obj[]).map(nestedProfileRecord),
			};
		case 'getCredits':
			return { credits: { balance: body.balance, transactions: (body.history as Obj[]).map(nestedTransaction) } };
		case 'getCalendar':
			return { from: body.from, to: body.to, entries: (body.entries as Obj[]).map(nestedCalendarEntry) };
		case 'startPostCreation':
			return { workflowId: body.workflowId, ideas: (body.ideas as Obj[]).map((i) => ({ ideaId: i.id, headline: i.title, description: i.text })) };
		case 'preparePost':
			return { workflowId: body.workflowId, questions: (body.questions as Obj[]).map((q) => ({ questionId: q.id, prompt: q.question })) };
		case 'validatePost': {
			const v = body.verdict as Obj;
			return {
				workflowId: body.workflowId,
				isReady: body.ready,
				verdict: {
					isReady: v.ready,
					rating: v.score,
					problems: (v.issues as string[]).map((message) => ({ message })),
					recommendations: v.suggestions,
				},
			};
		}
		default:
			return body;
	}
}

const SOCIAL_ITEM: Partial<Record<OperationKey, (item: Obj) => Obj>> = { listPosts: socialPost, searchInspirations: socialInspiration };

/** A list's items in the shape. */
export function shapeListItems(shape: RecordShape, key: OperationKey, items: unknown[]): unknown[] {
	if (shape === 'snake') return items.map((item) => toSnake(item));
	if (shape === 'social') return items.map((item) => (SOCIAL_ITEM[key] ?? ((i: Obj) => toSnake(i, false) as Obj))(item as Obj));
	if (shape === 'nested') {
		const nest = LIST_ITEM[key];
		return nest ? items.map((item) => nest(item as Obj)) : items;
	}
	return items;
}

/** A 2xx body (not a list) in the shape. */
export function shapeBody(shape: RecordShape, key: OperationKey, body: unknown): unknown {
	if (shape === 'snake') return toSnake(body);
	if (shape === 'social') return toSnake(body, false);
	if (shape === 'nested' && isObj(body)) return { data: nestedBody(key, body) };
	return body;
}
