import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { BRAND } from '../../shared/brand';

export class PostWriterApi implements ICredentialType {
	name = BRAND.n8nCredentialName;

	displayName = `${BRAND.displayName} API`;

	icon = { light: 'file:postWriter.svg', dark: 'file:postWriter.dark.svg' } as const;

	documentationUrl = BRAND.docsUrl;

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
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/account/profile',
			method: 'GET',
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
					message: `The API key lacks the scope "account:read". Create a key with the scopes this workflow needs (at least account:read) in ${BRAND.displayName} under ${BRAND.keysLocation}.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing answers at this Base URL. Check that it ends in /api/v1.',
				},
			},
		],
	};
}
