/**
 * Builds two of test/support/code-cache-runtime.js's runtimes the way jest does for the fast
 * config (outside jest, so the installed jest-runtime is the one checked) and prints, as JSON,
 * what test/kernel/pinned-internals.test.ts asserts: no internals missing, the resolution memo
 * shared across files, and a second file's compile of the same source taking V8's code cache.
 */
const path = require('node:path');
const { readConfig } = require('jest-config');
const { createScriptTransformer } = require('@jest/transform');
const Runtime = require('jest-runtime').default;
const CodeCacheRuntime = require('./code-cache-runtime');

async function main() {
  const root = path.resolve(__dirname, '../..');
  const { projectConfig, globalConfig } = await readConfig(
    { $0: 'jest', _: [], config: path.join(root, 'jest.fast.config.js') },
    root,
  );
  const context = await Runtime.createContext(projectConfig, { maxWorkers: 1, watchman: false });
  const transformer = await createScriptTransformer(projectConfig);
  const Environment = require(projectConfig.testEnvironment);
  const testPath = path.join(root, 'test/kernel/pinned-internals.test.ts');
  const runtime = () => {
    const environment = new Environment({ projectConfig, globalConfig }, { console, docblockPragmas: {}, testPath });
    const coverage = { collectCoverage: false, collectCoverageFrom: [], coverageProvider: 'v8' };
    return new CodeCacheRuntime(
      projectConfig,
      environment,
      context.resolver,
      transformer,
      new Map(),
      coverage,
      testPath,
      globalConfig,
    );
  };
  const [first, second] = [runtime(), runtime()];
  const source = 'return module.exports = 42;';
  const filename = path.join(root, 'test/support/code-cache-check-module.js');
  first.executor.compile(source, filename);
  const again = second.executor.compile(source, filename);
  process.stdout.write(
    JSON.stringify({
      runtimeClass: Object.getPrototypeOf(CodeCacheRuntime) === Runtime,
      internalsProblems: CodeCacheRuntime.internalsProblems(second),
      sharedResolution:
        first._resolution.cjsCache === second._resolution.cjsCache &&
        first._resolution.esmCache === second._resolution.esmCache,
      cachedDataAccepted: again?.cachedDataRejected === false,
    }),
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
