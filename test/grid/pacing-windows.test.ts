/**
 * Issue 40's extension of S8's grid on virtual time (scripts/lib/pacing-grid.ts windowCases): windows of 10 s and
 * 60 s, a server clock 3 s ahead and 3 s behind, `retry-after-ms`, resets as durations, and a 429 with no field;
 * and S8's own cases (gridCases, 1 s windows), which issue 40's targets cover too.
 *
 * Every case is held to "no item charged twice, none charged for nothing". The targets of issue 40
 * (WINDOW_TARGETS) hold where the pacing meets them today; where it does not yet, the case is held to the bound
 * OPEN names, with the figure it reached, so that it cannot get worse unseen; the principle (no form over 3 % slower
 * than `Retry-After` in seconds alone, in one process and across three) likewise with OPEN_PRINCIPLE. Issue 40 stays
 * open until both are empty (docs/pacing.md, "Windows", says what the pacing does with each kind of window).
 */
import { GRID_FORMS, GRID_WINDOWS, WINDOW_TARGETS, gridCases, windowCases, type GridCase, type GridResult } from '../../scripts/lib/pacing-grid';
import { runGridCase } from '../helpers/pacing-grid';

jest.setTimeout(300_000);

/** The S8 seed and a clock started 0.3 s into a second (the server's windows start anywhere in one). */
const RUN = { seed: 991, clockOffsetMs: 300 };

const isLong = (c: GridCase) => (c.window?.windowMs ?? 1_000) > 1_000;

/**
 * Where the targets are not met yet: a rule, the bounds it holds the case to, and the worst the grid reached.
 * Each is work left in issue 40.
 */
const OPEN: Array<{ name: string; applies: (c: GridCase) => boolean; ratio: number; share429: number; failed: number }> = [
	// Three processes with windows of 10 s and 60 s: each process paces on its own measure, and the first back when a
	// window opens takes most of it: up to 27 % of requests answered 429 (at 25 per 10 s; 15 % at 60 s, where a long
	// delay is held whole). No item fails: the budget counts only time in which none of the operation's calls got
	// through (13 of 240 ran out of it before, behind their own process's). At the targets: a 429 that says nothing (its
	// window's ends are learned from the refusals, silent-window.ts, the same in every process), `retry-after-ms` (a
	// delay told to the millisecond has no last second to probe: 34 % → 10 %), and `Retry-After` in seconds (24 %).
	{ name: 'three processes, long windows', applies: (c) => c.clients.processes > 1 && isLong(c) && !['none', 'retry-after-ms', 'retry-after-s'].includes(c.form.id), ratio: 1.06, share429: 0.27, failed: 0 },
];
/**
 * Where a form is still over 3 % slower than `Retry-After` in seconds alone for the same case, and the bound it is
 * held to. Three processes with exact resets from a server 3 s away on windows of a minute: the processes pace
 * their calls at the told pace while the key is shared, and the last window's calls go a token apart where the
 * refusals' processes send them together (4.3-4.7 % slower; `Retry-After` alone 1.004 ×).
 */
const OPEN_PRINCIPLE: Array<{ name: string; applies: (c: GridCase) => boolean; vsRetryAfter: number }> = [
	{ name: 'three processes, exact resets on a clock 3 s away, windows of a minute', applies: (c) => c.clients.processes > 1 && c.window?.windowMs === 60_000 && c.form.id === 'xrl-reset' && !!c.serverClockMs, vsRetryAfter: 1.05 },
];

const openOf = (c: GridCase) => OPEN.find((o) => o.applies(c));
/** The cases, once: results are kept by case. S8's own (1 s windows) are held to issue 40's targets here too. */
const CASES = [...gridCases().map((c) => ({ ...c, window: GRID_WINDOWS[0] })), ...windowCases()];
const results = new Map<GridCase, GridResult>();

beforeAll(async () => {
	for (const c of CASES) results.set(c, await runGridCase(c, RUN));
});

const label = (c: GridCase) => `${c.window?.id}, ${c.clients.label}, L = ${c.latencyMs} ms, ${c.form.label}${c.serverClockMs ? `, server clock ${c.serverClockMs > 0 ? '+' : ''}${c.serverClockMs / 1000} s` : ''}`;

describe.each(CASES.map((c) => [label(c), c] as const))('%s', (_name, c) => {
	const r = () => results.get(c) as GridResult;

	test('every item answered was charged once, and no failed item was charged', () => {
		expect(r().credits).toBe(r().items - r().failed);
	});

	const open = openOf(c);
	if (open) {
		test(`not yet at issue 40's targets (${open.name}): no worse than the grid reached`, () => {
			expect(r().failed).toBeLessThanOrEqual(open.failed);
			expect(r().ratio).toBeLessThanOrEqual(open.ratio);
			expect(r().refused429 / r().requests).toBeLessThanOrEqual(open.share429);
		});
		return;
	}

	test("at issue 40's targets: no item failed, the wall and the share answered 429", () => {
		const fullest = c.form.id === 'xrl-reset' && c.clients.processes === 1;
		expect(r().failed).toBe(0);
		expect(r().ratio).toBeLessThanOrEqual(fullest ? WINDOW_TARGETS.ratioFullest : c.clients.processes > 1 ? WINDOW_TARGETS.ratioProcesses : WINDOW_TARGETS.ratioOneProcess);
		expect(r().refused429 / r().requests).toBeLessThanOrEqual(c.form.told ? WINDOW_TARGETS.share429Told : WINDOW_TARGETS.share429Refusals);
	});

	// A 429 that says nothing tells less than `Retry-After`: the principle does not hold it to it across processes.
	if (c.form.id !== 'retry-after-s' && (c.clients.processes === 1 || c.form.id !== 'none')) {
		const openPrinciple = OPEN_PRINCIPLE.find((o) => o.applies(c));
		const bound = openPrinciple?.vsRetryAfter ?? WINDOW_TARGETS.vsRetryAfter;
		test(`no slower than \`Retry-After\` in seconds alone for the same case (more information never makes it slower)${openPrinciple ? `: not yet (${openPrinciple.name}), within ${bound} ×` : ''}`, () => {
			const same = [...results.entries()].find(([k]) => k.form.id === 'retry-after-s' && k.window?.id === c.window?.id && k.latencyMs === c.latencyMs && k.clients.id === c.clients.id && !k.serverClockMs);
			expect(same).toBeDefined();
			if (same) expect(r().wallMs).toBeLessThanOrEqual(same[1].wallMs * bound);
		});
	}
});

test('the extension covers every form at every window, and the forms with dates on clocks ahead and behind', () => {
	const cases = windowCases();
	expect(new Set(cases.map((c) => c.window?.id))).toEqual(new Set(['10/1s', '25/10s', '25/60s']));
	expect(new Set(cases.map((c) => c.form.id))).toEqual(new Set([...GRID_FORMS.map((f) => f.id), 'retry-after-ms', 'duration', 'none']));
	expect(cases.filter((c) => c.serverClockMs !== undefined).every((c) => c.form.dates)).toBe(true);
});

test("a server's clock 3 s off costs a Retry-After date nothing: its waits are read on the server's clock", () => {
	for (const [c, r] of results) {
		if (c.form.id !== 'retry-after-date' || !c.serverClockMs) continue;
		const same = [...results.entries()].find(([k]) => k.form.id === c.form.id && k.window?.id === c.window?.id && k.latencyMs === c.latencyMs && k.clients.id === c.clients.id && !k.serverClockMs);
		if (same) expect(r.wallMs).toBeLessThanOrEqual(same[1].wallMs * 1.02);
	}
});
