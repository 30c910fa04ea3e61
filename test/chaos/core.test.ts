/** Chaos matrix through the core: PostWriterClient over axios, and the shared polling logic. */
import { coreDriver } from './drivers/core';
import { chaosSuite, replayCase } from './suite';

chaosSuite(coreDriver, 'chaos-core');
replayCase(coreDriver, 'chaos-core-replay');
