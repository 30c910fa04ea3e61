/**
 * Tolerant readers, one per record kind. The spec shows none of the record
 * shapes, so each reader accepts every plausible variant:
 * - camelCase, snake_case or any other casing of a key (`published_at`,
 *   `PublishedAt`, `_id`);
 * - the record nested under a key (`data`, `attributes`, `user`, `account`,
 *   `profile`…), merged into its parent when that loses nothing;
 * - the common synonyms of each labelled field (`text`/`content`/`body`,
 *   `shares`/`reposts`, `publishedAt`/`publishDate`, `name`/`fullName`…);
 * - dates as ISO 8601 text, epoch seconds or epoch milliseconds, given out
 *   as ISO 8601 UTC text.
 *
 * Each reader returns the package's labelled fields (those of the catalogue's
 * samples and outputFields) first, then every other field the API sent,
 * under its own name: a synonym is removed only when its value became the
 * labelled field, and a value that had to be reduced (an author object to its
 * name, a credits object to its balance) is kept whole under `<field>Details`.
 * Nothing the API sent is dropped. Readers are idempotent: reading a record
 * already read gives it back unchanged.
 *
 * A leaf of the core: it imports only types and values.
 */
import type {
	AccountProfile,
	CalendarEntry,
	CreditTransaction,
	CreditsOutput,
	Draft,
	Idea,
	Inspiration,
	Post,
	Question,
	Verdict,
	WritingProfile,
} from './types';
import type { Obj } from './values';
import { isObj } from './values';

// ---------------------------------------------------------------------------
// Values

/** A key reduced for comparison: `published_at`, `PublishedAt` and `publishedAt` are the same key. */
export function keyOf(name: string): string {
	return name.replace(/[^a-z0-9]/gi, '').toLowerCase();
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
/** A date and time without a zone, read as UTC (Date.parse would read it in the machine's zone). */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/**
 * A date as ISO 8601 UTC text, from ISO 8601 text (with or without a zone;
 * without one it is UTC), epoch seconds, epoch milliseconds or epoch
 * microseconds (as a number or digits). Undefined when it is none of these.
 */
export function isoDate(value: unknown): string | undefined {
	let ms: number;
	if (typeof value === 'number' || (typeof value === 'string' && NUMERIC.test(value.trim()))) {
		const n = Number(value);
		if (!Number.isFinite(n)) return undefined;
		const abs = Math.abs(n);
		// 1e11 s is the year 5138 and 1e11 ms is 1973; 1e14 ms is the year 5138.
		ms = abs < 1e11 ? n * 1000 : abs < 1e14 ? n : n / 1000;
	} else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		const zoneless = ZONELESS.exec(text);
		ms = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : text);
	} else return undefined;
	if (Number.isNaN(ms)) return undefined;
	const date = new Date(Math.round(ms));
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

type FieldType = 'id' | 'text' | 'number' | 'boolean' | 'date';

const MISSING = Symbol('missing');
type Read = unknown | typeof MISSING;

function readValue(type: FieldType, value: unknown): Read {
	switch (type) {
		case 'id':
			if (typeof value === 'string' && value.trim() !== '') return value.trim();
			if (typeof value === 'number' && Number.isFinite(value)) return String(value);
			return MISSING;
		case 'text':
			return typeof value === 'string' ? value : MISSING;
		case 'number':
			if (typeof value === 'number' && Number.isFinite(value)) return value;
			if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value);
			return MISSING;
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 1 || value === 'yes') return true;
			if (value === 'false' || value === 0 || value === 'no') return false;
			return MISSING;
		case 'date':
			return isoDate(value) ?? MISSING;
	}
}

// ---------------------------------------------------------------------------
// Record specs

interface FieldRule {
	readonly type: FieldType;
	/** Names read, in order; the first is the labelled key. The one whose value is used is replaced by the labelled field. */
	readonly aliases: readonly string[];
	/** Names read after the aliases whose key is kept as it was (a post's `createdAt` may stand for its publication time). */
	readonly fallbacks?: readonly string[];
}

