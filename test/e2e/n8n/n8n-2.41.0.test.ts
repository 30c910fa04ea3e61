/** n8n 2.41.0 on Node 24, the newest 2.x that installs from the registry here: the whole suite (suite.ts). */
import { n8nSuite } from './suite';

describe('n8n 2.41.0', () => n8nSuite({ runtime: 'newest', version: '2.41.0' }));
