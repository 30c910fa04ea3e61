/**
 * shared/pacing's definitions: what a platform shows of the pacing when it loads (n8n's Concurrency bounds),
 * without the pacing itself. The folder's second entry, beside index.ts (which exports this too): it imports
 * nothing, so the code that only describes (n8n's node descriptions, Zapier's app definition) loads none of the
 * pacer (test/shared/structure.test.ts).
 */

/** Concurrency Auto: the calls in flight on one lane, by Little's law within these bounds (in-flight.ts). */
export const AUTO_IN_FLIGHT = {
	/** Never more calls in flight on one lane, whatever the quota allows (memory and connections of one process). */
	max: 128,
	/** Headroom over Little's law (rate × latency): answers vary in time, and a slot freed late should not stall the rate. */
	headroom: 2,
	/** Never fewer: one call waiting on a slow answer does not stop the next (as TCP's floor of 2 segments). */
	min: 2,
	/** Weight of a new answer in the mean latency (a moving average over about five answers). */
	smoothing: 0.2,
};
