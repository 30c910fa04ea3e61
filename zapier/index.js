// The entry point Zapier loads (its wrapper requires ./index.js). The app is
// written in TypeScript under src/ and compiled by `npm run build` into dist/,
// together with the shared core it imports from ../shared.
const built = require('./dist/zapier/src/index.js');

module.exports = built.default || built;
