/**
 * The connection test and its label (authentication.ts declares them):
 * loaded on the first test, with the core's client and record readers.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND, str } from '../../shared/base';
import { readAccountProfile } from '../../shared/records';
import { normaliseBaseUrl } from '../../shared/catalogue';
import { clientFor } from './client';

/** Reads /account/profile through the core; the connection label is the account's name and email, never the key. */
export async function testConnection(z: ZObject, bundle: Bundle): Promise<Record<string, unknown>> {
	normaliseBaseUrl(bundle.authData?.baseUrl || BRAND.defaultBaseUrl);
	const profile = await clientFor(z, bundle).getAccountProfile({});
	return { ...profile, connectionLabel: connectionLabelOf(profile) };
}

/**
 * "Name (email)", the name, the email, or the account id: whatever the
 * profile has, wherever it has it (the core's reader finds them nested under
 * `user`, `account`…, in snake_case, as `fullName` or `displayName`).
 */
export function connectionLabelOf(raw: Record<string, unknown> | undefined): string {
	const profile = raw === undefined ? undefined : readAccountProfile(raw);
	const name = str(profile?.name);
	const email = str(profile?.email);
	if (name && email) return `${name} (${email})`;
	return name ?? email ?? (str(profile?.id) ? `Account ${str(profile?.id)}` : BRAND.displayName);
}
