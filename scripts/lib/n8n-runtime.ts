/**
 * Real n8n for `npm start`, the end-to-end suites and the benchmark, outside the
 * project's dependency tree: everything the callers import from one place.
 * Each part has its own module:
 *   - paths.ts: the repository, the n8n package and the cache folders;
 *   - n8n-install.ts: the two runtimes (pins, installed once into the cache);
 *   - n8n-build.ts and n8n-package.ts: build, pack (under a lock) and unpack the package;
 *   - n8n-process.ts: n8n's environment, one command bounded in time, `execute`'s output;
 *   - processes.ts: free ports, process groups;
 *   - n8n-workflows.ts: the sandbox in this process, workflows adapted to where the node loads.
 * Nothing here reaches beyond 127.0.0.1 except the npm registry during an install.
 */
export { ROOT, PACKAGE_DIR, cacheRoot } from './paths';
export { RUNTIME_NAMES, N8N_VERSION, runtime, runtimeDir, withNode, findN8n, ensureN8n } from './n8n-install';
export type { RuntimeName, Runtime, RuntimePins, N8nInstall } from './n8n-install';
export { buildN8n } from './n8n-build';
export type { BuildResult } from './n8n-build';
export { buildAndPack, withBuildLock, unpack } from './n8n-package';
export type { PackedPackage } from './n8n-package';
export { n8nEnv, runN8n, parseRunOutput, editorUp } from './n8n-process';
export type { RunN8nOptions, N8nRun, N8nRunData, N8nTaskData, N8nItem } from './n8n-process';
export { freePort, portInUse, killGroup } from './processes';
export { startSandbox, publishNow, adaptWorkflow } from './n8n-workflows';
export type { AdaptOptions, CredentialRef, N8nWorkflow } from './n8n-workflows';
