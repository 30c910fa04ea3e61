/**
 * Renders the benchmark report's charts from the figures docs/benchmarks.md holds (the latest `npm run bench` and
 * `npm run bench -- --only S8`), without running the bench:
 *   npm run bench:charts
 * writes docs/images/bench-batches.svg and docs/images/bench-grid.svg, the files the bench writes from its own
 * results, and shows each inside the block of the run it was drawn from (scripts/lib/bench-charts.ts, CHART_FIGURES).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	BENCH_BLOCKS,
	BENCH_CHART_FILE,
	CHART_FIGURES,
	GRID_CHART_FILE,
	GRID_SUBTITLE,
	batchChart,
	batchRowsFromReport,
	gridChart,
	gridRowsFromReport,
	withChartFigure,
} from './lib/bench-charts';
import { blockContent, blockEnd, blockStart, replaceBetween } from './lib/generated-blocks';

const ROOT = join(__dirname, '..');
const REPORT = 'docs/benchmarks.md';
let report = readFileSync(join(ROOT, REPORT), 'utf8');

const charts = [
	{ block: BENCH_BLOCKS.figures, figure: CHART_FIGURES.batches, file: BENCH_CHART_FILE, draw: (text: string) => batchRowsFromReport(text), render: batchChart },
	{ block: BENCH_BLOCKS.s8, figure: CHART_FIGURES.grid, file: GRID_CHART_FILE, draw: (text: string) => gridRowsFromReport(text), render: (rows: never[]) => gridChart(rows, { subtitle: GRID_SUBTITLE }) },
] as const;

for (const chart of charts) {
	const [start, end] = [blockStart(chart.block.name, chart.block.by), blockEnd(chart.block.name)];
	const content = blockContent(report, start, end);
	if (content === undefined) throw new Error(`${REPORT} has no ${start} block`);
	const rows = chart.draw(content);
	if (rows.length === 0) throw new Error(`${REPORT}'s ${chart.block.name} block holds no table to chart`);
	writeFileSync(join(ROOT, chart.file), chart.render(rows as never[]));
	report = replaceBetween(report, start, end, withChartFigure(content, chart.figure), REPORT);
	process.stdout.write(`${chart.file}: ${rows.length} ${chart.file === BENCH_CHART_FILE ? 'bars' : 'cells'}, shown in the ${chart.block.name} block.\n`);
}
writeFileSync(join(ROOT, REPORT), report);
