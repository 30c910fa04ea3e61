/**
 * Test helpers for the Zapier app. The app resolves `zapier-platform-core`
 * from zapier/node_modules; the root has another copy (a devDependency).
 * The tester must come from the app's own copy, or the two would disagree
 * (z.errors classes, the app schema), so it is imported by path here.
 */
import http from 'node:http';
import https from 'node:https';
import { dirname, join } from 'node:path';
import * as zapier from '../../zapier/node_modules/zapier-platform-core';

import App from '../../zapier/src/index';

export { App, zapier };

export const ZAPIER_DIR = join(__dirname, '..', '..', 'zapier');
/** The copy the app itself loads. */
export const APP_CORE_DIR = dirname(require.resolve('zapier-platform-core', { paths: [join(ZAPIER_DIR, 'src')] }));

export const appTester = zapier.createAppTester(App);

/*
 * Each appTester call runs Zapier's Lambda handler, which patches
 * http.request and https.request (and wraps global fetch) for its request
 * logging, for the life of the process. Jest runs several test files in one
 * worker, and the next file's nock would sit behind that patch. The
 * originals are put back once this file is done.
 */
type Patched = { request: unknown; patchedByZapier?: boolean; zapierLogger?: unknown };
const pristine = { http: http.request, https: https.request, fetch: globalThis.fetch };
afterAll(() => {
	for (const [mod, request] of [
		[http, pristine.http],
		[https, pristine.https],
	] as const) {
		const m = mod as unknown as Patched;
		m.request = request;
		delete m.patchedByZapier;
		delete m.zapierLogger;
	}
	globalThis.fetch = pristine.fetch;
});

export const BASE = 'https://api.test.example/api/v1';
export const ORIGIN = 'https://api.test.example';
export const KEY = 'pw_live_ZAPTESTKEY0123456789abcdef012345';
export const authData = { apiKey: KEY, baseUrl: BASE };

type Obj = Record<string, unknown>;

/** A bundle with the test connection; meta defaults as Zapier sends them. */
export function bundle(inputData: Obj = {}, meta: Obj = {}, auth: Obj = authData): any {
	return {
		authData: auth,
		inputData,
		meta: { isLoadingSample: false, isFillingDynamicDropdown: false, isPopulatingDedupe: false, limit: -1, page: 0, timezone: 'UTC', ...meta },
	};
}

type Performable = { operation: { perform: unknown } };

export const trigger = (key: string) => (App.triggers as Record<string, Performable>)[key];
export const create = (key: string) => (App.creates as Record<string, Performable>)[key];
export const search = (key: string) => (App.searches as Record<string, Performable>)[key];

/** Runs `<kind>.<key>.operation.perform` through appTester. */
export function run(kind: 'triggers' | 'creates' | 'searches', key: string, b: any): Promise<any> {
	const app = App as unknown as Record<string, Record<string, Performable>>;
	const target = app[kind]?.[key];
	if (!target) throw new Error(`no ${kind}.${key}`);
	return appTester(target.operation.perform as any, b);
}

export function runAuthTest(b: any): Promise<any> {
	return appTester((App.authentication as any).test, b);
}

/** The rejection of a promise (fails when it resolves): the shared test helper. */
export { caught as rejection } from '../helpers/fake';

/** Zapier errors carry a JSON message ({message, code, status} or {message, delay}). */
export function details(error: any): { name: string; message: string; code?: string; status?: number; delay?: number } {
	let parsed: any = {};
	try {
		parsed = JSON.parse(error.message);
	} catch {
		parsed = { message: error.message };
	}
	return { name: error.name, ...parsed };
}

/** jest fake timers that fake only Date (the app's real timers keep running). */
export const ONLY_DATE: any[] = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
];
