/**
 * Concurrency and fault runs (npm run test:concurrency, npm run test:faults): built server
 * processes on a PostgreSQL cluster each file starts for itself (the fault run stops and starts
 * it), so no global database setup. Kept out of `npm test`.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  globalSetup: undefined,
  globalTeardown: undefined,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/fault/**/*.test.ts'],
  testTimeout: 300000,
};
