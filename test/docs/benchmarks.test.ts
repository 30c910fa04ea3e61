/**
 * docs/benchmarks.md is a report of one run per part, not a notebook: outside the blocks the bench writes, no
 * dated note (a date, a clock time, "this afternoon", "tried … not kept") and no duration of a run (each block
 * states its own). A figure the prose gives beside the constant it comes from (`5 times (S8_PROCESS_RUNS)`) must be
 * that constant's value; the run counts are stated that way. S4's ratio is explained from the pacing's constants.
 * The design notes and the README carry no dated note either.
 */
import { RATE_DEFAULTS } from '../../shared/pacing';
import { proseOf } from '../../scripts/lib/generated-blocks';
import { S6_RUNS } from '../../scripts/lib/bench-runs';
import { BATCH_TARGETS, FOOTPRINT_TARGETS, POLL_TARGETS, S8_PROCESS_RUNS } from '../../scripts/lib/bench-targets';
import { GRID_QUOTA, GRID_TARGETS } from '../../scripts/lib/pacing-grid';
import { MAX_CONCURRENCY, SCENARIOS } from '../../scripts/lib/bench-scenarios';
import { BASELINE_COMMIT, BASELINE_CONCURRENCY } from '../../scripts/lib/bench-executions';
import { DOCS, read } from './files';

const REPORT = proseOf(read('docs/benchmarks.md'));

/** What a working note looks like: a date, a clock time, a part of the day, a trial left behind. */
const DATED = [/\b\d{4}-\d\d-\d\d\b/, /\b\d{1,2}:\d\d\b/, /\b(?:this )?(?:morning|afternoon|evening|late night|night|tonight|yesterday)\b/i, /\bnot kept\b/i, /\bso far\b|\buntil now\b/i];
/** The report also says no "today": its blocks are dated, its prose is not. */
const DATED_REPORT = [...DATED, /\btoday\b/i];

/** Lines of `text` that look like a dated note. */
const datedLines = (text: string, patterns = DATED): string[] => text.split('\n').filter((line) => patterns.some((pattern) => pattern.test(line)));

test('docs/benchmarks.md has no dated note outside the blocks the bench writes', () => {
	expect(datedLines(REPORT, DATED_REPORT)).toEqual([]);
});

test.each(DOCS.filter((f) => f !== 'docs/benchmarks.md'))('%s has no dated note', (file) => {
	expect(datedLines(proseOf(read(file)))).toEqual([]);
});

test("no duration of a run in the report's prose: each block's first line states how long its run took", () => {
	expect(REPORT.match(/\b(?:about |takes |took )?\d+(?:[–-]\d+)? minutes\b/g) ?? []).toEqual([]);
});

/** The constants the prose may name beside a figure. */
const CONSTANTS: Record<string, unknown> = {
	S6_RUNS,
	S8_PROCESS_RUNS,
	MAX_CONCURRENCY,
	BASELINE_COMMIT,
	BASELINE_CONCURRENCY,
	RATE_DEFAULTS,
	BATCH_TARGETS,
	POLL_TARGETS,
	FOOTPRINT_TARGETS,
	GRID_TARGETS,
	GRID_QUOTA,
};

/** `NAME` or `NAME.key.key` of CONSTANTS. */
function valueOf(name: string): unknown {
	return name.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), CONSTANTS);
}

/** A figure as the prose writes it, in the constant's unit (`0.5 s` for a `…Ms` constant is 500; `10 %` is 0.1). */
function inUnit(figure: string, unit: string | undefined, name: string): number {
	const n = Number(figure.replace(/,/g, ''));
	if (unit === '%') return n / 100;
	if (/Ms$/.test(name) && unit === 's') return n * 1_000;
	if (/Ms$/.test(name) && /^min/.test(unit ?? '')) return n * 60_000;
	return n;
}

/**
 * Every figure the text gives beside the constant it comes from: `3 times (\`S6_RUNS\`)`, `0.5 s (\`RATE_DEFAULTS.x\`)`,
 * `5, \`BASELINE_CONCURRENCY\``, or a code value: `\`d211f54\`, \`BASELINE_COMMIT\``.
 */
