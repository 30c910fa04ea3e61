/**
 * server-clock.ts: the server's clock from the `Date` header of its answers, per key. Our clock stands while it
 * agrees with every `Date` seen; a clock seconds apart is learned from the bounds each answer gives.
 */
import { DATE_PRECISION_MS, ServerClock } from '../../../shared/pacing';

const T0 = 1_700_000_000_000;

/** `n` answers from a server whose clock is `skewMs` from ours, at instants spread over seconds (seeded), each taking `latencyMs`. */
function learnFrom(clock: ServerClock, skewMs: number, n: number, latencyMs = 200, seed = 7): void {
	let s = seed;
	const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
	for (let i = 0; i < n; i++) {
		const receivedAt = T0 + i * 1_000 + Math.floor(random() * 1_000);
		// Stamped as the answer leaves (a few ms before it arrives), truncated to the second.
		clock.learn(new Date(receivedAt - 3 + skewMs).toUTCString(), receivedAt - latencyMs, receivedAt);
	}
}

describe('ServerClock', () => {
	test('with no Date header, our own clock', () => {
		const clock = new ServerClock();
		clock.learn(undefined, T0, T0 + 5);
		clock.learn('not a date', T0, T0 + 5);
		expect([clock.offsetMs, clock.precisionMs, clock.toLocal(T0)]).toEqual([0, 0, T0]);
	});

	test('a server on our clock: our clock stands (a Date cannot show less than its second)', () => {
		const clock = new ServerClock();
		learnFrom(clock, 0, 30);
		expect([clock.offsetMs, clock.precisionMs]).toEqual([0, 0]);
	});

	test.each([3_000, -3_000, 60_000, 1_500])('a server %i ms from us: learned within what its whole seconds leave, never ahead of it', (skew) => {
		const clock = new ServerClock();
		learnFrom(clock, skew, 1);
		expect(Math.abs(clock.offsetMs - skew)).toBeLessThanOrEqual(DATE_PRECISION_MS);
		learnFrom(clock, skew, 20);
		// After 20 answers at random instants, within about a tenth of a second.
		expect(Math.abs(clock.offsetMs - skew)).toBeLessThan(150);
		expect(clock.precisionMs).toBeLessThan(100);
		// The lowest offset the answers allow: a server's instant falls on our clock late, never early.
		expect(clock.offsetMs).toBeLessThanOrEqual(skew);
		expect(clock.toLocal(T0 + skew)).toBeCloseTo(T0, -3);
	});

	test('the spread bounds how early a server\'s instant may be: a second and the answer\'s time after one answer, less after many; 0 on our clock', () => {
		const clock = new ServerClock();
		learnFrom(clock, 3_000, 1);
		expect(clock.spreadMs).toBe(DATE_PRECISION_MS + 200);
		// The true offset lies within the spread above the one taken.
		expect(3_000 - clock.offsetMs).toBeLessThanOrEqual(clock.spreadMs);
		learnFrom(clock, 3_000, 20);
		expect(clock.spreadMs).toBeLessThan(300);
		expect(3_000 - clock.offsetMs).toBeLessThanOrEqual(clock.spreadMs);
		const ours = new ServerClock();
		learnFrom(ours, 0, 5);
		expect(ours.spreadMs).toBe(0);
	});

	test('a clock that jumps: bounds that cross start again from the latest answer', () => {
		const clock = new ServerClock();
		learnFrom(clock, 3_000, 10);
		learnFrom(clock, -5_000, 10);
		expect(Math.abs(clock.offsetMs + 5_000)).toBeLessThan(DATE_PRECISION_MS / 4);
	});

	test('the upper bound holds when answers are quick: the offset never passes it', () => {
		const clock = new ServerClock();
		// One answer, stamped at 0.999 s into a second of a server 3 s ahead, 1 ms latency.
		clock.learn(new Date(T0 + 3_999).toUTCString(), T0 + 998, T0 + 999);
		expect(clock.offsetMs).toBeLessThanOrEqual(T0 + 3_000 + DATE_PRECISION_MS - (T0 + 998));
	});
});
