/**
 * Zapier's core ends its process (process.exit) once it has served 250 runs and the process holds more than
 * 450 MB (its memory-checker.js): a guard against leaks in Zapier's own containers. In the tests the process
 * is a jest worker, whose memory is mostly the test tooling's, and a test file may run an app hundreds of
 * times (test/zapier/dedupe.test.ts): the guard is left out of every jest run (a setup file, so that the
 * Zapier helpers stay loadable outside jest, as the bench loads them).
 */
jest.mock('../../zapier/node_modules/zapier-platform-core/src/tools/memory-checker', () => () => undefined);
