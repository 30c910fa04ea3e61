/**
 * The registry rehearsal (npm run test:registry): the package published to a
 * local verdaccio and installed, upgraded and reconciled by n8n 2.41's own
 * community-package installer. One file, its steps in order; the global setup
 * stops what it started on Ctrl-C.
 */
const { e2eProject } = require('../jest.base.js');

module.exports = e2eProject('registry', {
	globalSetup: '<rootDir>/test/e2e/registry/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/registry/global-teardown.ts',
});
