/**
 * Our calls on one lane that the server did not refuse, each with the time it was sent, oldest first: what
 * quota-window.ts and told-burst.ts count against a told limit. Bounded in count and in time. Pure.
 */

/**
 * Our sends kept (bounded memory: a process holds a pacing per key, up to 256; some 40 bytes a send): enough for
 * a window of 1,024 calls. A larger window is then counted short, and its refusals tell the rest. At 512, a quota of
 * 600 a minute (common with AI APIs) was counted short: its counts looked shared, and its calls went spread (IETF
 * fields, 2,000 items: 1.13 ×).
 */
const MAX_SENDS_KEPT = 1_024;

export class OwnSends {
	/** [ticket, time sent], oldest first. */
	private readonly sends: Array<[number, number]> = [];
	/** When our refused calls went, oldest first: as many and as long as our calls are kept. */
	private readonly refused: number[] = [];

	/** Our call `ticket` went at `at`; calls sent before `keepFrom` are forgotten. */
	add(ticket: number, at: number, keepFrom: number): void {
		this.sends.push([ticket, at]);
		while (this.sends.length > MAX_SENDS_KEPT || (this.sends.length > 0 && this.sends[0][1] < keepFrom)) this.sends.shift();
		while (this.refused.length > MAX_SENDS_KEPT || (this.refused.length > 0 && this.refused[0] < keepFrom)) this.refused.shift();
	}

	/** Our call `ticket`, sent at `sentAt`, was refused (the server did not count it): forgotten. Returns when it was sent, if it was kept. */
	remove(ticket: number, sentAt?: number): number | undefined {
		const i = this.sends.findIndex(([t]) => t === ticket);
		const at = i < 0 ? undefined : this.sends[i][1];
		if (i >= 0) this.sends.splice(i, 1);
		const when = sentAt ?? at;
		if (when !== undefined) this.refused.splice(this.refused.filter((r) => r <= when).length, 0, when);
		return at;
	}

	/** One of our calls sent in [from, until) was refused. */
	refusedWithin(from: number, until: number): boolean {
		return this.refused.some((at) => at >= from && at < until);
	}

	/** When our call `ticket` was sent, while it is kept. */
	sentAt(ticket: number): number | undefined {
		return this.sends.find(([t]) => t === ticket)?.[1];
	}

	/** The times of our calls for which `keep(time, ticket)` holds, oldest first. */
	times(keep: (at: number, ticket: number) => boolean): number[] {
		const out: number[] = [];
		for (const [ticket, at] of this.sends) if (keep(at, ticket)) out.push(at);
		return out;
	}

	/** How many of our calls `keep(time, ticket)` holds for. */
	count(keep: (at: number, ticket: number) => boolean): number {
		let n = 0;
		for (const [ticket, at] of this.sends) if (keep(at, ticket)) n++;
		return n;
	}
}
