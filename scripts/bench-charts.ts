/**
 * Renders the benchmark report's batch chart from the figures docs/benchmarks.md
 * holds (the latest `npm run bench`), without running the bench:
 *   npm run bench:charts
 * writes docs/images/bench-batches.svg, the file `npm run bench` writes from its own results.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { BENCH_CHART_FILE, batchChart, batchRowsFromReport } from './lib/bench-charts';

const ROOT = join(__dirname, '..');
const rows = batchRowsFromReport(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'));
if (rows.length === 0) throw new Error('docs/benchmarks.md holds no scenario table to chart');
writeFileSync(join(ROOT, BENCH_CHART_FILE), batchChart(rows));
process.stdout.write(`${BENCH_CHART_FILE}: ${rows.length} bars over ${new Set(rows.map((r) => r.scenario)).size} scenarios.\n`);
