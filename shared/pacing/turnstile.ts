/**
 * The fair turnstile of the pacing: the callers of one lane (an operation on one key) pass one at a time,
 * and the parties (the executions sharing the key) take turns, round robin, so that a 1-item run started
 * during a 500-item run is served in the next turn, not after the 500. Pure: no timers, no clock.
 */

/** The queue of one lane: one caller at a time is at the head. */
interface Queue {
	/** The party of the caller at the head. */
	head: string;
	queues: Map<string, Array<() => void>>;
	/** Parties in order of arrival; `next` is the index served next. */
	order: string[];
	next: number;
}

export class Turnstile {
	private readonly lanes = new Map<string, Queue>();

	/** True while a caller of some lane is at its head. */
	get busy(): boolean {
		return this.lanes.size > 0;
	}

	/**
	 * Resolves when this caller is at the head of its lane. `first`: a call the server refused comes back ahead of its
	 * party's calls not yet sent (its time budget runs since the refusal: behind 19 fresh calls at 2 a window of 60 s,
	 * it ran out; three processes, 25 per 60 s, 22 items of 240 failed).
	 */
	enter(lane: string, party: string, first = false): Promise<void> {
		const q = this.lanes.get(lane);
		if (!q) {
			this.lanes.set(lane, { head: party, queues: new Map(), order: [], next: 0 });
			return Promise.resolve();
		}
		let queue = q.queues.get(party);
		if (!queue) {
			queue = [];
			q.queues.set(party, queue);
			q.order.push(party);
		}
		const waiting = queue;
		return new Promise<void>((resolve) => (first ? waiting.unshift(resolve) : waiting.push(resolve)));
	}

	/** The head is done: the next party in turn sends its oldest caller to the head. */
	leave(lane: string): void {
		const q = this.lanes.get(lane);
		if (!q) return;
		// The party just served goes to the back of the turn: start after it.
		const served = q.order.indexOf(q.head);
		if (served >= 0 && q.order.length > 1 && q.next === served) q.next = (served + 1) % q.order.length;
		for (let tries = 0; tries < q.order.length; tries++) {
			const index = (q.next + tries) % q.order.length;
			const party = q.order[index];
			const queue = q.queues.get(party);
			const resolve = queue?.shift();
			if (!resolve) continue;
			if (queue && queue.length === 0) {
				q.queues.delete(party);
				q.order.splice(index, 1);
				q.next = q.order.length === 0 ? 0 : index % q.order.length;
			} else {
				q.next = (index + 1) % q.order.length;
			}
			q.head = party;
			resolve();
			return;
		}
		this.lanes.delete(lane);
	}
}
