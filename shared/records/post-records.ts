/**
 * The readers of the records the trigger events poll (posts, drafts, the
 * credits and their transactions, calendar entries), and of a post's
 * metrics. The other kinds' readers are in account-records.ts; the generic
 * reading is field-reader.ts, the names each field goes by specs.ts,
 * a metric's spellings metric-names.ts. The spec shows none of the record
 * shapes, so each reader accepts every plausible variant: any casing of a
 * key, the record nested under a key, the common synonyms of each labelled
 * field, dates as ISO 8601 text or epoch seconds or milliseconds.
 *
 * Each reader returns the package's labelled fields (those of the catalogue's
 * samples and outputFields) first, then every other field the API sent,
 * under its own name: a synonym is removed only when its value became the
 * labelled field, and a value that had to be reduced (an author object to its
 * name, a credits object to its balance) is kept whole under `<field>Details`.
 * Nothing the API sent is dropped. Readers are idempotent: reading a record
 * already read gives it back unchanged.
 */
import type { CompiledRule } from './field-reader';
import type { Obj, CalendarEntry, CreditTransaction, CreditsOutput, Draft, Post } from '../base';
import { once } from '../base';
import { MISSING, arrayIn, asObj, balanceIn, compileRule, compileSpecs, consume, findField, indexKeys, isRecord, keyOf, pick, readFields, readValue, readerOf, sameValue } from './field-reader';
import { SPECS } from './specs';
import type { LabelledMetric } from './metric-names';
import { LABELLED_METRICS, isKnownMetricContainer, isMetricContainer, isMetricName, labelledMetricOf, labelledSpellings, metricWordOf, spellingsOf } from './metric-names';

/** The specs of this file's kinds, checked against what the generic reader needs, their names reduced once, on first use. */
const specs = once(() =>
	compileSpecs({ post: SPECS.post, draft: SPECS.draft, creditTransaction: SPECS.creditTransaction, credits: SPECS.credits, calendarEntry: SPECS.calendarEntry }),
);

// ---------------------------------------------------------------------------
// A post's metrics

/** The rule that reads each labelled metric: a number under any of its spellings (made on first use). */
const metricRead = once(
	(): Readonly<Record<LabelledMetric, CompiledRule>> => ({
		likes: compileRule({ type: 'number', aliases: labelledSpellings('likes') }),
		comments: compileRule({ type: 'number', aliases: labelledSpellings('comments') }),
		shares: compileRule({ type: 'number', aliases: labelledSpellings('shares') }),
		impressions: compileRule({ type: 'number', aliases: labelledSpellings('impressions') }),
	}),
);

/**
 * A post's metrics: every entry of the objects that hold metrics (`metrics`
 * first, then `stats`, `engagement`…, then any other object of numbers such
 * as `public_metrics`), with the labelled ones (likes, comments, shares,
 * impressions) under their labelled names, plus the labelled metrics found at
 * the top of the record. The containers merged (and the metrics moved) leave `rest`.
 */
function readMetrics(rest: Obj): Obj | undefined {
	const containers = Object.keys(rest).filter((k) => isMetricContainer(k, rest[k]));
	if (containers.length > 1) {
		const rank = (k: string) => (keyOf(k) === 'metrics' ? 0 : isKnownMetricContainer(k) ? 1 : 2);
		containers.sort((a, b) => rank(a) - rank(b));
	}
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
	/** The keys of `merged` that are not other metrics: the labelled ones found, and any named as a labelled metric. */
	const labelledKeys = new Set<string>();
	let restIndex: Map<string, string[]> | undefined;
	for (const metric of Object.keys(LABELLED_METRICS) as LabelledMetric[]) {
		const found = findField(merged, index, metricRead()[metric]);
		if (found) {
			metrics[metric] = found.value;
			labelledKeys.add(found.key);
			continue;
		}
		// At the top of the record (a number only: `comments` may also be the list of comments).
		const top = findField(rest, (restIndex ??= indexKeys(rest)), metricRead()[metric]);
		if (top && top.value !== null) {
			metrics[metric] = top.value;
			delete rest[top.key];
			restIndex = undefined; // a key left rest
		}
	}
	for (const name of Object.keys(metrics)) labelledKeys.add(name);
	// The labelled metrics, then the others in merged's order (merged has no own __proto__: Object.assign set it).
	const out: Obj = { ...metrics };
	for (const key of Object.keys(merged)) if (!labelledKeys.has(key)) out[key] = merged[key];
	return Object.keys(out).length > 0 || containers.length > 0 ? out : undefined;
}

/**
 * Every metric of a post, whatever its name: the entries of `metrics` (as
 * the reader leaves them), the numeric fields at the top of the record whose
 * names read as a metric (`saves`, `click_count`), and the entries of any
 * other object of metrics the reader could not merge into `metrics`.
 */
