/**
 * The hostile-input fuzz suite (npm run test:fuzz): kept out of `npm test` because it sends
 * 20,000+ generated requests; run by .ci/run as its own step. Same database setup as the main suite.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/fuzz/**/*.test.ts'],
  testTimeout: 600000,
};
