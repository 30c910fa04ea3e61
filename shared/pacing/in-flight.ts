/**
 * How many calls of one lane may be in flight at once (Concurrency Auto): Little's law, the rate times the
 * latency, with headroom, within a cap. The rate controller decides when a call goes; this only keeps a lane
 * from piling up calls when the answers slow down, and keeps memory and connections bounded.
 * Pure: the caller gives the times. Its bounds, AUTO_IN_FLIGHT, are in definitions.ts (the platforms show them).
 */
import { AUTO_IN_FLIGHT } from './definitions';

export class InFlight {
	/** Calls in flight: ticket → time sent. */
	private readonly flying = new Map<number, number>();
	/** Mean latency of the answered calls (ms). */
	latencyMs?: number;
	/** Most calls in flight at once so far. */
	peak = 0;
	/** When the last answered call (any status but a refusal: the quota let it through) was answered. */
	lastAnsweredAt = -Infinity;

	get count(): number {
		return this.flying.size;
	}

	start(ticket: number, at: number): void {
		this.flying.set(ticket, at);
		this.peak = Math.max(this.peak, this.flying.size);
	}

	/** Calls still in flight that were sent before the call `ticket` (their tickets are lower), and not before `since`. */
	before(ticket: number, since = -Infinity): number {
		let n = 0;
		for (const [t, at] of this.flying) if (t < ticket && at >= since) n++;
		return n;
	}

	/** The call `ticket` ended at `now`; `answered`: its time counts in the mean latency. */
	end(ticket: number, now: number, answered: boolean): void {
		const at = this.flying.get(ticket);
		this.flying.delete(ticket);
		if (answered) this.lastAnsweredAt = Math.max(this.lastAnsweredAt, now);
		if (!answered || at === undefined) return;
		const took = now - at;
		this.latencyMs = this.latencyMs === undefined ? took : Math.round((1 - AUTO_IN_FLIGHT.smoothing) * this.latencyMs + AUTO_IN_FLIGHT.smoothing * took);
	}

	/**
	 * Calls in flight allowed at `rate` (calls per second): the latency measured, or the age of the oldest call still
	 * out if longer; never fewer than `burst` (a told window's calls, which may go together at its start).
	 */
	limit(rate: number, now: number, cap = AUTO_IN_FLIGHT.max, burst = 0): number {
		let oldest = now;
		for (const at of this.flying.values()) oldest = Math.min(oldest, at);
		const latency = Math.max(this.latencyMs ?? 0, now - oldest);
		// Before any answer, the latency is unknown: the rate alone paces (within the cap).
		if (this.latencyMs === undefined) return cap;
		const little = Math.max(burst, Math.ceil((rate * latency * AUTO_IN_FLIGHT.headroom) / 1_000));
		return Math.max(AUTO_IN_FLIGHT.min, Math.min(cap, little));
	}
}
