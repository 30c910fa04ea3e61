/**
 * jest's node environment, plus `onHostSignal` for the tests. Their `process`
 * is jest's copy of it, with listeners of its own that no signal ever reaches:
 * a process.on('SIGINT') there never runs, and Ctrl-C would leave n8n,
 * PostgreSQL and Redis running (they live in process groups of their own).
 */
const { TestEnvironment } = require('jest-environment-node');

class HostSignalEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		/** Adds `listener` for `signal` on the real process; returns the function that removes it. */
		this.global.onHostSignal = (signal, listener) => {
			process.on(signal, listener);
			return () => process.off(signal, listener);
		};
	}
}

module.exports = HostSignalEnvironment;
