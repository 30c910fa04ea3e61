/**
 * The sandbox clock: it moves only by advance/set (or also with real time),
 * and tells its listeners when it moved. Also the length of a day.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The controllable clock. It moves only by advance/set, unless `ticks` (then it also follows real time). */
export class SandboxClock {
	private base: number;
	private anchor: number;
	private readonly listeners: Array<() => void> = [];

	constructor(
		start: number,
		private readonly ticks = false,
	) {
		this.base = start;
		this.anchor = Date.now();
	}

	now(): number {
		return this.ticks ? this.base + (Date.now() - this.anchor) : this.base;
	}

	advance(ms: number): void {
		this.base += ms;
		this.changed();
	}

	set(ms: number): void {
		this.base = ms;
		this.anchor = Date.now();
		this.changed();
	}

	onChange(listener: () => void): void {
		this.listeners.push(listener);
	}

	private changed(): void {
		for (const l of this.listeners) l();
	}
}
