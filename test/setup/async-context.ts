/**
 * jest-circus makes an AsyncLocalStorage for each test file (its test execution context) and never disables
 * it. Node keeps every enabled one, for the life of the process, and each promise, timer or socket made later
 * copies its store from every one of them: in a jest worker that had run 25 files, a promise cost 6 times
 * what it cost in the first file (300,000 awaits: 1.1 s of CPU instead of 0.18 s). When a file starts, the
 * stores of the files before it are done with: this setup file disables them. A store disabled is enabled
 * again by its next run, so nothing a store still serves is lost.
 *
 * The stores are found by watching AsyncLocalStorage's run, set up once per worker. The set lives on the
 * class, Node's own, which outlives each file's module registry (where a module-level set would not).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const SEEN = Symbol.for('post-writer.test.async-local-storages');

type Watched = typeof AsyncLocalStorage & { [SEEN]?: Set<AsyncLocalStorage<unknown>> };

/** The stores that ran in this worker since they were last forgotten (the watch set up on first use). */
export function storesSeen(): Set<AsyncLocalStorage<unknown>> {
	const als = AsyncLocalStorage as Watched;
	let seen = als[SEEN];
	if (!seen) {
		const stores = new Set<AsyncLocalStorage<unknown>>();
		const run = AsyncLocalStorage.prototype.run;
		AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof run>) {
			stores.add(this);
			return run.apply(this, args);
		} as typeof run;
		als[SEEN] = seen = stores;
	}
	return seen;
}

/** Disables every store seen so far and forgets them. */
export function forgetStores(): void {
	const seen = storesSeen();
	for (const store of seen) store.disable();
	seen.clear();
}

forgetStores();
