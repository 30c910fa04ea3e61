/**
 * Zapier's `define*` helpers are identity functions that only carry types.
 * Taking them from here, with the types of zapier-platform-core, keeps the app
 * from loading the whole platform core when it is required: Zapier's runtime
 * loads the core itself, and passes it to every perform as `z`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as core from 'zapier-platform-core';

export const defineApp: typeof core.defineApp = (app) => app;
export const defineTrigger: typeof core.defineTrigger = (trigger) => trigger;
export const defineCreate: typeof core.defineCreate = (create) => create;
export const defineSearch: typeof core.defineSearch = (search) => search;

/** The installed zapier-platform-core version (the app's platformVersion), read from its package.json. */
export function platformVersion(): string {
	const entry = require.resolve('zapier-platform-core');
	return JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')).version;
}
