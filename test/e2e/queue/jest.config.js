/**
 * Queue mode end to end (npm run test:queue): PostgreSQL, Redis, n8n 2.41.0's
 * main and two workers. About 10 minutes; `-- -t kill` runs the worker-kill
 * part alone (its steps start what it needs, the trigger and batch steps never run).
 */
const { e2eProject } = require('../jest.base.js');

// Its own environment: the tests' SIGINT handler must listen on the real process.
module.exports = e2eProject('queue', { testEnvironment: '<rootDir>/test/e2e/queue/environment.js' });