interface RecordSpec {
	/** What one record is called in messages ("post"). */
	readonly noun: string;
	/** Keys under which the record may be nested (besides the generic ones). */
	readonly nest: readonly string[];
	readonly fields: Readonly<Record<string, FieldRule>>;
}

/** Keys that hold the record itself, whatever its kind. */
const GENERIC_NEST = ['data', 'attributes', 'record', 'item', 'node', 'result'];

const ID_ALIASES = ['id', 'uuid', 'guid'];
const TEXT_ALIASES = ['text', 'content', 'body', 'commentary', 'message', 'caption'];
const CREATED_AT = ['createdAt', 'created', 'createdOn', 'dateCreated', 'creationDate', 'insertedAt'];
const UPDATED_AT = ['updatedAt', 'updated', 'updatedOn', 'modifiedAt', 'lastModified', 'lastModifiedAt', 'dateModified'];
const URL_ALIASES = ['url', 'link', 'permalink', 'postUrl', 'shareUrl', 'webUrl', 'href'];

/** The labelled metrics of a post and their synonyms. */
const METRIC_RULES: Readonly<Record<string, FieldRule>> = {
	likes: { type: 'number', aliases: ['likes', 'likeCount', 'likesCount', 'numLikes', 'totalLikes', 'reactions', 'reactionCount', 'reactionsCount'] },
	comments: { type: 'number', aliases: ['comments', 'commentCount', 'commentsCount', 'numComments', 'totalComments', 'replies', 'replyCount'] },
	shares: {
		type: 'number',
		aliases: ['shares', 'shareCount', 'sharesCount', 'numShares', 'reposts', 'repostCount', 'repostsCount', 'numReposts', 'reshares', 'reshareCount'],
	},
	impressions: {
		type: 'number',
		aliases: ['impressions', 'impressionCount', 'impressionsCount', 'numImpressions', 'views', 'viewCount', 'viewsCount', 'numViews'],
	},
};

const SCHEDULED_AT: FieldRule = {
	type: 'date',
	aliases: ['scheduledAt', 'scheduledFor', 'scheduleAt', 'scheduledTime', 'scheduledDate', 'scheduledOn', 'publishAt'],
};

/** Objects that hold a post's metrics. */
const METRIC_CONTAINERS = ['metrics', 'stats', 'statistics', 'engagement', 'analytics', 'insights', 'counts', 'socialCounts'];

