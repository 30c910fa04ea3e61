/**
 * The benchmark report's charts, as SVG text, drawn by Apache ECharts'
 * server-side renderer (no browser, no canvas): `npm run bench` writes them
 * into docs/images/, docs/benchmarks.md shows them.
 *   batchChart  wall ÷ quota-bound limit per scenario and way (the node's ways
 *               and the peer's, n8n's HTTP Request node with Batching, side by side)
 *   gridChart   issue 26's grid (S8): rate-limit form × latency × clients, one
 *               heat map per client setup, each cell its ratio, coloured by target
 */
import * as echarts from 'echarts';

/** One way of one scenario: its wall time over the quota-bound limit. */
export interface BatchChartRow {
	/** "S1", "S5 12×10"… */
	scenario: string;
	/** The way's legend name: "(a) node, default settings"… */
	way: string;
	ratio: number;
	/** Failed items, written beside the ratio when there are any (a ratio under 1 is then no fast run). */
	failed?: number;
}

/** One case of the grid: a rate-limit form, a latency and a client setup. */
export interface GridChartRow {
	form: string;
	latencyMs: number;
	clients: string;
	ratio: number;
}

export interface ChartOptions {
	title?: string;
	subtitle?: string;
}

/** Where `npm run bench` writes the batch chart, from the repository's root. */
export const BENCH_CHART_FILE = 'docs/images/bench-batches.svg';
/** Where `npm run bench -- --only S8` writes the grid's chart. */
export const GRID_CHART_FILE = 'docs/images/bench-grid.svg';

/** The generated blocks of docs/benchmarks.md that the bench writes, and the command each names. */
export const BENCH_BLOCKS = {
	figures: { name: 'bench-figures', by: 'npm run bench' },
	s8: { name: 'bench-s8', by: 'npm run bench -- --only S8' },
} as const;

/**
 * Each chart is shown inside the generated block of the run that drew it, right after the block's first line
 * ("Run of <date>: `<command>`…"), so that the chart carries that run's date and command.
 */
export const CHART_FIGURES: Record<'batches' | 'grid', string> = {
	batches:
		'![Wall time ÷ quota-bound limit per scenario and way](images/bench-batches.svg)\n\n' +
		"*Wall time ÷ the quota-bound limit, one bar per way of each scenario (1× is the limit; lower is better). Orange: the peer, n8n's own HTTP Request node with Batching. A bar under 1× with failed items is not a fast run: its items failed early. Drawn from the tables below (`npm run bench:charts` draws it again).*",
	grid: '![S8: wall time ÷ quota-bound limit per form, latency and clients](images/bench-grid.svg)\n\n*Drawn from the tables below (`npm run bench:charts` draws it again).*',
};

/** A block's text with `figure` (an image, then its caption) right after its first paragraph, in place of any figure of the same image. */
export function withChartFigure(block: string, figure: string): string {
	const image = /\]\(([^)]+)\)/.exec(figure)?.[1] ?? '';
	const paragraphs = block.split('\n\n');
	const kept: string[] = [];
	for (let i = 0; i < paragraphs.length; i++) {
		if (i > 0 && paragraphs[i].includes(`](${image})`)) {
			// The figure's caption is the italic paragraph after it.
			if (/^\*[^\n]*\*$/.test(paragraphs[i + 1] ?? '')) i++;
			continue;
		}
		kept.push(paragraphs[i]);
	}
	return [kept[0], figure, ...kept.slice(1)].join('\n\n');
}

/** The bench's ways (scripts/lib/bench-ways.ts; (e): bench-http-batching.ts), one legend entry each, the same in every scenario. */
export const WAY_LEGEND: Record<string, string> = {
	'(a)': '(a) n8n node, default settings (Concurrency Auto)',
	"(a')": "(a') the same, answers without X-RateLimit-Reset",
	'(b)': '(b) n8n node, a Concurrency set (S1–S4: the maximum; S5: 20)',
	'(c)': '(c) n8n node, Concurrency 1',
	'(d)': '(d) naive loop (fixed 1 s wait, 3 tries)',
	'(e)': "(e) the peer: n8n's HTTP Request node with Batching",
	'(base)': '(base) the node before issue 18 (pacing per execution)',
};
export const wayLegend = (id: string): string => WAY_LEGEND[id] ?? id;

