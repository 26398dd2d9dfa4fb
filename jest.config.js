/** @type {import('jest').Config} */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

module.exports = {
  // Jest's node environment, which also stops server processes a failed test left running.
  testEnvironment: '<rootDir>/test/support/started-servers-environment.js',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/load/', '/test/browser/', '/test/fuzz/', '/test/fault/'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  // src/ loads rarely used heavy packages with import('./file.js') (Node's ESM rule for relative
  // paths); under jest the file is the .ts beside it.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