const SPECS = {
	post: {
		noun: 'post',
		nest: ['post'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'postId', 'urn', 'postUrn'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			publishedAt: {
				type: 'date',
				aliases: ['publishedAt', 'publishDate', 'publishedDate', 'publishedOn', 'datePublished', 'publicationDate', 'publishedTime', 'postedAt', 'postedOn'],
				fallbacks: ['date', 'createdAt', 'created'],
			},
			url: { type: 'text', aliases: URL_ALIASES },
			draftId: { type: 'id', aliases: ['draftId', 'sourceDraftId'] },
		},
	},
	draft: {
		noun: 'draft',
		nest: ['draft'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'draftId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			status: { type: 'text', aliases: ['status', 'state'] },
			scheduledAt: { ...SCHEDULED_AT, aliases: [...SCHEDULED_AT.aliases, 'publishDate'] },
			createdAt: { type: 'date', aliases: CREATED_AT },
			updatedAt: { type: 'date', aliases: UPDATED_AT },
		},
	},
	writingProfile: {
		noun: 'writing profile',
		nest: ['writingProfile', 'profile', 'style'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'writingProfileId', 'profileId'] },
			name: { type: 'text', aliases: ['name', 'title', 'label', 'displayName'] },
			description: { type: 'text', aliases: ['description', 'desc', 'about', 'summary'] },
			active: { type: 'boolean', aliases: ['active', 'isActive', 'activated', 'isActivated', 'selected', 'isSelected', 'current', 'isCurrent', 'inUse'] },
		},
	},
	inspiration: {
		noun: 'inspiration',
		nest: ['inspiration', 'post'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'inspirationId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			author: { type: 'text', aliases: ['author', 'authorName', 'creator', 'creatorName', 'writer', 'by'] },
			format: { type: 'text', aliases: ['format', 'mediaType', 'postType', 'contentType'] },
			likes: METRIC_RULES.likes,
			comments: METRIC_RULES.comments,
			url: { type: 'text', aliases: [...URL_ALIASES, 'sourceUrl'] },
		},
	},
	accountProfile: {
		noun: 'account profile',
		nest: ['user', 'account', 'profile', 'me', 'owner', 'member'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'accountId', 'userId'] },
			name: { type: 'text', aliases: ['name', 'fullName', 'displayName', 'userName'], fallbacks: ['username', 'handle'] },
			email: { type: 'text', aliases: ['email', 'emailAddress', 'mail', 'primaryEmail'] },
		},
	},
	creditTransaction: {
		noun: 'credit transaction',
		nest: ['transaction'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'transactionId', 'txId'] },
			amount: { type: 'number', aliases: ['amount', 'delta', 'change', 'credits', 'value', 'quantity'] },
			operation: { type: 'text', aliases: ['operation', 'type', 'reason', 'action', 'kind', 'source'] },
			balanceAfter: { type: 'number', aliases: ['balanceAfter', 'balance', 'runningBalance', 'newBalance', 'remaining'] },
			createdAt: { type: 'date', aliases: [...CREATED_AT, 'date', 'at', 'timestamp', 'time', 'occurredAt'] },
		},
	},
	credits: {
		noun: 'credit balance',
		nest: ['credits', 'wallet', 'billing'],
		fields: {
			balance: {
				type: 'number',
				aliases: ['balance', 'credits', 'remaining', 'creditsRemaining', 'remainingCredits', 'available', 'availableCredits', 'currentBalance', 'creditBalance'],
			},
		},
	},
	calendarEntry: {
		noun: 'calendar entry',
		nest: ['entry', 'event'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'entryId'] },
			type: { type: 'text', aliases: ['type', 'kind', 'entryType'], fallbacks: ['status'] },
			draftId: { type: 'id', aliases: ['draftId'] },
			postId: { type: 'id', aliases: ['postId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			date: { type: 'date', aliases: ['date', 'datetime', 'at', 'time', 'when', 'startsAt', 'start'] },
			scheduledAt: SCHEDULED_AT,
			publishedAt: { type: 'date', aliases: ['publishedAt', 'publishDate', 'publishedOn', 'datePublished', 'postedAt'] },
		},
	},
	idea: {
		noun: 'idea',
		nest: ['idea'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'ideaId'] },
			title: { type: 'text', aliases: ['title', 'headline', 'name', 'hook', 'subject'] },
			text: { type: 'text', aliases: ['text', 'content', 'body', 'description'] },
		},
	},
	question: {
		noun: 'question',
		nest: ['question'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'questionId'] },
			question: { type: 'text', aliases: ['question', 'questionText', 'prompt', 'label'], fallbacks: ['text', 'content'] },
		},
	},
	verdict: {
		noun: 'verdict',
		nest: ['verdict', 'validation', 'evaluation', 'review'],
		fields: {
			ready: { type: 'boolean', aliases: ['ready', 'isReady', 'approved', 'isApproved', 'passed', 'valid', 'isValid'] },
			score: { type: 'number', aliases: ['score', 'rating', 'grade', 'qualityScore', 'quality'] },
		},
	},
} as const satisfies Record<string, RecordSpec>;

export type RecordKind = keyof typeof SPECS;

/** The names a reader looks for, for messages: `"publishedAt" (also published_at, publishDate, …)`. */
export function fieldsLookedFor(kind: RecordKind, field: string): string {
	const rule = (SPECS[kind].fields as Record<string, FieldRule>)[field];
	if (!rule) return `"${field}"`;
	const others = [...rule.aliases.slice(1), ...(rule.fallbacks ?? [])];
	const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
	const also = [...(snake !== field ? [snake] : []), ...others];
	const typeText = rule.type === 'date' ? ', as ISO 8601 text or epoch seconds or milliseconds' : '';
	return `"${field}" (also ${also.length > 0 ? also.join(', ') : 'any casing'}, at the top or nested under ${GENERIC_NEST.slice(0, 2).join(' or ')}${typeText})`;
}

