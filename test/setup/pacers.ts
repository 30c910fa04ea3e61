/**
 * Each test starts with no pacing learned: the adapters' registries (one
 * pacing per API key and base URL in a process) are emptied after every test,
 * as a new n8n process or Zapier container would start. Tests that share a
 * key on purpose do it within one test.
 *
 * Only the registries of the modules this test file has loaded are emptied
 * (jest's require.cache is the file's own module registry): a module not
 * loaded yet has no pacing, and loading the three (n8n-workflow, the Zapier
 * client, axios) in every file only to empty them was about 0.45 s of CPU a
 * file, some 30 s of a run. Nothing is imported here: a test file's jest.mock
 * (n8n-workflow's sleep, say) must apply to the modules it loads, and it
 * applies only to modules loaded after the test file starts.
 */
interface Clearable {
	PACERS: { clear(): void };
}

const WITH_PACERS = ['../../n8n/nodes/PostWriter/transport', '../../zapier/src/client', '../../sdk/axios'].map((m) => require.resolve(m));

afterEach(() => {
	for (const file of WITH_PACERS) if (file in require.cache) jest.requireActual<Clearable>(file).PACERS.clear();
});
