/**
 * Zapier's CLI 19 on Node 22 (npm run test:zapier-cli): validate, invoke
 * against the sandbox, and the Zapier jest tests under Node 22. This runner
 * runs on the repository's Node 20; the tests spawn Node 22 for the rest.
 */
const { e2eProject } = require('../jest.base.js');

// The queue suite's environment: the tests' SIGINT handler (zapier/.env put back) must listen on the real process.
module.exports = e2eProject('zapier-cli', { testEnvironment: '<rootDir>/test/e2e/queue/environment.js' });
