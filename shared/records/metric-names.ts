/**
 * The names a post's metrics go by. The spec shows no post shape, and
 * services spell a metric many ways: `likes`, `like_count`, `likeCount`,
 * `likesCount`, `num_likes`, `total_likes`, under a synonym (`reply` for a
 * comment, `retweet`/`repost`/`reshare` for a share, `view` for an
 * impression). A name is reduced to its word (`like_count` → `like`), and a
 * word gives back every spelling, so that a metric named either way is
 * found, and the package's labelled metrics (likes, comments, shares,
 * impressions) are filled from any of them.
 *
 * Pure string work: it imports only keyOf, from field-reader.ts
 * (post-records.ts, which reads the values, is three files deep in the core's
 * import chains).
 */
import { keyOf } from './field-reader';

/** The labelled metrics of a post, each with the words that name it, its own first (a `likes` beats a `reactions`). */
export const LABELLED_METRICS = {
	likes: ['like', 'reaction'],
	comments: ['comment', 'reply'],
	shares: ['share', 'repost', 'reshare', 'retweet'],
	impressions: ['impression', 'view'],
} as const;

export type LabelledMetric = keyof typeof LABELLED_METRICS;

/** A name reduced as keys are (keyOf): `like_count`, `LikeCount` and `likeCount` are one name. */
const reduce = keyOf;

/** The prefixes and suffixes of a count around its word: `num_likes`, `total_likes`, `like_count`, `likes_total`. */
const PREFIXES = ['num', 'total'];
const SUFFIXES = ['count', 'total'];

function singular(word: string): string {
	if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
	if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) return word.slice(0, -1);
	return word;
}

function plural(word: string): string {
	return word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`;
}

/**
 * The word a metric's name is made of, reduced and singular: `like_count`,
 * `numLikes`, `total_likes`, `likes` → `like`; of a path
 * (`public_metrics.like_count`), its last part's.
 */
export function metricWordOf(name: string): string {
	const last = name.split('.').pop() ?? name;
	let word = reduce(last);
	for (const prefix of PREFIXES) if (word.startsWith(prefix) && word.length > prefix.length + 2) word = word.slice(prefix.length);
	for (const suffix of SUFFIXES) if (word.endsWith(suffix) && word.length > suffix.length + 2) word = word.slice(0, -suffix.length);
	return singular(word);
}

/** Every spelling of a word, reduced (`like` → like, likes, likecount, likescount, numlikes, totallikes…). */
export function spellingsOf(word: string): string[] {
	const forms = [plural(word), word];
	const out: string[] = [];
	for (const form of forms) out.push(form, ...SUFFIXES.map((s) => `${form}${s}`), ...PREFIXES.map((p) => `${p}${form}`));
	return [...new Set(out)];
}

/** The labelled metric a name stands for (`like_count` → likes, `retweets` → shares, `reposts` → shares), if any. */
export function labelledMetricOf(name: string): LabelledMetric | undefined {
	const reduced = reduce(name);
	if (reduced in LABELLED_METRICS) return reduced as LabelledMetric;
	const word = metricWordOf(name);
	for (const [metric, words] of Object.entries(LABELLED_METRICS) as Array<[LabelledMetric, readonly string[]]>) {
		if (words.includes(word)) return metric;
	}
	return undefined;
}

/** The reduced names a labelled metric is read under, in order of preference: its own word's spellings, then each synonym's. */
export function labelledSpellings(metric: LabelledMetric): string[] {
	return [...new Set(LABELLED_METRICS[metric].flatMap(spellingsOf))];
}

/** The spellings a reader tries for a metric, for messages: `like_count, likeCount, likes, num_likes, total_likes…`. */
export function namesTried(metric: string): string[] {
	const labelled = labelledMetricOf(metric);
	const words = labelled ? LABELLED_METRICS[labelled] : [metricWordOf(metric)];
	const shown = words.flatMap((w) => [plural(w), `${w}_count`, `${w}Count`, `num_${plural(w)}`, `total_${plural(w)}`]);
	return [...new Set([...(labelled ? [labelled] : []), ...shown])];
}

/** Keys known to hold a post's metrics; any other object of numbers with a metric in it does too (isMetricContainer). */
export const METRIC_CONTAINERS = ['metrics', 'stats', 'statistics', 'engagement', 'analytics', 'insights', 'counts', 'socialCounts'];
/** METRIC_CONTAINERS reduced, once: every key of every record read is looked up here. */
const CONTAINER_KEYS: ReadonlySet<string> = new Set(METRIC_CONTAINERS.map((c) => reduce(c)));

/** True when `key` is one of METRIC_CONTAINERS, in any casing. */
export function isKnownMetricContainer(key: string): boolean {
	return CONTAINER_KEYS.has(reduce(key));
}

const isNumber = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()));

/**
 * True for a key under which a post keeps metrics: a known name (`metrics`,
 * `stats`…), or an object of numbers (nulls allowed, no id among them) one of
 * whose keys reads as a metric (`public_metrics`, `organic_metrics`).
 */
export function isMetricContainer(key: string, value: unknown): value is Record<string, unknown> {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
	if (isKnownMetricContainer(key)) return true;
	const entries = Object.entries(value);
	const numbers = entries.every(([k, v]) => v === null || (isNumber(v) && !/id$/i.test(k)));
	return entries.length > 0 && numbers && entries.some(([k]) => isMetricName(k) || labelledMetricOf(k) !== undefined);
}

/** Names that read as a count of engagement, for metrics sent under names the package does not label. */
const METRIC_NAME =
	/^(num|total)?_?(likes?|comments?|shares?|reposts?|reshares?|impressions?|views?|clicks?|saves?|reactions?|engagements?|engagementrate|reach|follows?|followers?|votes?|bookmarks?|quotes?|replies|reply|retweets?|mentions?|visits?|opens?|plays?|downloads?|ctr)(_?count|_?total|_?rate)?$/i;

/** True when a field of a post is an engagement metric by its name. */
export function isMetricName(name: string): boolean {
	return METRIC_NAME.test(name.replace(/[^a-z0-9_]/gi, ''));
}
