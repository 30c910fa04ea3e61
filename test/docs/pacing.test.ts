/**
 * docs/pacing.md states the pacing's figures in plain words; each one is checked here against the constant it
 * describes (shared/pacing/rate-controller.ts, quota-window.ts, room-signal.ts, refusal-hold.ts, in-flight.ts,
 * pacer.ts, registry.ts, and the budgets of the n8n node and the Zapier app), so that a tuned constant cannot leave
 * the page behind (it once said "50 % headroom" for a headroom of 2, and a "10 s plateau" for 12 s).
 */
import { AUTO_IN_FLIGHT, JITTER, DELAY_PRECISION_MS, FULL_HOLD_FROM_MS, TAIL_STEP_MIN_MS, REGISTRY_DEFAULTS, COMMON_WINDOW_MS, WINDOW_MARGIN, ROOM_SHARE, RATE_DEFAULTS, ALONE_STRETCH, SAME_WINDOW_MS, COMMON_WINDOW_LENGTHS_MS, RESOLVED_SHARE, LATE_END_MS, ROUNDED_LENGTH_PRECISIONS, SHARED_PACE, SHARED_SPREAD_MAX_MS } from '../../shared/pacing';
import { DEFAULT_RETRY_POLICY, DELAY_FIELDS, RATE_FIELD_FAMILIES } from '../../shared/client';
import { DEFAULT_MAX_QUOTA_WAIT_MINUTES } from '../../n8n/nodes/PostWriter/helpers/options';
import { RETRY_BUDGET } from '../../zapier/src/client';
import { read } from './files';

const PAGE = read('docs/pacing.md');

const pct = (share: number) => `${Math.round(share * 100)} %`;
const seconds = (ms: number) => `${ms / 1_000} s`;
/** "a second" for 1 000 ms, as the prose says it. */
const aSecond = (ms: number) => (ms === 1_000 ? 'a second' : seconds(ms));
/** A window's length as the prose says it: "a minute", "an hour", else seconds. */
const length = (ms: number) => (ms === 60_000 ? 'a minute' : ms === 3_600_000 ? 'an hour' : seconds(ms));
const times = (n: number) => (n === 2 ? 'twice over' : `${n} times over`);

