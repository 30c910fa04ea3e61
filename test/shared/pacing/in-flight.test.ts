/** The calls in flight (shared/pacing/in-flight.ts): Little's law within a cap. */
import { AUTO_IN_FLIGHT, InFlight } from '../../../shared/pacing';

test('before any answer only the cap holds; then rate × latency with headroom, never under the floor', () => {
	const f = new InFlight();
	f.start(1, 0);
	expect(f.limit(10, 0)).toBe(AUTO_IN_FLIGHT.max);
	f.end(1, 1_000, true);
	expect(f.latencyMs).toBe(1_000);
	expect(f.limit(10, 1_000)).toBe(Math.ceil(10 * 1 * AUTO_IN_FLIGHT.headroom));
	expect(f.limit(0.1, 1_000)).toBe(AUTO_IN_FLIGHT.min);
	expect(f.limit(1_000, 1_000)).toBe(AUTO_IN_FLIGHT.max);
	expect(f.limit(1_000, 1_000, 5)).toBe(5);
});

test('a call still out longer than the mean latency counts with its age; failures leave the mean alone', () => {
	const f = new InFlight();
	f.start(1, 0);
	f.end(1, 100, true);
	f.start(2, 1_000);
	f.end(2, 9_000, false);
	expect(f.latencyMs).toBe(100);
	f.start(3, 2_000);
	expect(f.limit(10, 7_000)).toBe(Math.ceil(10 * 5 * AUTO_IN_FLIGHT.headroom));
	expect(f.peak).toBe(1);
});

test('the last answer the quota let through is kept (a refusal or a failure is not one): the quota budget reads it', () => {
	const f = new InFlight();
	expect(f.lastAnsweredAt).toBe(-Infinity);
	f.start(1, 0);
	f.end(1, 300, true);
	f.start(2, 400);
	f.end(2, 500, false);
	expect(f.lastAnsweredAt).toBe(300);
});
