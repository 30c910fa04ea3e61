// Lint for the repository outside the n8n package (run by `npm run lint` after
// `n8n-node lint` has linted n8n/ in strict mode with n8n's default config).
//
// The shared core in shared/ is compiled into the n8n package, so it is held to
// the same community rules as n8n/: n8n's own config from @n8n/node-cli, rules
// unchanged. The node and credential rule sets of that config are scoped to
// ./nodes and ./credentials, which shared/ has none of.
// Code that n8n never loads (the SDK, the sandbox, tests, scripts, the Zapier
// app) gets typescript-eslint's recommended rules.
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

const CORE = ['shared/**/*.ts'];
const OTHER_CODE = ['sdk/**/*.ts', 'sandbox/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'zapier/src/**/*.ts'];

const core = n8nConfig
	.filter((block) => !block.files || block.files.includes('**/*.ts'))
	.map((block) => (block.files ? { ...block, files: CORE } : block));

export default [
	{ ignores: ['n8n/**', 'dist/**', '**/node_modules/**', 'zapier/dist/**', 'zapier/lib/**', 'tools/**', '.e2e/**', '.bench/**', 'coverage/**'] },
	...core,
	...tseslint.config({
		files: OTHER_CODE,
		extends: [tseslint.configs.recommended],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	}),
];
