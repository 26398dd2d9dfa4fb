/**
 * The modules' own tests (`npm run test:fast`): test/<module>/ for every module of src/modules/
 * and test/kernel/, unit and API tests in the test process over the run's PostgreSQL. Nothing
 * that forks a server process, builds dist/ or packs a package (test/process, test/client,
 * test/mock), and none of the suites kept out of `npm test` (e2e, fault, fuzz, browser, contract).
 * `npm test` runs these and the rest.
 */
const fs = require('node:fs');
const path = require('node:path');
const base = require('./jest.config');

const modules = fs.readdirSync(path.join(__dirname, 'src/modules')).filter((name) => fs.existsSync(path.join(__dirname, 'test', name)));

module.exports = {
  ...base,
  roots: [...modules, 'kernel'].map((folder) => `<rootDir>/test/${folder}`),
  // A worker runs many of these files: V8's code cache of the modules compiled for the first is
  // reused by the next (see the file).
  runtime: '<rootDir>/test/support/code-cache-runtime.js',
};
