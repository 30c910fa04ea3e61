/**
 * Never silent when a value the user chose cannot be read: the messages that
 * say so, for the values a trigger or an operation acts on beside the ids and
 * times of records (those are event-result.ts's unreadableMessage): the metric a
 * Post Metric Milestone watches, the credit balance Credits Low compares with
 * its threshold, the labelled metrics of Get Many Published Posts.
 *
 * Each message names the field looked for, the names tried, the fields the
 * records do carry, and what to do. The triggers report them as their
 * `unreadable` warnings (event-result.ts's TriggerWarning): an error on the first poll and in
 * the test event, a warning on later polls; Get Many as an execution hint.
 */
import { namesTried, fieldsLookedFor, metricValue, metricsOf, nounOf, readPost } from '../records';
import type { UnreadableWarning } from './event-result';
import type { Obj } from '../base';
import { isObj } from '../base';

/** Fields listed at most in a message (the first record's), so that it stays readable. */
const FIELDS_SHOWN = 16;
/** Names tried listed at most in a message. */
const NAMES_SHOWN = 12;

/** The fields of a record as paths (`public_metrics.like_count`), objects opened two levels down. */
export function fieldPaths(record: Obj, prefix = '', depth = 0): string[] {
	const out: string[] = [];
	for (const [k, v] of Object.entries(record)) {
		if (v === undefined) continue;
		if (isObj(v) && depth < 2 && Object.keys(v).length > 0) out.push(...fieldPaths(v, `${prefix}${k}.`, depth + 1));
		else out.push(`${prefix}${k}`);
	}
	return out;
}

function listed(names: readonly string[], max: number): string {
	return names.length > max ? `${names.slice(0, max).join(', ')}…` : names.join(', ') || 'none';
}

/** A nested number of the record, as an example of a path to give (`public_metrics.like_count`). */
function examplePath(record: Obj): string {
	const nested = fieldPaths(record).filter((p) => p.includes('.'));
	return nested.find((p) => typeof p.split('.').reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), record) === 'number') ?? 'public_metrics.like_count';
}

/**
 * The warning of Post Metric Milestone when none of the posts read carries
 * the metric under any name the readers know; none when one does, or when
 * no post was read (nothing can be told then).
 */
export function unreadableMetric(metric: string, records: readonly Obj[], source: string): UnreadableWarning[] {
	if (records.length === 0 || records.some((r) => metricValue(r, metric) !== undefined)) return [];
	const first = records[0];
	const which = records.length === 1 ? `The ${nounOf('post')} returned by ${source} has no metric "${metric}"` : `None of the ${records.length} ${nounOf('post', records.length)} returned by ${source} has the metric "${metric}"`;
	const message =
		`${which} (looked for ${listed(namesTried(metric), NAMES_SHOWN)}, ` +
		`in any object of numbers on the post and at any depth), so the trigger cannot tell when a post reaches the threshold. ` +
		`The first one has the fields: ${listed(fieldPaths(first), FIELDS_SHOWN)}. ` +
		`Pick 'Other Metric' as the metric and give the field's path as its name (for example ${examplePath(first)}), or check the name given.`;
	return [{ kind: 'unreadable', message, count: records.length }];
}

/** The warning of Credits Low when the answer holds no balance it can read; none when it does. */
export function unreadableBalance(credits: Obj, source: string): UnreadableWarning[] {
	if (typeof credits.balance === 'number') return [];
	const fields = fieldPaths(credits).filter((p) => !p.startsWith('history'));
	const message =
		`The credit balance returned by ${source} has no balance (looked for ${fieldsLookedFor('credits', 'balance')}), so the trigger cannot tell when it falls below the threshold. ` +
		`The answer has the fields: ${listed(fields, FIELDS_SHOWN)}. Check that the Base URL points to API v1 of the service, and report this shape to its support.`;
	return [{ kind: 'unreadable', message, count: 1 }];
}

/** The labelled metrics of a post, as Get Many Published Posts outputs them. */
const LABELLED = ['likes', 'comments', 'shares', 'impressions'] as const;

/**
 * Get Many Published Posts' hint when some of its labelled metrics are on
 * none of the posts read (they come out null): which, the names tried, the
 * fields the posts carry. Undefined when every labelled metric is on some post.
 */
export function missingMetricsHint(posts: readonly Obj[]): string | undefined {
	if (posts.length === 0) return undefined;
	const read = posts.map((p) => metricsOf(readPost(p) as Obj));
	const missing = LABELLED.filter((m) => read.every((metrics) => typeof metrics[m] !== 'number'));
	if (missing.length === 0) return undefined;
	const tried = missing.map((m) => `${m} (${listed(namesTried(m).slice(1), 6)})`).join('; ');
	const which = posts.length === 1 ? `The ${nounOf('post')} read has no ${missing.join(', ')}` : `None of the ${posts.length} ${nounOf('post', posts.length)} read has ${missing.join(', ')}`;
	return (
		`${which} under any name the reader knows (looked for ${tried}, in any object of numbers on the post), so ${missing.length === 1 ? 'it comes' : 'they come'} out null. ` +
		`The first one has the fields: ${listed(fieldPaths(readPost(posts[0]) as Obj), FIELDS_SHOWN)}; metrics under other names are kept under their own.`
	);
}
