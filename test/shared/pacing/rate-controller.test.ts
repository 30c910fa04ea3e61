/** The rate controller (shared/pacing/rate-controller.ts) on its own: times are given, nothing waits. */
import { RATE_DEFAULTS, RateController } from '../../../shared/pacing';

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

	test('a told window starting with a share of calls lets them go at once, whatever the bucket held', () => {
		const rc = new RateController(0);
		rc.setCeiling(9.5, 1_000);
		sendUntil(rc, 0, 1_000);
		rc.onWindowStart(1_000, 10);
		expect(sendUntil(rc, 1_000, 1_001)).toHaveLength(10);
	});

	test('a refusal cuts to the rate measured, climbs back to just under it, holds, then probes upward', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 1 });
		// 10 calls a second for 2 s, then a refusal.
		for (let t = 0; t < 2_000; t += 100) rc.onSend(t);
		rc.onRefused(1_950, 2_000);
		const allowed = rc.report(2_000).allowed as number;
		// Our calls of the last second that were not refused: 10 a second.
		expect(allowed).toBe(10);
		expect(rc.rate(2_000)).toBeCloseTo(allowed * RATE_DEFAULTS.beta);
		const top = allowed * (1 - RATE_DEFAULTS.margin);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs)).toBeCloseTo(top);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs)).toBeCloseTo(top);
		// Then it probes by the same step every second: the larger of probeStep and probeStepShare of the rate allowed.
		const step = Math.max(RATE_DEFAULTS.probeStep, RATE_DEFAULTS.probeStepShare * allowed);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs + 1_000)).toBeCloseTo(top + step);
		expect(rc.rate(2_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs + 3_000)).toBeCloseTo(top + 3 * step);
	});

	test('the first refusal measures over the epoch when the last second misses its first calls (sent together on a slow first connection)', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 3 });
		for (const t of [0, 0, 0, 300, 450, 600, 750, 900, 1_000, 1_050]) rc.onSend(t);
		rc.onRefused(1_060, 1_070);
		// 7 calls in the last second; the 10 since the first, within a second and the first calls' lag of it, are one window's.
		expect(rc.report(1_070).allowed).toBe(10);
		// Later than that, the epoch's calls are spread over its span.
		const slow = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 3 });
		for (const t of [0, 0, 0, 300, 450, 600, 750, 900, 1_000, 1_050, 1_300, 1_450]) slow.onSend(t);
		slow.onRefused(1_490, 1_500);
		expect(slow.report(1_500).allowed).toBeCloseTo(12_000 / 1_500);
	});

	test('the later refusals of the first crowding, within a second of their delay, measure over the epoch too', () => {
		// One process, Retry-After: 1 alone (a delay within its precision holds the others only until the window our first call opened ends): the first calls
		// were sent together at 0 and reached the server late, so the window ends late, and calls at the cut rate are
		// refused until then. The fifth refusal's last second misses the three first calls.
		const first = () => {
			const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 3 });
			for (const t of [0, 0, 0, 190, 300, 390, 470, 550, 610, 670]) rc.onSend(t);
			return rc;
		};
		const refuse = (rc: RateController, at: number, delayMs = 1_000) => {
			rc.onSend(at);
			rc.onRefused(at, at + 2);
			rc.onCrowdingEnds(at + 2 + delayMs);
		};
		const rc = first();
		for (const at of [750, 830, 940, 1_050, 1_170]) refuse(rc, at);
		expect(rc.report(1_172).allowed).toBeGreaterThan(8.5);
		// A refusal after the end the last one told is a crowding of its own: measured over its last second (7 calls).
		const later = first();
		refuse(later, 750, 300);
		refuse(later, 1_100);
		expect(later.report(1_102).allowed).toBe(7);
	});

	test("a hold within a short delay keeps the epoch: a refusal after it still measures the first window's calls; a pause's end starts a new one", () => {
		const first = () => {
			const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 3 });
			for (const t of [0, 0, 0, 190, 300, 390, 470, 550, 610, 670]) rc.onSend(t);
			rc.onSend(740);
			rc.onRefused(740, 742);
			rc.onCrowdingEnds(1_742);
			return rc;
		};
		// Held until 1,030 ms (the window our first calls opened), then refused again at 1,110: the first calls reached
		// the server late. Over the epoch since 0, the window's 10 calls: the rate allowed stays near 10.
		const held = first();
		held.onPauseEnd(1_030, false, false);
		held.onSend(1_040);
		held.onRefused(1_040, 1_110);
		expect(held.report(1_110).allowed).toBeGreaterThan(8.5);
		// The same after a pause's end: a new epoch of one call, and the last second without the three first calls.
		const paused = first();
		paused.onPauseEnd(1_030);
		paused.onSend(1_040);
		paused.onRefused(1_040, 1_110);
		expect(paused.report(1_110).allowed).toBeLessThan(8);
	});

	test('a probe refused within a span of its start found nothing more: the rate allowed stays where it was', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 1, plateauMs: 2_000 });
		for (let t = 0; t < 1_000; t += 100) rc.onSend(t);
		rc.onRefused(950, 1_000);
		const first = rc.report(1_000).allowed as number;
		// The probe starts at 4 s; by 4.6 s it sends faster than before, and a refusal comes.
		for (let t = 1_000; t < 4_600; ) {
			t = rc.nextSendAt(t);
			rc.onSend(t);
		}
		const before = Math.max(first, rc.rate(3_600));
		rc.onRefused(4_590, 4_600);
		expect(rc.report(4_600).allowed).toBeLessThanOrEqual(before + 1e-9);
	});

	test('refused on its plateau (not probing), a client shares the key: it probes after the short plateau', () => {
		const rc = new RateController(0, { initialRate: 10, slowStartDoublingMs: 1e12, initialBurst: 1 });
		for (let t = 0; t < 1_000; t += 100) rc.onSend(t);
		rc.onRefused(950, 1_000);
		for (let t = 1_000; t < 5_000; t += 125) rc.onSend(t);
		rc.onRefused(4_990, 5_000);
		const top = rc.rate(5_000 + RATE_DEFAULTS.recoverMs);
		const probe = 5_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.sharedPlateauMs;
		expect(rc.rate(probe)).toBeCloseTo(top);
		expect(rc.rate(probe + 1_000)).toBeGreaterThan(top);
	});

	test('the probe step is the same for a client at 1 call a second as for one at 5: shares even out', () => {
		const clients = [1, 5].map((perSecond) => {
			const rc = new RateController(0, { initialRate: perSecond, slowStartDoublingMs: 1e12, initialBurst: 1 });
			for (let t = 0; t < 1_000; t += 1_000 / perSecond) rc.onSend(t);
			rc.onRefused(999, 1_000);
			return rc;
		});
		const probe = 1_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs;
		const gains = clients.map((rc) => rc.rate(probe + 2_000) - rc.rate(probe));
		expect(gains[0]).toBeCloseTo(2 * RATE_DEFAULTS.probeStep);
		expect(gains[1]).toBeCloseTo(gains[0]);
	});

	test('a large quota is probed in steps of its own size (a share of the told rate)', () => {
		const rc = new RateController(0, { slowStartDoublingMs: 1e12 });
		rc.setCeiling(200);
		for (let t = 0; t < 1_000; t += 10) rc.onSend(t);
		rc.onRefused(990, 1_000);
		const probe = 1_000 + RATE_DEFAULTS.recoverMs + RATE_DEFAULTS.plateauMs;
		expect(rc.rate(probe + 1_000) - rc.rate(probe)).toBeCloseTo(RATE_DEFAULTS.probeStepShare * 200);
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
		expect(rc.rate(3_000 + 1_000)).toBeCloseTo(Math.min(9.7, top + Math.max(RATE_DEFAULTS.probeStep, RATE_DEFAULTS.probeStepShare * 9.7)));
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