/** The reference of every ratio: the quota-bound limit itself. */
const LIMIT = 1;
/** Issue 26's targets: one process within 1.25 × the limit, three processes within 1.35 ×. */
export const GRID_TARGETS = { oneProcess: 1.25, threeProcesses: 1.35 } as const;
/** The batch chart's axis: 0 to 2.5× shows 1.02 apart from 1.2; the ways 10 × slower are cut there and say so. */
const BATCH_AXIS = { max: 2.5, tick: 0.25 } as const;
/** The ways' colours, in legend order; the peer's way keeps its own (orange) whatever its place. */
const PALETTE = ['#2f6fbf', '#7fa7d9', '#9aa3ad', '#5b6670', '#2a9d8f', '#b55d9a', '#444'];
const PEER_COLOUR = '#e07b00';
/** Text sizes and spacing, in SVG pixels. */
const FONT = 12;
const BAR_ROW_PX = 17;
const LEGEND_ROW_PX = 20;
const CELL_PX = { width: 78, height: 30 };
const PAGE = { background: '#ffffff', text: '#1f2328' };

const unique = <T>(values: T[]): T[] => [...new Set(values)];
const ratioText = (ratio: number, failed?: number): string => `${ratio.toFixed(2)}×${failed ? ` (${failed} failed)` : ''}`;

/**
 * The renderer names its CSS classes from counters of the process (`zr3-cls-12`):
 * numbered again in order of first use, the same chart is the same text in
 * every run, so a chart committed can be compared with one drawn again.
 */
function stableClasses(svg: string): string {
	const names = new Map<string, string>();
	return svg.replace(/zr\d+-cls-\d+/g, (name) => names.get(name) ?? names.set(name, `pw-${names.size}`).get(name)!);
}

/** A chart drawn once, as SVG text. */
function render(width: number, height: number, option: echarts.EChartsOption): string {
	const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
	try {
		chart.setOption({ animation: false, backgroundColor: PAGE.background, textStyle: { fontFamily: 'sans-serif', fontSize: FONT, color: PAGE.text }, ...option });
		return stableClasses(chart.renderToSVGString());
	} finally {
		chart.dispose();
	}
}

/** Whether a way is the peer's (n8n's own HTTP Request node), drawn in its own colour. */
export const isPeerWay = (way: string): boolean => /HTTP Request/i.test(way);

/**
 * The rows of the batch chart read back from the figures of docs/benchmarks.md
 * as scripts/lib/bench-report.ts writes them: each `#### <scenario>: …` heading, then its
 * table's way (`(a) …`), `wall ÷ limit` and `failed items` columns.
 */
export function batchRowsFromReport(markdown: string): BatchChartRow[] {
	const rows: BatchChartRow[] = [];
	let scenario: string | undefined;
	let columns: string[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^#### (S\d+[^:]*):/.exec(line);
		if (heading) [scenario, columns] = [heading[1].trim(), []];
		if (!scenario || !line.startsWith('|') || line.startsWith('|---')) continue;
		const cells = line.split('|').slice(1, -1).map((c) => c.trim());
		if (columns.length === 0) {
			columns = cells;
			continue;
		}
		const way = /^\([^)]+\)/.exec(cells[0])?.[0];
		const ratio = Number(cells[columns.indexOf('wall ÷ limit')]);
		if (!way || !Number.isFinite(ratio)) continue;
		const failed = Number(cells[columns.indexOf('failed items')]);
		rows.push({ scenario, way: wayLegend(way), ratio, ...(failed > 0 ? { failed } : {}) });
	}
	return rows;
}

/**
 * The rows of the grid's chart read back from S8's tables in docs/benchmarks.md, as scripts/lib/bench-s8.ts writes
 * them: each `**<clients>** (…)` line, then its table's rows (a form, then `<ratio> × (…)` per latency column).
 */
