/** Chaos matrix through the Zapier app (appTester, throttled-step replay, Zapier's dedupe). */
import { zapierDriver } from './drivers/zapier';
import { chaosSuite, replayCase } from './suite';

chaosSuite(zapierDriver, 'chaos-zapier');
replayCase(zapierDriver, 'chaos-zapier-replay');
