/**
 * The README's "Items in parallel" section states the pacing's figures in prose a user can follow; each one is
 * checked here against the constant it describes (shared/pacing/rate-controller.ts, quota-window.ts, room-signal.ts,
 * refusal-hold.ts, in-flight.ts, pacing.ts, pacer-registry.ts), so that a tuned constant cannot leave the docs
 * behind (the section once said "50 % headroom" for a headroom of 2, and a "10 s plateau" for 12 s).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AUTO_IN_FLIGHT, JITTER, DELAY_PRECISION_MS, TAIL_STEP_MIN_MS, REGISTRY_DEFAULTS, COMMON_WINDOW_MS, WINDOW_MARGIN, ROOM_SHARE, RATE_DEFAULTS } from '../shared/pacing';

const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const HEADING = '#### Items in parallel, and one quota per key: Options › Concurrency';

/** The section, up to the next heading of any level. */
function section(): string {
	const start = README.indexOf(HEADING);
	if (start < 0) throw new Error(`README.md has no "${HEADING}"`);
	const rest = README.slice(start + HEADING.length);
	const next = rest.search(/\n#{1,4} /);
	return next < 0 ? rest : rest.slice(0, next);
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
const seconds = (ms: number) => `${ms / 1_000} s`;
/** "a second" for 1 000 ms, as the prose says it. */
const aSecond = (ms: number) => (ms === 1_000 ? 'a second' : seconds(ms));

const r = RATE_DEFAULTS;
const STATED: Array<[what: string, text: string]> = [
	['initial rate and burst', `starts at ${r.initialRate} calls a second (${r.initialBurst} at once)`],
	['slow-start doubling', `doubles every ${seconds(r.slowStartDoublingMs)}`],
	['cut', `cuts the rate to ${pct(r.beta)} of the rate the key allowed`],
	['span measured', `over the last ${r.measureMs === 1_000 ? 'second' : seconds(r.measureMs)}`],
	['recovery and margin', `regains within ${aSecond(r.recoverMs)}, ${pct(r.margin)} under it`],
	['probe step', `probes upward by ${r.probeStep} calls a second each second (or by ${pct(r.probeStepShare)} of the told rate, when that is more)`],
	['plateau alone', `holds ${seconds(r.plateauMs)} between probes`],
	['plateau shared', `probes after ${seconds(r.sharedPlateauMs)}`],
	['plateau, across processes', `after its ${seconds(r.plateauMs)} plateau`],
	['delay precision', `longer than its precision (${aSecond(DELAY_PRECISION_MS).replace('a second', 'a whole second')}, unless the answers tell exact window ends)`],
	['last second of a delay', `waits half of what is left, down to ${TAIL_STEP_MIN_MS} ms`],
	['window when none is told', `or of ${aSecond(COMMON_WINDOW_MS)} when none is told`],
	['jitter', `plus ${pct(JITTER.share)} and ${JITTER.minMs} ms of jitter, at most ${JITTER.maxMs} ms`],
	['in-flight headroom', `rate × latency, ${AUTO_IN_FLIGHT.headroom === 2 ? 'twice over' : `${AUTO_IN_FLIGHT.headroom} times over`} for headroom`],
	['in-flight cap', `at most ${AUTO_IN_FLIGHT.max} per key and operation`],
	['Concurrency bounds', `(1 to ${AUTO_IN_FLIGHT.max})`],
	['window margin', `a window ${pct(WINDOW_MARGIN.share)} and ${WINDOW_MARGIN.ms} ms longer than told`],
	['room share', `ending with ${pct(ROOM_SHARE)} of its limit unused`],
	['registry idle time', `dropped after ${REGISTRY_DEFAULTS.idleMs / 60_000} idle minutes`],
];

test.each(STATED)("README's Items in parallel states the %s as the code has it", (_what, text) => {
	expect(section()).toContain(text);
});

test('every plateau the section names is one of the two constants, and no headroom is a percentage', () => {
	const s = section();
	const plateaus = [...s.matchAll(/(\d+(?:\.\d+)?) s plateau|holds (\d+) s between|probes after (\d+) s/g)].map((m) => Number(m[1] ?? m[2] ?? m[3]) * 1_000);
	expect(plateaus.length).toBeGreaterThan(0);
	for (const ms of plateaus) expect([r.plateauMs, r.sharedPlateauMs]).toContain(ms);
	const headrooms = [...s.matchAll(/(\d+) % headroom/g)];
	expect(headrooms).toEqual([]);
});
