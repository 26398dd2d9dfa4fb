/**
 * Browser tests (headless Chromium through playwright-core): `npm run test:browser`. Kept apart
 * from `npm test` so the everyday suite stays fast; CI runs both.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60000,
};
