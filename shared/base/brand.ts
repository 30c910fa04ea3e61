/**
 * The one place that names the service. Renaming the product is an edit here
 * (plus the `name` fields of the two package.json files, which a test checks
 * against these values).
 */
export const BRAND = {
	/** Public name shown to users in n8n and Zapier. */
	displayName: 'Post Writer',
	/** npm name of the n8n community package (root package.json). */
	n8nPackage: 'n8n-nodes-post-writer',
	/** npm name of the Zapier app package (zapier/package.json). */
	zapierPackage: 'post-writer-zapier',
	/** Internal n8n node names (camelCase, never shown). */
	n8nNodeName: 'postWriter',
	n8nTriggerName: 'postWriterTrigger',
	n8nCredentialName: 'postWriterApi',
	/** Documentation of the public API. */
	docsUrl: 'https://github.com/post-writer/n8n-nodes-post-writer#readme',
	/** Where users create API keys, as the spec words it. */
	keysLocation: 'Settings › API keys',
	/** The page of the application where API keys are created (linked from the key's help text, Zapier check D002). */
	keysUrl: 'https://app.postwriter.example/settings/api-keys',
	/** Default base URL offered in credential forms. */
	defaultBaseUrl: 'https://app.postwriter.example/api/v1',
	/** User-Agent product token sent by the adapters. */
	userAgent: 'post-writer-integrations/0.1',
} as const;
