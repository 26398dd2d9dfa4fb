/**
 * End-to-end tests kept out of `npm test` because they need a build or a browser:
 * a real Chromium through the hosted checkout (test:browser) and two forked server processes
 * racing one Idempotency-Key (test:race). Same database setup as the main suite.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
  testTimeout: 120000,
};