export function gridRowsFromReport(markdown: string): GridChartRow[] {
	const rows: GridChartRow[] = [];
	let clients: string | undefined;
	let latencies: number[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^\*\*([^*]+)\*\* \(wall ÷ quota-bound limit/.exec(line);
		if (heading) [clients, latencies] = [heading[1], []];
		// Another table of the block (the 10 s window's, issue 40) is not the chart's.
		else if (line.startsWith('**')) clients = undefined;
		if (!clients || !line.startsWith('|') || line.startsWith('|---')) continue;
		const cells = line.split('|').slice(1, -1).map((c) => c.trim());
		if (cells[0] === 'form') {
			latencies = cells.slice(1).map((c) => Number(/L = ([\d.]+) s/.exec(c)?.[1]) * 1000);
			continue;
		}
		cells.slice(1).forEach((cell, i) => {
			const ratio = Number(/^([\d.]+) ×/.exec(cell)?.[1]);
			if (clients && Number.isFinite(ratio) && latencies[i]) rows.push({ form: cells[0], latencyMs: latencies[i], clients, ratio });
		});
	}
	// In the bench's order (scripts/lib/pacing-grid.ts, gridCases): clients, then latency, then form.
	const forms = unique(rows.map((r) => r.form));
	const clientsOrder = unique(rows.map((r) => r.clients));
	return [...rows].sort((a, b) => clientsOrder.indexOf(a.clients) - clientsOrder.indexOf(b.clients) || a.latencyMs - b.latencyMs || forms.indexOf(a.form) - forms.indexOf(b.form));
}

/** The grid chart's subtitle: the quota and the command. */
export const GRID_SUBTITLE = 'S8: a /generate quota of 10 per 1 s, the n8n node with default settings (npm run bench -- --only S8)';

/**
 * Wall ÷ quota-bound limit, one bar per scenario and way (grouped by scenario,
 * in the rows' order), on a linear axis from 0 with the limit (1×) marked; a
 * bar past the axis is cut at its end and says so. Each bar says its ratio,
 * and its failed items when there are any.
 */
export function batchChart(rows: BatchChartRow[], options: ChartOptions = {}): string {
	const ways = unique(rows.map((r) => r.way));
	const colours = new Map(ways.map((w, i) => [w, isPeerWay(w) ? PEER_COLOUR : PALETTE[i % PALETTE.length]]));
	// Scenario after scenario, a blank line between two.
	const ordered: (BatchChartRow | undefined)[] = unique(rows.map((r) => r.scenario)).flatMap((sc, i) => [...(i ? [undefined] : []), ...rows.filter((r) => r.scenario === sc)]);
	const categories = ordered.map((r, i) => (r ? `${ordered[i - 1]?.scenario === r.scenario ? '' : `${r.scenario}  `}${/^\([^)]+\)/.exec(r.way)?.[0] ?? r.way}` : ''));
	const legendHeight = ways.length * LEGEND_ROW_PX;
	const top = options.subtitle ? 74 : 56;
	const height = top + ordered.length * BAR_ROW_PX + 54 + legendHeight;
	const bars = ordered.map((r) =>
		r
			? {
					value: Math.min(r.ratio, BATCH_AXIS.max),
					itemStyle: { color: colours.get(r.way) },
					label: { formatter: `${ratioText(r.ratio, r.failed)}${r.ratio > BATCH_AXIS.max ? ' (off the scale)' : ''}` },
				}
			: null,
	);
	// One series draws the bars; one empty series per way gives the legend its entries.
	const legendSeries = ways.map((way) => ({ name: way, type: 'bar' as const, color: colours.get(way), barGap: '-100%', data: [] }));
	return render(900, height, {
		title: { text: options.title ?? 'Wall time ÷ quota-bound limit (1× is the limit; lower is better)', subtext: options.subtitle, left: 10, top: 6 },
		legend: { data: ways, orient: 'vertical', bottom: 6, left: 10, itemWidth: 14, itemGap: LEGEND_ROW_PX - FONT, textStyle: { fontSize: FONT - 1 } },
		grid: { left: 130, right: 170, top, bottom: 50 + legendHeight },
		xAxis: { type: 'value', min: 0, max: BATCH_AXIS.max, interval: BATCH_AXIS.tick, name: 'wall ÷ limit', nameLocation: 'middle', nameGap: 24, axisLabel: { formatter: (v: number) => `${v}×` } },
		yAxis: { type: 'category', data: categories, inverse: true, axisTick: { show: false }, axisLabel: { fontSize: FONT - 1, interval: 0 } },
		series: [
			{
				name: 'wall ÷ limit',
				type: 'bar',
				barGap: '-100%',
				barCategoryGap: '25%',
				data: bars,
				label: { show: true, position: 'right', fontSize: FONT - 2 },
				markLine: { symbol: 'none', silent: true, lineStyle: { color: '#c62828', type: 'dashed' }, label: { formatter: 'limit', position: 'start', color: '#c62828' }, data: [{ xAxis: LIMIT }] },
			},
			...legendSeries,
		],
	});
}

/** The colour band of a ratio: met (within 10 %), within the one-process target, within the three-process target, past both. */
const GRID_BANDS = [
	{ lte: 1.1, color: '#2e7d32', label: '≤ 1.10×' },
	{ gt: 1.1, lte: GRID_TARGETS.oneProcess, color: '#9ccc65', label: `≤ ${GRID_TARGETS.oneProcess}× (target, one process)` },
	{ gt: GRID_TARGETS.oneProcess, lte: GRID_TARGETS.threeProcesses, color: '#ffca28', label: `≤ ${GRID_TARGETS.threeProcesses}× (target, three processes)` },
	{ gt: GRID_TARGETS.threeProcesses, color: '#e53935', label: `> ${GRID_TARGETS.threeProcesses}×` },
];

const latencyText = (ms: number): string => `${ms / 1000} s`;

/**
 * The grid as one heat map per client setup, side by side: rows are the
 * rate-limit forms, columns the latencies, each cell its ratio, coloured by
 * the band it falls in (the targets' bounds).
 */
export function gridChart(rows: GridChartRow[], options: ChartOptions = {}): string {
	const forms = unique(rows.map((r) => r.form));
	const latencies = unique(rows.map((r) => r.latencyMs)).sort((a, b) => a - b);
	const clients = unique(rows.map((r) => r.clients));
	const left = 260;
	const panelWidth = latencies.length * CELL_PX.width;
	const panelGap = 24;
	const top = options.subtitle ? 90 : 72;
	const panelHeight = forms.length * CELL_PX.height;
	const width = left + clients.length * (panelWidth + panelGap) + 10;
	const height = top + panelHeight + 60 + GRID_BANDS.length * LEGEND_ROW_PX;
	const grids = clients.map((_, i) => ({ left: left + i * (panelWidth + panelGap), top, width: panelWidth, height: panelHeight }));
	return render(width, height, {
		title: [
			{ text: options.title ?? 'Wall time ÷ quota-bound limit, per rate-limit form, latency and clients', subtext: options.subtitle, left: 10, top: 6 },
			...clients.map((c, i) => ({ text: c, left: grids[i].left, top: top - 22, textStyle: { fontSize: FONT, fontWeight: 'bold' as const } })),
		],
		grid: grids,
		xAxis: clients.map((_, i) => ({ type: 'category' as const, gridIndex: i, data: latencies.map(latencyText), position: 'bottom' as const, splitArea: { show: true }, name: 'latency', nameLocation: 'middle' as const, nameGap: 24 })),
		yAxis: clients.map((_, i) => ({ type: 'category' as const, gridIndex: i, data: forms, inverse: true, splitArea: { show: true }, axisLabel: { show: i === 0 } })),
		visualMap: {
			type: 'piecewise',
			pieces: GRID_BANDS.map(({ label, ...band }) => ({ ...band, label })),
			orient: 'vertical',
			itemGap: LEGEND_ROW_PX - FONT,
			left: 10,
			bottom: 8,
			dimension: 2,
			seriesIndex: clients.map((_, i) => i),
		},
		series: clients.map((c, i) => ({
			type: 'heatmap' as const,
			name: c,
			xAxisIndex: i,
			yAxisIndex: i,
			data: rows.filter((r) => r.clients === c).map((r) => [latencies.indexOf(r.latencyMs), forms.indexOf(r.form), Number(r.ratio.toFixed(2))]),
			label: { show: true, formatter: (p: { value?: unknown }) => `${(p.value as number[])[2].toFixed(2)}×`, color: '#000' },
			itemStyle: { borderColor: '#fff', borderWidth: 2 },
		})),
	});
}
