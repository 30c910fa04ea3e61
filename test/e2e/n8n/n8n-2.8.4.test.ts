/** n8n 2.8.4 on Node 20, the oldest n8n the package supports: the whole suite (suite.ts). */
import { n8nSuite } from './suite';

describe('n8n 2.8.4', () => n8nSuite({ runtime: 'oldest', version: '2.8.4' }));
