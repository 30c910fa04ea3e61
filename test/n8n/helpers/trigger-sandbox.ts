/**
 * The setup the trigger tests against the sandbox share: n8n's `sleep` made
 * instant (the waits asked for are kept in `sleeps`), one sandbox per test on
 * its own clock, which Date.now follows, its full key as the credential, and
 * everything restored and closed after each test.
 *
 * Import `poll` and `newTransport` from here, before anything that loads the
 * node: the sleep mock must be in place when the node loads n8n-workflow.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../../sandbox';
import type { ListShape, Sandbox, SandboxOptions } from '../../../sandbox';
import type { Credentials } from './context';
import { newTransport } from './context';

export type { Credentials, Logged, Transport } from './context';
export { newTransport, poll } from './context';

/** The waits n8n's sleep was asked for in this test (retries do not really wait). */
export const sleeps: number[] = [];

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async (ms: number) => {
		sleeps.push(ms);
	}),
}));

export const T0 = Date.parse('2026-11-21T09:00:00.000Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A quota no test reaches: these tests count what fires, not refusals. */
export const BIG_QUOTA = { default: { limit: 1_000_000, windowMs: 60_000 }, generate: { limit: 1_000_000, windowMs: 60_000 } };

/** The list shapes the list triggers run under: a cursor, an offset and a bare array. */
export const LIST_SHAPES: ListShape[] = ['data-cursor', 'items-offset', 'bare'];

/** This test's sandbox and its full key (set by startTriggerSandbox; live bindings, so importers see the current one). */
export let sb: Sandbox;
export let credentials: Credentials;
let running: Sandbox | undefined;

/** Starts this test's sandbox at T0 (unless `now` is given) with BIG_QUOTA, and makes Date.now follow its clock. */
export async function startTriggerSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
	running = await startSandbox({ now: T0, quota: BIG_QUOTA, ...options });
	sb = running;
	credentials = { apiKey: sb.keys.full, baseUrl: sb.baseUrl };
	jest.spyOn(Date, 'now').mockImplementation(() => sb.clock.now());
	return sb;
}

/** A trigger node before its first poll: the static data n8n keeps between polls, and a transport that records the requests. */
export function newTriggerNode() {
	return { staticData: {} as IDataObject, transport: newTransport() };
}

/** The sandbox's default account (its posts, drafts, credits and history). */
export const account = () => sb.state.account(DEFAULT_ACCOUNT_ID);

/** A call to the sandbox's API with the full key, as the application or another client would make it; fails the test on an error status. */
export async function api(method: string, path: string, body?: unknown): Promise<any> {
	const res = await fetch(`${sb.baseUrl}${path}`, {
		method,
		headers: { Authorization: `Bearer ${sb.keys.full}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(res.status).toBeLessThan(300);
	return await res.json();
}

afterEach(async () => {
	jest.restoreAllMocks();
	sleeps.length = 0;
	await running?.close();
	running = undefined;
});