export function metricsOf(post: Obj): Obj {
	const out: Obj = {};
	const metrics = isRecord(post.metrics) ? post.metrics : {};
	for (const [k, v] of Object.entries(metrics)) out[k] = v;
	for (const [k, v] of Object.entries(post)) {
		if (k !== 'metrics' && !(k in out) && typeof v === 'number' && isMetricName(k)) out[k] = v;
	}
	for (const [k, v] of Object.entries(post)) {
		if (k === 'metrics' || !isMetricContainer(k, v)) continue;
		for (const [name, value] of Object.entries(v)) if (!(name in out)) out[name] = value;
	}
	return out;
}

/** Objects at most this deep are searched for a metric named by the user (a post's metrics sit one or two levels down). */
const METRIC_SEARCH_DEPTH = 4;

/** The objects of a record, breadth first (the record itself first), down to METRIC_SEARCH_DEPTH. */
function objectsOf(record: Obj): Obj[] {
	const out: Obj[] = [];
	let level: Obj[] = [record];
	for (let depth = 0; depth <= METRIC_SEARCH_DEPTH && level.length > 0; depth++) {
		out.push(...level);
		level = level.flatMap((o) => Object.values(o).filter(isRecord));
	}
	return out;
}

/** The number under `path` (keys in any casing) from `start`, if any. */
function atPath(start: Obj, path: readonly string[]): number | undefined {
	let at: unknown = start;
	for (const part of path) {
		if (!isRecord(at)) return undefined;
		const key: string | undefined = Object.keys(at).find((k) => keyOf(k) === keyOf(part));
		at = key === undefined ? undefined : at[key];
	}
	const value = readValue('number', at);
	return value === MISSING ? undefined : (value as number);
}

/**
 * A post's metric by the name the user gave: a path (`public_metrics.like_count`,
 * from the record or any object in it), a name as sent at any depth of the
 * record, a labelled metric (likes, comments, shares, impressions, under any
 * of their spellings and synonyms, wherever the post keeps them), or any
 * spelling of the name's word (`saves` finds `save_count`) at any depth.
 */
export function metricValue(raw: unknown, name: string): number | undefined {
	const record = asObj(raw);
	const objects = objectsOf(record);
	const path = name.split('.').filter((p) => p.trim() !== '');
	for (const o of objects) {
		const value = atPath(o, path);
		if (value !== undefined) return value;
	}
	// The reader may have moved the field (`public_metrics.like_count` is the read post's `metrics.likes`): its last part, by name.
	if (path.length > 1) return metricValue(record, path[path.length - 1]);
	const labelled = labelledMetricOf(name);
	if (labelled) {
		const metrics = readPost(record).metrics as Obj | undefined;
		const value = metrics ? readValue('number', metrics[labelled]) : MISSING;
		if (value !== MISSING) return value as number;
	}
	const spellings = new Set(spellingsOf(metricWordOf(name)));
	for (const o of objects) {
		for (const [k, v] of Object.entries(o)) {
			const value = readValue('number', v);
			if (spellings.has(keyOf(k)) && value !== MISSING) return value as number;
		}
	}
	return undefined;
}

// ---------------------------------------------------------------------------
// The readers

/** A published post: id, text, publishedAt, metrics {likes, comments, shares, impressions, and any other}, url, draftId. */
export function readPost(raw: unknown): Post {
	const { labelled, rest } = readFields(asObj(raw), specs().post);
	const metrics = readMetrics(rest);
	const out: Obj = { ...labelled };
	if (metrics) out.metrics = metrics;
	// rest's keys are its own strings, none of them __proto__ (readFields builds it key by key): assigned as the spread would.
	for (const key of Object.keys(rest)) out[key] = rest[key];
	return out as Post;
}

/** A draft or scheduled post: id, text, status, scheduledAt, createdAt, updatedAt. */
export function readDraft(raw: unknown): Draft {
	return readerOf<Draft>(specs().draft)(raw);
}

/** A credit transaction: id, amount, operation, balanceAfter, createdAt. */
export function readCreditTransaction(raw: unknown): CreditTransaction {
	return readerOf<CreditTransaction>(specs().creditTransaction)(raw);
}

/**
 * The credits: balance (undefined when none is found) and history (the
 * transactions, each read, from `history`, `transactions`, `items`,
 * `entries` or `ledger`, bare or wrapped).
 */
export function readCredits(raw: unknown): CreditsOutput {
	const { labelled, rest, view, index } = readFields(asObj(raw), specs().credits);
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
	const { labelled, rest } = readFields(asObj(raw), specs().calendarEntry);
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
