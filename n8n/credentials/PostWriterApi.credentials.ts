import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { BRAND } from '../shared/base/definitions';
import { OPERATIONS } from '../shared/catalogue/definitions';
import { REDIRECT_STATUSES } from '../shared/client/definitions';

/** The credentials section of the package README (n8n/README.md), in the repository BRAND.docsUrl names. */
const CREDENTIAL_DOCS_URL = `${BRAND.docsUrl.replace(/#.*$/, '')}/tree/main/n8n#credentials`;

/** The credential test reads the account profile: the call needs only its scope. */
const PROFILE = OPERATIONS.getAccountProfile;

/**
 * The Base URL as the node completes it (normaliseBaseUrl): spaces and
 * trailing slashes dropped, anything after /api/v1 cut, and /api/v1 (or /v1
 * after /api) added when missing. n8n evaluates it before the test request.
 */
const TEST_BASE_URL = String.raw`={{ $credentials.baseUrl.trim().replace(/\/+$/, '').replace(/\/api\/v1(\/.*)?$/, '/api/v1').replace(/(\/api(\/v1)?)?$/, '/api/v1') }}`;

export class PostWriterApi implements ICredentialType {
	name = BRAND.n8nCredentialName;

	displayName = `${BRAND.displayName} API`;

	icon = { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' } as const;

	documentationUrl = CREDENTIAL_DOCS_URL;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: `Created in ${BRAND.displayName} under ${BRAND.keysLocation}; it is shown only once`,
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: BRAND.defaultBaseUrl,
			description: 'The API address, ending in /api/v1. It must use https; http is accepted only for localhost and 127.0.0.1.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL,
			url: PROFILE.path,
			method: PROFILE.method,
			// The test follows no redirect, so the key never leaves for another address (the node's requests follow only same-origin ones: shared/client/redirects.ts).
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: `The API key was refused (invalid, revoked or expired). Create a new key in ${BRAND.displayName} under ${BRAND.keysLocation} and paste it here.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: `The API key lacks the scope "${PROFILE.scope}". Create a key with the scopes this workflow needs (at least ${PROFILE.scope}) in ${BRAND.displayName} under ${BRAND.keysLocation}.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: "Nothing answers at this 'Base URL'. Check that it ends in /api/v1.",
				},
			},
			...[...REDIRECT_STATUSES].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The server at this 'Base URL' answered ${status}, a redirect. The test follows no redirect, so the API key was not sent on. Check the Base URL: if the service has moved, enter its new address (ending in /api/v1).`,
				},
			})),
		],
	};
}
