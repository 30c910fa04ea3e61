/**
 * The benchmark charts (scripts/lib/bench-charts.ts): drawn from rows, each
 * SVG carries its bars or cells and their labels; the batch chart the report
 * shows is the one drawn from the report's own figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { BatchChartRow, GridChartRow } from '../../scripts/lib/bench-charts';
import { BENCH_CHART_FILE, CHART_FIGURES, GRID_CHART_FILE, GRID_SUBTITLE, batchChart, batchRowsFromReport, gridChart, gridRowsFromReport, wayLegend, withChartFigure } from '../../scripts/lib/bench-charts';

const ROOT = join(__dirname, '..', '..');

/** The texts of an SVG's <text> elements, entities decoded. */
function texts(svg: string): string[] {
	return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}
/** The filled shapes of a colour (bars, cells). */
const shapesOf = (svg: string, colour: string): number => (svg.match(new RegExp(`<path [^>]*fill="${colour}"`, 'g')) ?? []).length;

const BATCH_ROWS: BatchChartRow[] = [
	{ scenario: 'S1', way: wayLegend('(a)'), ratio: 1.019 },
	{ scenario: 'S1', way: wayLegend('(c)'), ratio: 10.062 },
	{ scenario: 'S1', way: wayLegend('(e)'), ratio: 1.033 },
	{ scenario: 'S6 Retry-After', way: wayLegend('(a)'), ratio: 1.207 },
	{ scenario: 'S6 Retry-After', way: wayLegend('(base)'), ratio: 0.77, failed: 70 },
];

test('the batch chart: one bar per scenario and way, its ratio, the failed items, the limit and the peer in its own colour', () => {
	const svg = batchChart(BATCH_ROWS);
	expect(svg.startsWith('<svg')).toBe(true);
	const shown = texts(svg);
	expect(shown).toEqual(expect.arrayContaining(['S1  (a)', '(c)', '(e)', 'S6 Retry-After  (a)', '(base)', 'limit', 'wall ÷ limit']));
	expect(shown).toEqual(expect.arrayContaining(['1.02×', '10.06× (off the scale)', '1.03×', '1.21×', '0.77× (70 failed)']));
	expect(shown).toEqual(expect.arrayContaining(BATCH_ROWS.map((r) => r.way).filter((w, i, all) => all.indexOf(w) === i)));
	// The peer's bar and its legend mark, in the peer's orange; the node's default way in blue (two bars and its legend mark).
	expect(shapesOf(svg, '#e07b00')).toBe(2);
	expect(shapesOf(svg, '#2f6fbf')).toBe(3);
});

const FORMS = ['X-RateLimit-* with -Reset', 'X-RateLimit-* without -Reset', 'RateLimit-* (reset in seconds)', 'IETF RateLimit-Policy / RateLimit', 'Retry-After (seconds)', 'Retry-After (HTTP date)'];
const CLIENTS = ['1 × 100', '12 × 10', '3 processes × 4 × 20'];
const GRID_ROWS: GridChartRow[] = FORMS.flatMap((form, f) =>
	[200, 1000, 5000].flatMap((latencyMs, l) => CLIENTS.map((clients, c) => ({ form, latencyMs, clients, ratio: 1 + f * 0.07 + l * 0.05 + c * 0.04 }))),
);

test('the grid chart: a heat map per client setup, every case a cell with its ratio, coloured by the targets', () => {
	const svg = gridChart(GRID_ROWS, { subtitle: 'sandbox, quota 10 per 1 s' });
	const shown = texts(svg);
	expect(shown).toEqual(expect.arrayContaining([...FORMS, ...CLIENTS, '0.2 s', '1 s', '5 s', 'sandbox, quota 10 per 1 s']));
	for (const row of GRID_ROWS) expect(shown).toContain(`${row.ratio.toFixed(2)}×`);
	expect(shown.filter((t) => /^\d\.\d\d×$/.test(t))).toHaveLength(GRID_ROWS.length);
	expect(shown).toEqual(expect.arrayContaining(['≤ 1.25× (target, one process)', '≤ 1.35× (target, three processes)', '> 1.35×']));
	// Over the 1.35 target: 1 + 5 × 0.07 + 0.05 … cases; each cell red, plus the legend's mark.
	const over = GRID_ROWS.filter((r) => r.ratio > 1.35).length;
	expect(over).toBeGreaterThan(0);
	expect(shapesOf(svg, '#e53935')).toBe(over + 1);
});

test('the same rows give the same SVG text', () => {
	expect(batchChart(BATCH_ROWS)).toBe(batchChart(BATCH_ROWS));
	expect(gridChart(GRID_ROWS)).toBe(gridChart(GRID_ROWS));
});

test("docs/benchmarks.md's batch chart is the one drawn from its figures (npm run bench:charts)", () => {
	const rows = batchRowsFromReport(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'));
	expect(rows.find((r) => r.scenario === 'S1' && r.way === wayLegend('(e)'))).toEqual(expect.objectContaining({ ratio: expect.any(Number) }));
	expect(new Set(rows.map((r) => r.scenario)).size).toBeGreaterThanOrEqual(7);
	expect(readFileSync(join(ROOT, BENCH_CHART_FILE), 'utf8')).toBe(batchChart(rows));
});

test("docs/benchmarks.md's grid chart is the one drawn from S8's tables, in the bench's order", () => {
	const rows = gridRowsFromReport(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'));
	expect(rows).toHaveLength(54);
	expect(rows[0]).toEqual(expect.objectContaining({ latencyMs: 200, form: 'X-RateLimit-* with -Reset' }));
	expect(readFileSync(join(ROOT, GRID_CHART_FILE), 'utf8')).toBe(gridChart(rows, { subtitle: GRID_SUBTITLE }));
});

test("a chart's figure goes right after its block's first line, once, whatever the block held", () => {
	const block = 'Run of 2026-01-01T00:00:00.000Z: `npm run bench`.\n\n| a |\n|---|';
	const once = withChartFigure(block, CHART_FIGURES.batches);
	expect(once).toBe(`Run of 2026-01-01T00:00:00.000Z: \`npm run bench\`.\n\n${CHART_FIGURES.batches}\n\n| a |\n|---|`);
	expect(withChartFigure(once, CHART_FIGURES.batches)).toBe(once);
});
