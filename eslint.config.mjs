// One ESLint config for the whole repository, run by `n8n-node lint` (see package.json).
//
// n8n's own community-node config (from @n8n/node-cli) applies, unchanged in its
// rules, to the code that n8n loads: n8n/ and the pure core in shared/. Its
// node and credential rule sets, which n8n scopes to ./nodes and ./credentials,
// are scoped to n8n/nodes and n8n/credentials, where this repository keeps them.
// Code that n8n never loads (the sandbox, tests, scripts, the Zapier app and the
// axios transport) gets typescript-eslint's recommended rules instead.
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

const N8N_CODE = ['n8n/**/*.ts', 'shared/**/*.ts'];
const NOT_LOADED_BY_N8N = ['shared/transports/**', 'shared/sdk.ts'];
const OTHER_CODE = ['sandbox/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'zapier/src/**/*.ts', ...NOT_LOADED_BY_N8N];

const remap = { '**/*.ts': N8N_CODE, './credentials/**/*.ts': ['n8n/credentials/**/*.ts'], './nodes/**/*.ts': ['n8n/nodes/**/*.ts'] };

const scopedN8n = n8nConfig.map((block) => {
	if (!block.files) return block;
	const files = block.files.flatMap((f) => remap[f] ?? [f]);
	return f(files, block);
});

function f(files, block) {
	return files.some((x) => N8N_CODE.includes(x)) ? { ...block, files, ignores: [...(block.ignores ?? []), ...NOT_LOADED_BY_N8N] } : { ...block, files };
}

export default [
	{ ignores: ['dist/**', '**/node_modules/**', 'zapier/dist/**', 'zapier/lib/**', 'tools/**', '.e2e/**', 'coverage/**'] },
	...scopedN8n,
	...tseslint.config({
		files: OTHER_CODE,
		extends: [tseslint.configs.recommended],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	}),
];
