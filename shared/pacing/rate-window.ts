/**
 * What one answer says of the quota, as the pacing takes it: the contract between the reader of the answers' fields
 * (client/rate-fields.ts) and the quota's window (quota-window.ts). Types only.
 */

/** What one answer says of the quota (read by readRateLimit in client/rate-fields.ts). */
export interface RateWindow {
	/** Calls allowed per window. */
	limit?: number;
	/** Calls left in the window when this call was counted. */
	remaining?: number;
	/** When the window ends (ms, on the pacer's clock). */
	resetAt?: number;
	/** False when `resetAt` is known only to the second (a delay in whole seconds, an epoch in whole seconds, an HTTP date). */
	resetExact?: boolean;
	/** How far before `resetAt` the window may end (ms): its rounding, and the server's clock's spread for an instant on it. */
	resetPrecisionMs?: number;
	/**
	 * The window's end lies within `resetPrecisionMs` before `resetAt` for good: not an exact instant on a server clock
	 * not yet known to the millisecond (its answers soon tell it exactly), nor a zero (a window that ended some time before).
	 */
	resetSettled?: boolean;
	/** The window's length (ms), when the answer states it (IETF `RateLimit-Policy`: `w`). */
	windowMs?: number;
}
