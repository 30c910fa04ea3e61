/**
 * The credit floor ("Minimum Credits to Keep") under concurrency: every paid
 * call reserves its cost before it is sent, so that the calls in flight
 * together never take the balance below the floor.
 *
 * - A call is sent only when known balance − reserved − cost ≥ floor.
 * - A refused call (429 after the retries, 4xx, nothing sent) gives its
 *   reservation back; a call that may have been carried out (timeout, reset,
 *   5xx) keeps it as spent: never assume a charge did not happen.
 * - The balance comes from the answers (`creditsRemaining`); when none is
 *   known, one read (`readBalance`) serves every call waiting for it.
 *
 * Exact when the run is the only one spending on the account; spending by
 * anyone else shows in the balances the service returns and is taken in.
 */

/** A reserved cost; settle it once. */
export interface Reservation {
	readonly cost: number;
	/** The cost is not documented: the answer's balance is the only truth. */
	readonly undocumented: boolean;
}

export type CallEnd = 'charged' | 'refused';

export class CreditLedger {
	/** The balance without the calls in flight (a lower bound when unsure). */
	private balance?: number;
	/** Costs of the calls in flight. */
	private reserved = 0;
	/** The balance read that the calls waiting for a first balance share. */
	private reading?: Promise<number | undefined>;

	/** The balance as known now, reservations not deducted (undefined before the first one). */
	known(): number | undefined {
		return this.balance;
	}

	/** Costs of the calls in flight. */
	inFlight(): number {
		return this.reserved;
	}

	private async read(readBalance: () => Promise<number | undefined>): Promise<number | undefined> {
		if (!this.reading) {
			this.reading = readBalance().then(
				(balance) => {
					this.reading = undefined;
					// An answer that came in meanwhile is as good; the read may include calls in flight (they stay reserved: careful, never over).
					if (this.balance === undefined) this.balance = balance;
					return this.balance;
				},
				(e: unknown) => {
					this.reading = undefined;
					throw e;
				},
			);
		}
		return await this.reading;
	}

	/**
	 * Reserves `cost` (null: undocumented, 1 is reserved). With a `floor`, the
	 * balance is read first when unknown, and `refuse(balance, reserved)` is
	 * thrown when the call would leave less than the floor.
	 */
	async reserve(
		cost: number | null,
		floor: number | undefined,
		readBalance: () => Promise<number | undefined>,
		refuse: (balance: number, reserved: number) => Error,
	): Promise<Reservation> {
		const reservation = { cost: cost ?? 1, undocumented: cost === null };
		if (floor !== undefined) {
			if (this.balance === undefined) await this.read(readBalance);
			// Checked and reserved in one synchronous step: no other call can slip in between.
			const balance = this.balance;
			if (balance !== undefined && balance - this.reserved - reservation.cost < floor) throw refuse(balance, this.reserved);
		}
		this.reserved += reservation.cost;
		return reservation;
	}

	/**
	 * Ends a reserved call: `refused` gives the cost back; `charged` spends it,
	 * with the balance the answer gave (`creditsRemaining`) when there is one.
	 */
	settle(reservation: Reservation, end: CallEnd, creditsRemaining?: number): void {
		this.reserved = Math.max(0, this.reserved - reservation.cost);
		if (end === 'refused') return;
		const r = creditsRemaining;
		if (this.balance === undefined) {
			// A first balance: it may include calls still in flight (they stay reserved too: careful, never over).
			if (r !== undefined) this.balance = r;
			return;
		}
		if (r === undefined) {
			// Charged without a balance in the answer: a documented cost is deducted; an undocumented one makes the balance unknown (read again when needed).
			this.balance = reservation.undocumented ? undefined : this.balance - reservation.cost;
			return;
		}
		const expected = this.balance - reservation.cost;
		// r includes some of the calls still in flight, or none: r ∈ [expected − reserved, expected] when nobody else spends.
		if (r > expected || r < expected - this.reserved || reservation.undocumented) this.balance = r;
		else this.balance = expected;
	}

	/** A balance read outside a reserved call (Get Credits, a free call's answer): taken when nothing is in flight. */
	observe(balance: number | undefined): void {
		if (balance === undefined) return;
		if (this.reserved === 0 || this.balance === undefined) this.balance = balance;
		else this.balance = Math.min(this.balance, balance);
	}
}
