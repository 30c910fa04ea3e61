/**
 * n8n 2.41.0 with its durable poller on (the four opt-in flags): the trigger
 * part of the suite (suite.ts), the build and imports it needs included.
 */
import { n8nSuite } from './suite';

describe('n8n 2.41.0 durable poller', () => n8nSuite({ runtime: 'newest', version: '2.41.0', durable: true, only: 'trigger' }));
