/**
 * One lane of a pacer (pacer.ts): the calls of one operation on one key, since the service counts per endpoint.
 * It holds the parts that pace them, and says what each event does to those parts: a call taken, an answer or a
 * refusal learned, a refusal's hold, a pause ended. When to wait for what is the pacer's. Pure: the caller gives
 * the time of each event.
 */
import { AUTO_IN_FLIGHT } from './definitions';
import { InFlight } from './in-flight';
import { SAME_WINDOW_MS } from './learned-length';
import { COMMON_WINDOW_MS, QuotaWindow } from './quota-window';
import type { RateWindow } from './rate-window';
import { RateController, type RateControllerOptions } from './rate-controller';
import { DELAY_PRECISION_MS, RefusalHold } from './refusal-hold';
import { RoomSignal } from './room-signal';
import { SilentWindow } from './silent-window';
import type { LaneReport } from './lane-report';

/** How a call ended, for the pacing: answered (any status but a refusal), refused (429: not carried out), or no answer. */
export type CallOutcome = 'answered' | 'refused' | 'failed';

/** A refusal as the lane takes it (Pacer.refused gives the wait, with its jitter). */
export interface LaneRefusal {
	now: number;
	/** The server's delay (ms). */
	delay: number;
	/** The refused call's own wait: the delay and its jitter. */
	wait: number;
	/** The delay was learned from refusals that said nothing (silent-window.ts). */
	learned: boolean;
	/** The window ends within this time before the delay runs out; undefined when the server told no delay. */
	precisionMs?: number;
	/** The delay's end lies within its precision for good (rate-fields.ts's RetryDelay). */
	settled?: boolean;
}

export class Lane {
	readonly rate: RateController;
	readonly flight = new InFlight();
	readonly window = new QuotaWindow((ticket, since) => this.flight.before(ticket, since));
	readonly hold = new RefusalHold();
	readonly room = new RoomSignal(SAME_WINDOW_MS);
	/** The window's ends, learned from refusals, for a 429 that gives no delay. */
	readonly silent = new SilentWindow();
	/** Tickets given so far. */
	sent = 0;
	/** No call starts before this time (the server's delay after a refusal on this lane). */
	pausedUntil = 0;

	constructor(now: number, rateOptions: Partial<RateControllerOptions> = {}) {
		this.rate = new RateController(now, rateOptions);
	}

	/** A call goes at `now`; returns its ticket. */
	take(now: number): number {
		this.sent++;
		this.rate.onSend(now);
		this.window.onSend(this.sent, now, this.flight.latencyMs);
		this.flight.start(this.sent, now);
		this.silent.sent(now);
		return this.sent;
	}

	/** The call `ticket` sent at `sentAt` ended at `now`, with what its answer said of the quota (nothing for a failure without an answer). */
	ended(ticket: number, sentAt: number, now: number, window: RateWindow | undefined, outcome: CallOutcome): void {
		this.flight.end(ticket, now, outcome === 'answered');
		this.silent.ended(sentAt, now, outcome === 'failed' ? undefined : outcome === 'answered');
		if (outcome === 'refused') {
			this.window.onRefused(ticket, sentAt);
			if (this.hold.onRefusedCall(sentAt)) this.rate.onRefused(sentAt, now);
		}
		if (!window) return;
		const w = this.window;
		w.learn(window, ticket, now, outcome === 'refused');
		if (this.room.learn(window, w.sentAt(ticket), w.limit, w.windowMs ?? COMMON_WINDOW_MS)) this.rate.onRoom(now);
		const span = w.burstSpan();
		const first = span !== undefined && !this.rate.burstsOver(span);
		this.rate.setCeiling(w.toldRate(), span);
		// The first answer that lets a told window's calls go together, or that shows the key left to this client within a
		// window whose exact end was told: the calls it leaves go now, not a token apart.
		const left = span === undefined ? undefined : w.leftInToldAlone(now);
		if (left !== undefined) this.rate.onWindowStart(now, left);
		else if (first) this.ownWindowGoes(now);
	}

	/**
	 * A refusal holds the lane: for all of the delay when the answers tell exact window ends, otherwise as
	 * refusal-hold.ts says (until the delay's last second, or the refusing window's end).
	 */
	refused({ now, delay, wait, learned, precisionMs, settled }: LaneRefusal): void {
		this.rate.onCrowdingEnds(now + delay);
		// A delay learned from refusals (silent-window.ts) ends where the window was seen to end: nothing to probe before.
		const precision = this.window.exact || learned ? 0 : (precisionMs ?? DELAY_PRECISION_MS);
		// A delay to the millisecond tells its end as closely as two readings of one end differ (SAME_WINDOW_MS). A length it
		// shows bounds the rate at once, not at the next answer.
		const toldLength = settled === true && !learned && this.window.onRefusalEnd(now + delay, Math.max(precision, SAME_WINDOW_MS), now);
		if (toldLength) this.rate.setCeiling(this.window.toldRate(), this.window.burstSpan());
		const until = this.hold.holdUntil({ now, delay, wait, precision, opened: this.window.endIfOpenedByOurs(now) ?? now, learned, told: precisionMs !== undefined });
		this.pausedUntil = Math.max(this.pausedUntil, until);
	}

	/** The pause that ended at `paused` is over for every caller. */
	pauseEnded(paused: number): void {
		if (this.pausedUntil === paused) this.pausedUntil = 0;
		this.rate.onPauseEnd(paused, this.window.exact, !this.hold.keepsEpoch(paused));
		// Not a whole window: it may be spent.
		this.ownWindowGoes(paused);
	}

	/** At a told window's exact end, a lone client's share of the next window may go at once (QuotaWindow.shareOfNext); without exact ends, what our own window leaves. */
	shareNext(at: number, filledByOurs: boolean): void {
		const share = this.window.shareOfNext(at, filledByOurs);
		if (share !== undefined) this.rate.onWindowStart(at, share);
		else this.ownWindowGoes(at);
	}

	/** In windows of our own (QuotaWindow.inOwnWindows), alone on the key: what our own window leaves may go at once (told-burst.ts). */
	private ownWindowGoes(at: number): void {
		if (this.window.inOwnWindows(at) && this.window.burstSpan() !== undefined) this.rate.onWindowStart(at, this.window.leftInSpan(at) ?? 0);
	}

	/** Little's law within the cap, and at least a told window's calls (they may go together at its start). */
	inFlightLimit(now: number): number {
		const told = this.window.toldRate() === undefined ? 0 : (this.window.limit ?? 0);
		return this.flight.limit(this.rate.rate(now), now, AUTO_IN_FLIGHT.max, told);
	}

	/** Calls are in flight, or a pause holds the lane at `now`. */
	busy(now: number): boolean {
		return this.flight.count > 0 || this.pausedUntil > now;
	}

	/** What the lane knows (for error messages and the node's hint). */
	report(now: number): LaneReport {
		const rate = this.rate.report(now);
		return {
			limit: this.window.limit,
			windowMs: this.window.windowMs,
			rate: Math.round(rate.rate * 10) / 10,
			allowedRate: rate.allowed === undefined ? undefined : Math.round(rate.allowed * 10) / 10,
			latencyMs: this.flight.latencyMs,
			inFlightLimit: this.inFlightLimit(now),
			peakInFlight: this.flight.peak,
		};
	}
}