const r = RATE_DEFAULTS;
const STATED: Array<[what: string, text: string]> = [
	['idle time before a pacing is dropped', `dropped after ${REGISTRY_DEFAULTS.idleMs / 60_000} idle minutes`],
	['initial rate and burst', `starts at ${r.initialRate} calls a second (${r.initialBurst} at once)`],
	['slow-start doubling', `doubles every ${seconds(r.slowStartDoublingMs)}`],
	['cut', `cuts the pace to ${pct(r.beta)} of the pace the key allowed`],
	['span measured', `over the last ${r.measureMs === 1_000 ? 'second' : seconds(r.measureMs)}`],
	['recovery and margin', `Within ${aSecond(r.recoverMs)} the pace climbs back to ${pct(r.margin)} under that`],
	['hold alone, and shared', `holds there for ${seconds(r.plateauMs)}, or ${seconds(r.sharedPlateauMs)} when a refusal shows that others share the key`],
	['step up', `goes faster by ${r.probeStep} calls a second each second (or by ${pct(r.probeStepShare)} of the told pace, when that is more)`],
	['jitter', `plus ${pct(JITTER.share)} and ${JITTER.minMs} ms of jitter, at most ${JITTER.maxMs} ms`],
	['window when none is told', `a window of ${aSecond(COMMON_WINDOW_MS)} is assumed`],
	['window margin', `over a window ${pct(WINDOW_MARGIN.share)} and ${WINDOW_MARGIN.ms} ms longer than told`],
	['window margin cap', `the ${pct(WINDOW_MARGIN.share)} at most ${WINDOW_MARGIN.shareMaxMs} ms`],
	['last second of a delay', `waits half of what is left, down to ${TAIL_STEP_MIN_MS} ms`],
	['a long delay held whole', `A delay of ${seconds(FULL_HOLD_FROM_MS)} or more** is waited whole`],
	['delay precision', `within its precision of ${aSecond(DELAY_PRECISION_MS).replace('a second', 'a whole second')}`],
	['in-flight headroom and cap', `rate × latency, ${times(AUTO_IN_FLIGHT.headroom)} for headroom, at most ${AUTO_IN_FLIGHT.max} per key and operation`],
	['Concurrency bounds', `A number set is a hard cap** (1 to ${AUTO_IN_FLIGHT.max})`],
	['Maximum Wait for the Quota', `(${DEFAULT_MAX_QUOTA_WAIT_MINUTES} minutes by default, on every operation)`],
	["Zapier's wait for the quota", `waits at most ${(RETRY_BUDGET.maxQuotaWaitMs ?? 0) / 1_000} s for the quota within a step`],
	['room share', `a window ending with ${pct(ROOM_SHARE)} of its limit unused`],
	['stretch that shows a key alone', `the counts told over ${aSecond(ALONE_STRETCH.ms)} of its calls (or ${ALONE_STRETCH.ofWindow === 0.5 ? 'half' : pct(ALONE_STRETCH.ofWindow) + ' of'} a shorter window)`],
	['common window lengths', `${COMMON_WINDOW_LENGTHS_MS.slice(0, 7).map(seconds).join(', ')}, ${length(COMMON_WINDOW_LENGTHS_MS[7])}, and so on up to ${length(COMMON_WINDOW_LENGTHS_MS[COMMON_WINDOW_LENGTHS_MS.length - 1])}`],
	['a length known', `While they are more than ${pct(RESOLVED_SHARE)} apart, the next end is probed halfway between them. Once they are within ${pct(RESOLVED_SHARE)}`],
	['a late end', `refused within ${seconds(LATE_END_MS)} of it, shows the end late`],
	["a guess's longest wait", `the backoff's longest step (${seconds(DEFAULT_RETRY_POLICY.maxDelayMs)}; ${seconds(RETRY_BUDGET.maxDelayMs ?? 0)} on Zapier)`],
	['when a relative reset is exact', `it is exact only when the answer came within ${SAME_WINDOW_MS} ms`],
	['a length from ends told to the second', `only when the window is at least ${times(ROUNDED_LENGTH_PRECISIONS).replace(' over', '')} as long as the readings are uncertain`],
	['the pace of a shared key', `Spread at up to ${times(SHARED_PACE).replace(' over', '')} the told pace, and never slower than a window's limit in ${seconds(SHARED_SPREAD_MAX_MS)}`],
	['when a delay in milliseconds is', `A delay in milliseconds counts as told to the millisecond only when its answer came within ${SAME_WINDOW_MS} ms`],
];

test("the page names every spelling of the reader's table", () => {
	const page = PAGE.toLowerCase();
	for (const f of RATE_FIELD_FAMILIES) expect(page).toContain(`\`${f.limit}\``);
	for (const d of DELAY_FIELDS) expect(page).toContain(`\`${d.field}\``);
});

test.each(STATED)('docs/pacing.md states the %s as the code has it', (_what, text) => {
	expect(PAGE).toContain(text);
});

test('every hold the page names is one of the two constants, and no headroom is a percentage', () => {
	const holds = [...PAGE.matchAll(/holds there for (\d+) s, or (\d+) s/g)].flatMap((m) => [Number(m[1]) * 1_000, Number(m[2]) * 1_000]);
	expect(holds).toEqual([r.plateauMs, r.sharedPlateauMs]);
	expect([...PAGE.matchAll(/(\d+) % headroom/g)]).toEqual([]);
});

test('the page has a section on windows, and says what it does not read yet', () => {
	expect(PAGE).toMatch(/\n## Windows\n/);
	expect(PAGE).toMatch(/Other spellings count as not said/);
});
