/**
 * API keys of the sandbox: their prefix, the six keys a sandbox starts with
 * (made from `keySeed` or random bytes, unless given), the authentication of a
 * bearer token (401) and the scope check of a key (403).
 */
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES } from '../shared/base';
import type { Scope } from '../shared/base';
import { DAY_MS } from './clock';
import { ApiError } from './api-errors';
import { keyRefusal } from './faults';
import { sha256 } from './random';
import type { KeyRecord } from './records';
import { BROKE_ACCOUNT_ID, DEFAULT_ACCOUNT_ID, OTHER_ACCOUNT_ID } from './state';
import type { SandboxState } from './state';
import type { SandboxKeys, SandboxOptions } from './types';

export const KEY_PREFIX = 'pw_live_';

function makeKey(seed: string, name: string): string {
	const secret = seed ? sha256(`${seed}:${name}`).slice(0, 32) : randomBytes(16).toString('hex');
	return `${KEY_PREFIX}${secret}`;
}

/** The six keys (those of `opts.keys` as given, the others made), each added to the state with its account and scopes. */
export function addSandboxKeys(state: SandboxState, opts: Pick<SandboxOptions, 'keys' | 'keySeed'>): SandboxKeys {
	const keys: SandboxKeys = {
		full: opts.keys.full ?? makeKey(opts.keySeed, 'full'),
		readonly: opts.keys.readonly ?? makeKey(opts.keySeed, 'readonly'),
		revoked: opts.keys.revoked ?? makeKey(opts.keySeed, 'revoked'),
		expired: opts.keys.expired ?? makeKey(opts.keySeed, 'expired'),
		noCredits: opts.keys.noCredits ?? makeKey(opts.keySeed, 'noCredits'),
		other: opts.keys.other ?? makeKey(opts.keySeed, 'other'),
	};
	for (const [name, key] of Object.entries(keys)) {
		if (!key.startsWith(KEY_PREFIX)) throw new Error(`keys.${name} must start with ${KEY_PREFIX}`);
	}
	const all = [...ALL_SCOPES];
	state.addKey({ key: keys.full, name: 'full', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.readonly, name: 'readonly', accountId: DEFAULT_ACCOUNT_ID, scopes: ['posts:read', 'account:read'], revoked: false, expiresAt: null });
	state.addKey({ key: keys.revoked, name: 'revoked', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: true, expiresAt: null });
	state.addKey({ key: keys.expired, name: 'expired', accountId: DEFAULT_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: state.clock.now() - DAY_MS });
	state.addKey({ key: keys.noCredits, name: 'noCredits', accountId: BROKE_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	state.addKey({ key: keys.other, name: 'other', accountId: OTHER_ACCOUNT_ID, scopes: all, revoked: false, expiresAt: null });
	return keys;
}

/** The key of the bearer token (401 when missing, unknown, revoked or expired); records its use. */
export function authenticate(state: SandboxState, token: string | null): KeyRecord {
	const clock = state.clock;
	if (token === null || !token.startsWith(KEY_PREFIX)) throw new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid Authorization header');
	const key = state.keys.get(token);
	if (!key) throw new ApiError(401, 'INVALID_API_KEY', 'Invalid API key');
	const refused = keyRefusal(key, clock.now());
	if (refused) throw refused;
	key.lastUsedAt = clock.now();
	return key;
}

/** Refuses a key without `scope` (403 MISSING_SCOPE). */
export function requireScope(key: KeyRecord, scope: Scope): void {
	if (!key.scopes.includes(scope)) throw new ApiError(403, 'MISSING_SCOPE', `Missing required scope: ${scope}`);
}
