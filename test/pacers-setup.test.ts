/**
 * test/setup/pacers.ts: after each test, the pacing registries of the modules the file loaded are empty, and a
 * module the file did not load is not loaded for that (it has no pacing to empty).
 */
const transport = require.resolve('../n8n/nodes/PostWriter/transport');
const zapierClient = require.resolve('../zapier/src/client');

describe('the registries are emptied after each test', () => {
	test('a pacing is learned in one test', () => {
		const { PACERS } = jest.requireActual<typeof import('../zapier/src/client')>(zapierClient);
		PACERS.get('pw_live_setup0123456789abcdef0123456789', 'https://api.test.example/api/v1');
		expect(PACERS.size).toBe(1);
	});

	test('and is gone in the next; a module no test loaded stays unloaded', () => {
		expect(zapierClient in require.cache).toBe(true);
		expect(jest.requireActual<typeof import('../zapier/src/client')>(zapierClient).PACERS.size).toBe(0);
		expect(transport in require.cache).toBe(false);
	});
});
