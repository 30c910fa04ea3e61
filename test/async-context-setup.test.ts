/**
 * test/setup/async-context.ts: the async context stores of the files run before are disabled when a file
 * starts, and a store disabled works again at its next run. (Forgetting here also disables this file's own
 * jest-circus store for the rest of the test; its next run, the next test's, enables it again.)
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import { forgetStores, storesSeen } from './setup/async-context';

test('a store that ran is seen, then disabled and forgotten; it runs again as before', () => {
	const store = new AsyncLocalStorage<string>();
	expect(store.run('first', () => store.getStore())).toBe('first');
	expect(storesSeen().has(store)).toBe(true);
	store.enterWith('entered');
	expect(store.getStore()).toBe('entered');

	forgetStores();
	expect(store.getStore()).toBeUndefined();
	expect(storesSeen().size).toBe(0);

	expect(store.run('again', () => store.getStore())).toBe('again');
	expect(storesSeen().has(store)).toBe(true);
});

test('the watch is set up once per worker: run is wrapped once', () => {
	const run = AsyncLocalStorage.prototype.run;
	storesSeen();
	storesSeen();
	expect(AsyncLocalStorage.prototype.run).toBe(run);
	expect(run.toString()).toContain('stores.add(this)');
});
