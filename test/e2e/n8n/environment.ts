/**
 * jest's node environment, plus Ctrl-C: the tests' `process` is jest's copy,
 * which never sees a signal, while the n8n processes the suite starts run in
 * process groups of their own and would outlive the worker. A test file
 * registers what stops them with `globalThis.e2eOnInterrupt(stop)`; on SIGINT
 * or SIGTERM of the worker (or of jest itself, when one file runs in band)
 * every registered stop runs, then the process exits.
 */
import { TestEnvironment } from 'jest-environment-node';

/** What a test file sees: registers `stop`, returns its removal. */
export type OnInterrupt = (stop: () => void) => () => void;

export default class E2eEnvironment extends TestEnvironment {
	private readonly stops = new Set<() => void>();

	private readonly onSignal = (signal: NodeJS.Signals) => {
		for (const stop of this.stops) {
			try {
				stop();
			} catch {
				// best effort: the other stops still run
			}
		}
		process.exit(signal === 'SIGINT' ? 130 : 143);
	};

	constructor(...args: ConstructorParameters<typeof TestEnvironment>) {
		super(...args);
		const onInterrupt: OnInterrupt = (stop) => {
			this.stops.add(stop);
			return () => this.stops.delete(stop);
		};
		this.global.e2eOnInterrupt = onInterrupt;
	}

	override async setup(): Promise<void> {
		await super.setup();
		process.on('SIGINT', this.onSignal);
		process.on('SIGTERM', this.onSignal);
	}

	override async teardown(): Promise<void> {
		process.off('SIGINT', this.onSignal);
		process.off('SIGTERM', this.onSignal);
		await super.teardown();
	}
}