export function namedFigures(text: string): Array<{ name: string; figure?: string; unit?: string; code?: string }> {
	const name = '`([A-Z][A-Z0-9_]{2,}(?:\\.[A-Za-z]\\w*)*)`';
	const out: Array<{ index: number; name: string; figure?: string; unit?: string; code?: string }> = [];
	for (const m of text.matchAll(new RegExp(`(\\d[\\d,]*(?:\\.\\d+)?)\\s*(%|×|ms|s|minutes?|min|times|calls(?: a second)?)?\\s*[(,]\\s*${name}`, 'g'))) {
		out.push({ index: m.index ?? 0, name: m[3], figure: m[1], ...(m[2] ? { unit: m[2].replace(' a second', '') } : {}) });
	}
	for (const m of text.matchAll(new RegExp(`\`([^\`]+)\`\\s*[(,]\\s*${name}`, 'g'))) out.push({ index: m.index ?? 0, name: m[2], code: m[1] });
	return out.sort((a, b) => a.index - b.index).map((found) => {
		const { name: constant, figure, unit, code } = found;
		return { name: constant, ...(figure !== undefined ? { figure } : {}), ...(unit !== undefined ? { unit } : {}), ...(code !== undefined ? { code } : {}) };
	});
}

test('every figure the report gives beside a constant is that constant', () => {
	const named = namedFigures(REPORT);
	expect(named.length).toBeGreaterThanOrEqual(6);
	for (const n of named) {
		const value = valueOf(n.name);
		expect({ name: n.name, known: value !== undefined }).toEqual({ name: n.name, known: true });
		const stated = n.code !== undefined ? n.code : inUnit(n.figure as string, n.unit, n.name);
		expect({ name: n.name, stated }).toEqual({ name: n.name, stated: value });
	}
});

test('the run counts are stated beside their constants', () => {
	const names = namedFigures(REPORT).filter((n) => n.figure !== undefined).map((n) => n.name);
	expect(names).toEqual(expect.arrayContaining(['S6_RUNS', 'S8_PROCESS_RUNS']));
});

/** Seconds the pacing's start takes to send n calls at once: a burst, then a rate that doubles (RATE_DEFAULTS). */
function slowStartSeconds(n: number): number {
	const { initialRate: r0, initialBurst: burst, slowStartDoublingMs } = RATE_DEFAULTS;
	const t = slowStartDoublingMs / 1_000;
	return t * Math.log2(1 + ((n - burst) * Math.LN2) / (r0 * t));
}

test("S4's ratio is explained from the pacing's start: its items, and the time their first steps take to leave", () => {
	const s4 = SCENARIOS.find((s) => s.id === 'S4');
	const section = REPORT.slice(REPORT.indexOf('### Why S4 stands at about twice its limit'));
	expect(section).toContain(`the ${s4?.n} first creation steps leave over about ${slowStartSeconds(s4?.n ?? 0).toFixed(1)} s`);
});

test('a figure beside an unknown or a wrong constant fails (the check itself)', () => {
	expect(namedFigures('runs 4 times (`S8_PROCESS_RUNS`) and 3 times (`S6_RUNS`), 10 % (`GRID_TARGETS.share429Told`), 0.5 s (`RATE_DEFAULTS.slowStartDoublingMs`)')).toEqual([
		{ name: 'S8_PROCESS_RUNS', figure: '4', unit: 'times' },
		{ name: 'S6_RUNS', figure: '3', unit: 'times' },
		{ name: 'GRID_TARGETS.share429Told', figure: '10', unit: '%' },
		{ name: 'RATE_DEFAULTS.slowStartDoublingMs', figure: '0.5', unit: 's' },
	]);
	expect(namedFigures('commit `d211f54`, `BASELINE_COMMIT`; no `WORKFLOW_BUSY` surfaced; 8 calls a second (`RATE_DEFAULTS.initialRate`)')).toEqual([
		{ name: 'BASELINE_COMMIT', code: 'd211f54' },
		{ name: 'RATE_DEFAULTS.initialRate', figure: '8', unit: 'calls' },
	]);
	expect(inUnit('4', 'times', 'S8_PROCESS_RUNS')).not.toBe(S8_PROCESS_RUNS);
	expect(inUnit('10', '%', 'GRID_TARGETS.share429Told')).toBe(GRID_TARGETS.share429Told);
	expect(inUnit('0.5', 's', 'RATE_DEFAULTS.slowStartDoublingMs')).toBe(RATE_DEFAULTS.slowStartDoublingMs);
	expect(datedLines('S8 (2026-11-27 02:28–03:19)\nthe full run of this afternoon\nTried on this grid and not kept')).toHaveLength(3);
});
