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

/**
 * Where the targets are not met yet: a rule, the bounds it holds the case to, and the worst the grid reached.
 * Each is work left in issue 40.
 */
const OPEN: Array<{ name: string; applies: (c: GridCase) => boolean; ratio: number; share429: number; failed: number }> = [
	// Answers of 5 s on windows of 10 s, without exact ends: each count comes half a window after its call, and each
	// process sends one call more than the window holds (with exact ends, each keeps to its share of the window before:
	// exact-ends.ts's shareOf). `RateLimit-*` in whole seconds there tell no length (their 6 s of uncertainty is more
	// than half the window), and each process probes every window's start.
	{ name: 'three processes, answers of 5 s on windows of 10 s, whole-second resets', applies: (c) => c.clients.processes > 1 && c.window?.windowMs === 10_000 && c.latencyMs === 5_000 && c.form.id === 'ratelimit-s', ratio: 1.02, share429: 0.25, failed: 0 },
	{ name: 'three processes, answers of 5 s on windows of 10 s', applies: (c) => c.clients.processes > 1 && c.window?.windowMs === 10_000 && c.latencyMs === 5_000 && ['xrl-no-reset', 'ietf'].includes(c.form.id), ratio: 1.03, share429: 0.109, failed: 0 },
	// A `Retry-After` date from a server 3 s away, quick answers: each process probes the date's last second twice (26.6 %).
	{ name: 'three processes, a Retry-After date from a server 3 s away, answers of 0.2 s', applies: (c) => c.clients.processes > 1 && c.window?.windowMs === 10_000 && c.latencyMs === 200 && c.form.id === 'retry-after-date' && !!c.serverClockMs, ratio: 1.02, share429: 0.27, failed: 0 },
];
/**
 * Where a form is still over 3 % slower than `Retry-After` in seconds alone for the same case, and the bound it is
 * held to: none now (the last, exact resets from a server 3 s away on windows of a minute across three processes,
 * went from 4.3-4.7 % to within 3 % once a shared key spread its calls faster: quota-window.ts, SHARED_PACE).
 */
const OPEN_PRINCIPLE: Array<{ name: string; applies: (c: GridCase) => boolean; vsRetryAfter: number }> = [];

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