/** What records of a kind are called in messages: "post", "posts", "calendar entries". */
export function nounOf(kind: RecordKind, count = 1): string {
	const noun: string = SPECS[kind].noun;
	if (count === 1) return noun;
	return noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}

// ---------------------------------------------------------------------------
// The generic reader

/** Keys by their reduced form, first seen first. */
function indexKeys(o: Obj): Map<string, string[]> {
	const map = new Map<string, string[]>();
	for (const k of Object.keys(o)) {
		const r = keyOf(k);
		const list = map.get(r);
		if (list) list.push(k);
		else map.set(r, [k]);
	}
	return map;
}

function sameValue(a: unknown, b: unknown): boolean {
	return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The record out of its nesting. `base` is what the output keeps: a nested
 * object is merged into its parent when none of its keys clashes with a
 * different value there; otherwise it stays where it was. `view` is what the
 * fields are read from: the parent first, then each nested object.
 */
function unnest(raw: Obj, nest: ReadonlySet<string>, depth = 0): { base: Obj; view: Obj } {
	let base: Obj = {};
	const nested: Array<[string, Obj]> = [];
	for (const [k, v] of Object.entries(raw)) {
		if (depth < 3 && nest.has(keyOf(k)) && isObj(v)) nested.push([k, v]);
		else base[k] = v;
	}
	let view: Obj = { ...base };
	for (const [k, v] of nested) {
		const inner = unnest(v, nest, depth + 1);
		const clash = Object.keys(inner.base).some((ik) => ik in base && !sameValue(base[ik], inner.base[ik]));
		base = clash ? { ...base, [k]: v } : { ...inner.base, ...base };
		view = { ...inner.view, ...view };
	}
	return { base, view };
}

interface Found {
	key: string;
	value: unknown;
	consumed: boolean;
}

/** The first name of the rule present in `view` with a readable value (null counts only when nothing else does). */
function findField(view: Obj, index: Map<string, string[]>, rule: FieldRule): Found | undefined {
	const names: Array<[string, boolean]> = [...rule.aliases.map((a): [string, boolean] => [a, true]), ...(rule.fallbacks ?? []).map((a): [string, boolean] => [a, false])];
	let nullAt: Found | undefined;
	for (const [name, consumed] of names) {
		for (const key of index.get(keyOf(name)) ?? []) {
			const raw = view[key];
			if (raw === null) {
				nullAt ??= { key, value: null, consumed };
				continue;
			}
			const value = readValue(rule.type, raw);
			if (value !== MISSING) return { key, value, consumed };
		}
	}
	return nullAt;
}

interface ReadResult {
	/** The labelled fields found. */
	labelled: Obj;
	/** Everything else, as sent. */
	rest: Obj;
	/** All fields, nesting undone (for the readers' own extra lookups). */
	view: Obj;
	index: Map<string, string[]>;
}

function readFields(raw: Obj, spec: RecordSpec, extraNest: readonly string[] = []): ReadResult {
	const nest = new Set([...GENERIC_NEST, ...spec.nest, ...extraNest].map(keyOf));
	const { base, view } = unnest(raw, nest);
	const index = indexKeys(view);
	const labelled: Obj = {};
	const rest: Obj = { ...base };
	for (const [field, rule] of Object.entries(spec.fields)) {
		const found = findField(view, index, rule);
		if (!found) continue;
		labelled[field] = found.value;
		if (found.consumed && found.key in rest && sameValue(rest[found.key], view[found.key])) delete rest[found.key];
	}
	for (const field of Object.keys(labelled)) {
		// A labelled key whose own value could not be read, while a synonym's could: kept beside it.
		if (field in rest) {
			if (!sameValue(rest[field], labelled[field]) && readValue(spec.fields[field].type, rest[field]) === MISSING && rest[field] !== null) {
				rest[`${field}Original`] = rest[field];
			}
			delete rest[field];
		}
	}
	return { labelled, rest, view, index };
}

/** The value under the first of `names` present (any casing), or undefined. */
function pick(view: Obj, index: Map<string, string[]>, names: readonly string[]): unknown {
	for (const name of names) {
		for (const key of index.get(keyOf(name)) ?? []) if (view[key] !== undefined) return view[key];
	}
	return undefined;
}

/** Removes from `rest` the key (any casing) of the first of `names` present, when its value is `value`. */
function consume(rest: Obj, names: readonly string[], value: unknown): void {
	for (const name of names) {
		const key = Object.keys(rest).find((k) => keyOf(k) === keyOf(name));
		if (key !== undefined && sameValue(rest[key], value)) {
			delete rest[key];
			return;
		}
	}
}

/** An array from a bare array or a wrapper (`{data: [...]}`, `{items: [...]}`, the only array in it). */
function arrayIn(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value;
	if (!isObj(value)) return undefined;
	for (const k of ['data', 'items', 'results', 'records', 'entries', 'nodes', 'edges']) if (Array.isArray(value[k])) return value[k] as unknown[];
	const arrays = Object.values(value).filter(Array.isArray);
	return arrays.length === 1 ? arrays[0] : undefined;
}

/** A non-object record (a bare string or number) as an object. */
function asObj(raw: unknown): Obj {
	return isObj(raw) ? raw : raw === undefined || raw === null ? {} : { value: raw };
}

// ---------------------------------------------------------------------------
// Metrics

/** Names that read as a count of engagement, for metrics sent under names the package does not label. */
const METRIC_NAME =
	/^(num|total)?_?(likes?|comments?|shares?|reposts?|reshares?|impressions?|views?|clicks?|saves?|reactions?|engagements?|engagementrate|reach|follows?|followers?|votes?|bookmarks?|quotes?|replies|reply|retweets?|mentions?|visits?|opens?|plays?|downloads?|ctr)(_?count|_?total|_?rate)?$/i;

/** True when a field of a post is an engagement metric by its name and value. */
export function isMetricName(name: string): boolean {
	return METRIC_NAME.test(name.replace(/[^a-z0-9_]/gi, ''));
}

/**
 * A post's metrics: every entry of its metric objects (`metrics`, `stats`,
 * `engagement`…), with the labelled ones (likes, comments, shares,
 * impressions) under their labelled names, plus the labelled metrics found at
 * the top of the record. Returns the metrics and the keys of `rest` they came from.
 */
function readMetrics(rest: Obj): Obj | undefined {
	const containers = Object.keys(rest).filter((k) => METRIC_CONTAINERS.some((c) => keyOf(c) === keyOf(k)) && isObj(rest[k]));
	// `metrics` itself first: its values win over a `stats` object's.
	containers.sort((a, b) => Number(keyOf(b) === 'metrics') - Number(keyOf(a) === 'metrics'));
	const merged: Obj = {};
	for (const c of containers) {
		const inner = rest[c] as Obj;
		const clash = Object.keys(inner).some((k) => k in merged && !sameValue(merged[k], inner[k]));
		if (clash) continue;
		Object.assign(merged, { ...inner, ...merged });
		delete rest[c];
	}
	const index = indexKeys(merged);
	const metrics: Obj = {};
	const others: Obj = { ...merged };
	for (const [name, rule] of Object.entries(METRIC_RULES)) {
		const found = findField(merged, index, rule);
		if (found) {
			metrics[name] = found.value;
			if (found.consumed && sameValue(others[found.key], merged[found.key])) delete others[found.key];
			continue;
		}
		// At the top of the record (a number only: `comments` may also be the list of comments).
		const topIndex = indexKeys(rest);
		const top = findField(rest, topIndex, rule);
		if (top && top.value !== null) {
			metrics[name] = top.value;
			delete rest[top.key];
		}
	}
	for (const name of Object.keys(metrics)) delete others[name];
	const out = { ...metrics, ...others };
	return Object.keys(out).length > 0 || containers.length > 0 ? out : undefined;
}

/**
 * Every metric of a post, whatever its name: the entries of `metrics` (as
 * the reader leaves them) plus the numeric fields at the top of the record
 * whose names read as a metric (`saves`, `click_count`).
 */
export function metricsOf(post: Obj): Obj {
	const out: Obj = {};
	const metrics = isObj(post.metrics) ? post.metrics : {};
	for (const [k, v] of Object.entries(metrics)) out[k] = v;
	for (const [k, v] of Object.entries(post)) {
		if (k !== 'metrics' && !(k in out) && typeof v === 'number' && isMetricName(k)) out[k] = v;
	}
	return out;
}

// ---------------------------------------------------------------------------
// The readers

function simpleReader<T>(kind: RecordKind) {
	return (raw: unknown): T => {
		const { labelled, rest } = readFields(asObj(raw), SPECS[kind]);
		return { ...labelled, ...rest } as T;
	};
}

/** A published post: id, text, publishedAt, metrics {likes, comments, shares, impressions, and any other}, url, draftId. */
export function readPost(raw: unknown): Post {
	const { labelled, rest } = readFields(asObj(raw), SPECS.post);
	const metrics = readMetrics(rest);
	const out: Obj = { ...labelled };
	if (metrics) out.metrics = metrics;
	return { ...out, ...rest } as Post;
}

/** A draft or scheduled post: id, text, status, scheduledAt, createdAt, updatedAt. */
export const readDraft: (raw: unknown) => Draft = simpleReader<Draft>('draft');

/** A writing profile: id, name, description, active. */
export const readWritingProfile: (raw: unknown) => WritingProfile = simpleReader<WritingProfile>('writingProfile');

/** A saved inspiring post: id, text, author (a name; an author object is kept as `authorDetails`), format, likes, comments, url. */
export function readInspiration(raw: unknown): Inspiration {
	const o = asObj(raw);
	const { labelled, rest, view, index } = readFields(o, SPECS.inspiration);
	if (labelled.author === undefined) {
		const author = pick(view, index, SPECS.inspiration.fields.author.aliases);
		if (isObj(author)) {
			const name = pick(author, indexKeys(author), ['name', 'fullName', 'displayName', 'userName', 'handle']);
			if (typeof name === 'string') labelled.author = name;
			consume(rest, SPECS.inspiration.fields.author.aliases, author);
			rest.authorDetails = author;
		}
	}
	// Likes and comments inside a metrics object.
	for (const metric of ['likes', 'comments'] as const) {
		if (labelled[metric] !== undefined) continue;
		for (const c of METRIC_CONTAINERS) {
			const container = pick(view, index, [c]);
			if (!isObj(container)) continue;
			const found = findField(container, indexKeys(container), METRIC_RULES[metric]);
			if (found && found.value !== null) {
				labelled[metric] = found.value;
				break;
			}
		}
	}
	return { ...labelled, ...rest } as Inspiration;
}

/** A credit transaction: id, amount, operation, balanceAfter, createdAt. */
export const readCreditTransaction: (raw: unknown) => CreditTransaction = simpleReader<CreditTransaction>('creditTransaction');

/** Names of the balance inside a credits object. */
const BALANCE_NAMES = ['balance', 'remaining', 'available', 'current', 'credits', 'amount', 'total'];

/** The balance in a value: a number, or the balance of a credits object. */
function balanceIn(value: unknown): number | undefined {
	const n = readValue('number', value);
	if (n !== MISSING) return n as number;
	if (!isObj(value)) return undefined;
	const inner = pick(value, indexKeys(value), BALANCE_NAMES);
	const m = readValue('number', inner);
	return m === MISSING ? undefined : (m as number);
}

/**
 * The account profile: id, name (also from first and last name), email,
 * credits (the balance as a number; a credits object is kept as
 * `creditsDetails` when it says more than the balance), writingProfiles (each
 * read), activeWritingProfile ({id, name} or null).
 */
export function readAccountProfile(raw: unknown): AccountProfile {
	const { labelled, rest, view, index } = readFields(asObj(raw), SPECS.accountProfile);
	if (labelled.name === undefined) {
		const first = pick(view, index, ['firstName', 'givenName']);
		const last = pick(view, index, ['lastName', 'familyName', 'surname']);
		const name = [first, last].filter((v) => typeof v === 'string' && v.trim() !== '').join(' ');
		if (name) labelled.name = name;
	}
	const creditNames = ['credits', 'creditBalance', 'creditsBalance', 'balance', 'creditsRemaining', 'remainingCredits', 'availableCredits', 'wallet'];
	const creditsRaw = pick(view, index, creditNames);
	const credits = balanceIn(creditsRaw);
	if (credits !== undefined) {
		labelled.credits = credits;
		consume(rest, creditNames, creditsRaw);
		if (isObj(creditsRaw) && Object.keys(creditsRaw).length > 1) rest.creditsDetails = creditsRaw;
	}
	const profileNames = ['writingProfiles', 'profiles', 'writingStyles', 'styles', 'voices'];
	const profilesRaw = pick(view, index, profileNames);
	const list = arrayIn(profilesRaw);
	let active: { id: string; name?: string } | null = null;
	if (list) {
		const profiles = list.map(readWritingProfile);
		labelled.writingProfiles = profiles;
		consume(rest, profileNames, profilesRaw);
		const on = profiles.find((p) => p.active === true);
		if (on) active = on.name === undefined ? { id: on.id } : { id: on.id, name: on.name };
	}
	if (!active) {
		const given = pick(view, index, ['activeWritingProfile', 'activeProfile', 'currentWritingProfile', 'currentProfile']);
		const givenId = given === undefined ? pick(view, index, ['activeWritingProfileId', 'activeProfileId', 'currentWritingProfileId']) : undefined;
		if (isObj(given)) {
			const p = readWritingProfile(given);
			if (p.id !== undefined) active = p.name === undefined ? { id: p.id } : { id: p.id, name: p.name };
		} else if (typeof given === 'string' || typeof givenId === 'string' || typeof givenId === 'number') {
			const id = String(given ?? givenId);
			const name = (labelled.writingProfiles as WritingProfile[] | undefined)?.find((p) => p.id === id)?.name;
			active = name === undefined ? { id } : { id, name };
		}
	}
	delete rest.activeWritingProfile;
	labelled.activeWritingProfile = active;
	return { ...labelled, ...rest } as AccountProfile;
}

/**
 * The credits: balance (undefined when none is found) and history (the
 * transactions, each read, from `history`, `transactions`, `items`,
 * `entries` or `ledger`, bare or wrapped).
 */
export function readCredits(raw: unknown): CreditsOutput {
	const { labelled, rest, view, index } = readFields(asObj(raw), SPECS.credits);
	if (labelled.balance === undefined || labelled.balance === null) {
		const b = balanceIn(pick(view, index, ['balance', 'credits']));
		if (b !== undefined) labelled.balance = b;
	}
	const historyNames = ['history', 'transactions', 'creditTransactions', 'items', 'entries', 'ledger', 'events'];
	const historyRaw = pick(view, index, historyNames);
	const list = arrayIn(historyRaw) ?? [];
	consume(rest, historyNames, historyRaw);
	return { ...labelled, history: list.map(readCreditTransaction), ...rest } as CreditsOutput;
}

/**
 * A calendar entry: type (`scheduled` for a draft with a date, `published`
 * for a post), id, draftId or postId, text, date. Undefined `id` or `date`
 * when the entry has none: the caller decides.
 */
export function readCalendarEntry(raw: unknown): Partial<CalendarEntry> & Obj {
	const { labelled, rest } = readFields(asObj(raw), SPECS.calendarEntry);
	const rawType = typeof labelled.type === 'string' ? labelled.type.toLowerCase() : undefined;
	const publishedAt = labelled.publishedAt as string | undefined;
	const scheduledAt = labelled.scheduledAt as string | undefined;
	const draftId = labelled.draftId as string | undefined;
	const postId = labelled.postId as string | undefined;
	let type: string;
	if (rawType && /publish|post/.test(rawType) && !/draft|schedul/.test(rawType)) type = 'published';
	else if (rawType && /draft|schedul/.test(rawType)) type = 'scheduled';
	else type = publishedAt || postId ? 'published' : 'scheduled';
	const id = (labelled.id as string | undefined) ?? (type === 'published' ? postId : draftId) ?? draftId ?? postId;
	const date = (type === 'published' ? publishedAt : scheduledAt) ?? (labelled.date as string | undefined) ?? scheduledAt ?? publishedAt;
	const entry: Obj = { type };
	if (id !== undefined) entry.id = id;
	if (type === 'scheduled' && id !== undefined) entry.draftId = draftId ?? id;
	if (type === 'published' && id !== undefined) entry.postId = postId ?? id;
	if (labelled.text !== undefined) entry.text = labelled.text;
	if (date !== undefined) entry.date = date;
	// The kind's own time fields stay as read (scheduledAt, publishedAt), beside `date`.
	for (const k of ['scheduledAt', 'publishedAt'] as const) if (labelled[k] !== undefined) entry[k] = labelled[k];
	if (typeof labelled.type === 'string' && labelled.type !== type && !Object.values(rest).includes(labelled.type)) rest.typeOriginal = labelled.type;
	return { ...entry, ...rest };
}

/** A creation idea: id, title, text; a bare string becomes `{id: <position>, text}`. */
export function readIdea(raw: unknown, position = 1): Idea {
	if (typeof raw === 'string') return { id: String(position), text: raw };
	const idea = simpleReader<Idea>('idea')(raw);
	return idea.id === undefined ? { ...idea, id: String(position) } : idea;
}

/** A creation question: id, question (also from `text`); a bare string becomes `{id: <position>, question, text}`. */
export function readQuestion(raw: unknown, position = 1): Question {
	if (typeof raw === 'string') return { id: String(position), question: raw, text: raw };
	const question = simpleReader<Question>('question')(raw);
	return question.id === undefined ? { ...question, id: String(position) } : question;
}

/** Texts of a list of strings or of objects (`{message}`, `{text}`…); undefined when it is neither. */
function textsOf(value: unknown): string[] | undefined {
	const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
	if (!list) return undefined;
	return list.map((v) => {
		if (typeof v === 'string') return v;
		if (isObj(v)) {
			const t = pick(v, indexKeys(v), ['message', 'text', 'description', 'detail', 'title', 'suggestion', 'issue']);
			if (typeof t === 'string') return t;
		}
		return JSON.stringify(v);
	});
}

/**
 * A verdict of the creation workflow: ready, score, issues and suggestions
 * (lists of texts; lists of objects are reduced to their texts and kept whole
 * as `issuesDetails`/`suggestionsDetails`). A bare string is `{summary}`.
 */
export function readVerdict(raw: unknown): Verdict {
	if (typeof raw === 'string') return { summary: raw };
	const { labelled, rest, view, index } = readFields(asObj(raw), SPECS.verdict);
	const lists = {
		issues: ['issues', 'problems', 'errors', 'warnings', 'flaws'],
		suggestions: ['suggestions', 'recommendations', 'improvements', 'tips', 'advice'],
	};
	for (const [field, names] of Object.entries(lists)) {
		const value = pick(view, index, names);
		const texts = textsOf(value);
		if (!texts) continue;
		labelled[field] = texts;
		consume(rest, names, value);
		if (!(Array.isArray(value) && value.every((v) => typeof v === 'string'))) rest[`${field}Details`] = value;
	}
	return { ...labelled, ...rest } as Verdict;
}

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
