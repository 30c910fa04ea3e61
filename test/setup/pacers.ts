/**
 * Each test starts with no pacing learned: the adapters' registries (one
 * pacing per API key and base URL in a process) are emptied after every test,
 * as a new n8n process or Zapier container would start. Tests that share a
 * key on purpose do it within one test.
 *
 * The modules are required after the test, not imported here: a test file's
 * jest.mock (n8n-workflow's sleep, say) must apply to them, and it applies
 * only to modules loaded after the test file starts.
 */
interface Clearable {
	PACERS: { clear(): void };
}

afterEach(() => {
	jest.requireActual<Clearable>('../../n8n/nodes/PostWriter/transport').PACERS.clear();
	jest.requireActual<Clearable>('../../zapier/src/client').PACERS.clear();
	jest.requireActual<Clearable>('../../sdk/axios').PACERS.clear();
});
