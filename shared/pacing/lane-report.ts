/**
 * What the pacer tells of a lane (one operation's quota on a key), and its words for error messages and the
 * node's hint.
 */

/** What the pacer tells of a lane, for messages and hints. */
export interface LaneReport {
	limit?: number;
	windowMs?: number;
	/** The rate allowed now (calls per second). */
	rate: number;
	/** The rate the last refusal showed the key allowed (calls per second), if any came. */
	allowedRate?: number;
	latencyMs?: number;
	/** Calls in flight allowed now. */
	inFlightLimit: number;
	/** Most calls in flight at once so far. */
	peakInFlight: number;
}

/** "10 calls per 1 s" (or undefined when no answer told the quota). */
export function describeQuota(report: LaneReport): string | undefined {
	if (report.limit === undefined) return undefined;
	const per = report.windowMs === undefined ? 'window' : formatDuration(report.windowMs);
	return `${report.limit} call${report.limit === 1 ? '' : 's'} per ${per}`;
}

export function formatDuration(ms: number): string {
	if (ms < 1_000) return `${Math.round(ms)} ms`;
	if (ms < 120_000) return `${Number((ms / 1_000).toFixed(1))} s`;
	return `${Number((ms / 60_000).toFixed(1))} min`;
}
