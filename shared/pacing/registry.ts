/**
 * One pacing per API key and base URL in a process: created on first use, dropped when idle. Holds no key in
 * clear: entries are keyed by a digest the adapter computes (node:crypto's SHA-256 in n8n, Zapier and the SDK).
 * Pure: the adapters hold the instance (module state stays out of shared/).
 */

/** What the registry needs of a pacing: whether it may be dropped. */
export interface Idle {
	idleFor(idleMs: number): boolean;
}

export interface PacerRegistryOptions<P extends Idle> {
	/** One-way digest of the key and base URL. */
	digest: (text: string) => string;
	create: () => P;
	/** An idle pacing is dropped after this long (default 10 min: longer than n8n's shortest poll interval, 1 min, so a trigger keeps its pacing between polls). */
	idleMs?: number;
	/** At most this many keys at once; the idle ones go first (default 256: a process serving many customers' keys stays bounded). */
	maxEntries?: number;
}

/** The defaults of PacerRegistryOptions (their reasons are given there). */
export const REGISTRY_DEFAULTS = { idleMs: 600_000, maxEntries: 256 };

export class PacerRegistry<P extends Idle> {
	private readonly entries = new Map<string, P>();
	private readonly options: Required<PacerRegistryOptions<P>>;

	constructor(options: PacerRegistryOptions<P>) {
		this.options = { ...REGISTRY_DEFAULTS, ...options };
	}

	/** The pacing of this key and base URL (the same object for every run on them until it is dropped). */
	get(apiKey: string, baseUrl: string): P {
		const id = this.options.digest(`${baseUrl}\n${apiKey}`);
		this.sweep(id);
		let pacer = this.entries.get(id);
		if (pacer) {
			// Most recently used last (the order the sweep drops them in).
			this.entries.delete(id);
		} else {
			pacer = this.options.create();
		}
		this.entries.set(id, pacer);
		return pacer;
	}

	/** Entries now (for tests and bounds). */
	get size(): number {
		return this.entries.size;
	}

	/** The digests held (never a key). */
	ids(): string[] {
		return [...this.entries.keys()];
	}

	clear(): void {
		this.entries.clear();
	}

	private sweep(keep: string): void {
		for (const [id, pacer] of this.entries) {
			if (id !== keep && pacer.idleFor(this.options.idleMs)) this.entries.delete(id);
		}
		for (const [id, pacer] of this.entries) {
			if (this.entries.size < this.options.maxEntries) break;
			if (id !== keep && pacer.idleFor(0)) this.entries.delete(id);
		}
	}
}
