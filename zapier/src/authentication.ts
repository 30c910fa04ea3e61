/**
 * Custom authentication: an API key (password field) and the API's base URL.
 * The test reads /account/profile through the core; the connection label is
 * the account's name and email (or whichever it has), never the key.
 */
import type { Authentication, Bundle, ZObject } from 'zapier-platform-core';
import { BRAND, str } from '../../shared/base';
import { readAccountProfile } from '../../shared/records';
import { normaliseBaseUrl } from '../../shared/catalogue';
import { clientFor } from './client';
import { withErrors } from './zapier-errors';

const test = withErrors(async (z: ZObject, bundle: Bundle) => {
	normaliseBaseUrl(bundle.authData?.baseUrl || BRAND.defaultBaseUrl);
	const profile = await clientFor(z, bundle).getAccountProfile({});
	return { ...profile, connectionLabel: connectionLabelOf(profile) };
});

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

/** Evaluated by Zapier over the test's result (a template, so that `zapier-platform invoke auth label` can show it too). */
const connectionLabel = '{{bundle.inputData.connectionLabel}}';

export default {
	type: 'custom',
	fields: [
		{
			key: 'apiKey',
			label: 'API Key',
			type: 'password',
			required: true,
			helpText: `Create an API key in ${BRAND.displayName} under [${BRAND.keysLocation}](${BRAND.keysUrl}) and paste it here. The full key is shown only once, when it is created. Give it the scopes of the steps you use (for example \`posts:generate\`, \`posts:read\`, \`account:read\`).`,
		},
		{
			key: 'baseUrl',
			label: 'Base URL',
			type: 'string',
			required: true,
			default: BRAND.defaultBaseUrl,
			helpText: `The address of the ${BRAND.displayName} API, ending in \`/api/v1\`. Keep the default unless your organisation uses its own address. It must use https.`,
		},
	],
	test,
	connectionLabel,
} satisfies Authentication;
