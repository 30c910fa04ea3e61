/**
 * Custom authentication: an API key (password field) and the API's base URL.
 * The test reads /account/profile through the core; the connection label is
 * the account's name and email (or whichever it has), never the key
 * (connection.ts).
 */
import type { Authentication, Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../shared/base/definitions';
import { withErrors } from './perform';

/** The test itself (connection.ts) loads on its first run, with the core's client. */
const test = withErrors(async (z: ZObject, bundle: Bundle) => {
	const { testConnection } = await import('./connection');
	return await testConnection(z, bundle);
});

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
