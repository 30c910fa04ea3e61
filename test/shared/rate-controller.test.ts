/** The rate controller (shared/rate-controller.ts) on its own: times are given, nothing waits. */
import { RATE_DEFAULTS, RateController } from '../../shared/rate-controller';

/** Sends calls as fast as the bucket allows from `from` to `to`; returns their times. */
function sendUntil(rc: RateController, from: number, to: number): number[] {
	const times: number[] = [];
	for (let t = from; ; ) {
		t = rc.nextSendAt(t);
		if (t >= to) return times;
		rc.onSend(t);
		times.push(t);
	}
}

describe('RateController', () => {
	test('before any refusal the rate doubles every slowStartDoublingMs, with time, not with answers', () => {
		const rc = new RateController(0);
		expect(rc.rate(0)).toBe(RATE_DEFAULTS.initialRate);
		expect(rc.rate(RATE_DEFAULTS.slowStartDoublingMs)).toBeCloseTo(2 * RATE_DEFAULTS.initialRate);
		expect(rc.rate(2 * RATE_DEFAULTS.slowStartDoublingMs)).toBeCloseTo(4 * RATE_DEFAULTS.initialRate);
		// The initial burst goes at once, then the calls are spaced by the rate.
		const times = sendUntil(rc, 0, 1_000);
		expect(times.slice(0, RATE_DEFAULTS.initialBurst)).toEqual([0, 0, 0]);
		expect(times.length).toBeGreaterThan(8);
	});

	test('a refusal cuts to the rate measured, climbs back to just under it, holds, then probes upward', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 1 });
		// 10 calls a second for 2 s, then a refusal.
		for (let t = 0; t < 2_000; t += 100) rc.onSend(t);
		rc.onRefused(1_950, 2_000);
		const allowed = rc.report(2_000).allowed as number;
		// The slow start's last second holds 2/3 of the window that refused (see SLOW_START_SHARE).
		expect(allowed).toBeGreaterThan(5);
		expect(allowed).toBeLessThanOrEqual(10);
		expect(rc.rate(2_000)).toBeCloseTo(allowed * RATE_DEFAULTS.beta);
		const top = allowed * (1 - RATE_DEFAULTS.margin);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs)).toBeCloseTo(top);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs)).toBeCloseTo(top);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs + RATE_DEFAULTS.probeDoublingMs)).toBeCloseTo(2 * top);
	});

	test('refusals of calls sent before the last cut are the same crowding: one cut', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12 });
		for (let t = 0; t < 1_000; t += 100) rc.onSend(t);
		rc.onRefused(900, 1_000);
		const after = rc.rate(1_000);
		rc.onRefused(950, 1_010);
		expect(rc.rate(1_010)).toBeGreaterThanOrEqual(after);
	});

	test('a told quota is the starting rate and a ceiling; the answers showing room start the probe before the plateau ends', () => {
		const rc = new RateController(0);
		rc.setCeiling(9.7);
		expect(rc.rate(0)).toBe(9.7);
		expect(rc.rate(60_000)).toBe(9.7);
		for (let t = 0; t < 1_000; t += 200) rc.onSend(t);
		rc.onRefused(900, 1_000);
		const top = rc.rate(1_000 + RATE_DEFAULTS.recoverMs);
		rc.onRoom(3_000);
		expect(rc.rate(3_000 + RATE_DEFAULTS.probeDoublingMs)).toBeCloseTo(Math.min(9.7, 2 * top));
	});

	test('after a pause the bucket holds one call, not the calls the pause saved', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 1 });
		rc.onSend(0);
		rc.onPauseEnd(5_000);
		const times = sendUntil(rc, 5_000, 5_250);
		expect(times).toEqual([5_000, 5_100, 5_200]);
	});

	test('bounded memory: the sends kept for the measure stay within two spans', () => {
		const rc = new RateController(0, { maxRate: 1_000 });
		for (let t = 0; t < 100_000; t += 1) rc.onSend(t);
		rc.onRefused(99_999, 100_000);
		expect((rc as unknown as { sends: number[] }).sends.length).toBeLessThanOrEqual(2_048);
	});
});
