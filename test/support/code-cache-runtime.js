/**
 * Jest's runtime, with V8's code cache kept per worker for the modules it compiles.
 *
 * Every test file gets a fresh module registry, so each file compiles again the ~900 modules of
 * src/ and node_modules a server needs: about half a second of a worker's time per file on the
 * 2-core machine. A worker runs many files in one process; this keeps, per file name, the code
 * cache V8 produced the first time and hands it back when the same source is compiled again in a
 * later file's context. What runs is the same code: V8 checks the cache against the source and
 * compiles afresh when it does not match (a changed file in watch mode).
 */
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;
const { version: jestRuntimeVersion } = require('jest-runtime/package.json');

/** file name -> the transformed source and V8's cache of it (CommonJS modules). */
const commonJsCache = new Map();
/**
 * `from\0specifier` -> resolved path, which jest-runtime memoizes per file: the same question
 * gets the same answer in every file of a run (one config, no mocks), so the worker keeps one.
 */
const resolved = { cjs: new Map(), esm: new Map() };

if (vm.SourceTextModule) {
  // ESM packages (MikroORM 7) are built by jest-runtime with `new vm.SourceTextModule`.
  const esmCache = new Map();
  const SourceTextModule = vm.SourceTextModule;
  vm.SourceTextModule = class CachedSourceTextModule extends SourceTextModule {
    constructor(code, options = {}) {
      const entry = options.identifier === undefined ? undefined : esmCache.get(options.identifier);
      const cachedData = entry && entry.code === code ? entry.data : undefined;
      super(code, cachedData ? { ...options, cachedData } : options);
      if (!cachedData && options.identifier !== undefined)
        esmCache.set(options.identifier, { code, data: this.createCachedData() });
    }
  };
}

/**
 * What this runtime takes from jest-runtime's internals (pinned in package.json with jest): the
 * resolution's two memo maps, and the executor's compile with what it reads. An upgrade that moves
 * any of them fails every run at once with this list, instead of running without the cache.
 */
function internalsProblems(runtime) {
  const problems = [];
  const resolution = runtime._resolution;
  if (!(resolution?.cjsCache instanceof Map) || !(resolution.esmCache instanceof Map))
    problems.push('runtime._resolution.cjsCache and .esmCache are no longer Maps');
  const executor = runtime.executor;
  if (typeof executor?.compile !== 'function' || executor.compile.length !== 2)
    problems.push('runtime.executor.compile(source, filename) is gone or takes other arguments');
  if (typeof executor?.environment?.getVmContext !== 'function')
    problems.push('runtime.executor.environment.getVmContext() is gone');
  if (typeof executor?.resolution?.isCoreModule !== 'function')
    problems.push('runtime.executor.resolution.isCoreModule() is gone');
  if (!Array.isArray(executor?.injectedModuleParameters))
    problems.push('runtime.executor.injectedModuleParameters is no longer an array');
  if (typeof executor?.dynamicImport !== 'function') problems.push('runtime.executor.dynamicImport() is gone');
  return problems;
}

class CodeCacheRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const problems = internalsProblems(this);
    if (problems.length > 0) {
      throw new Error(
        `test/support/code-cache-runtime.js does not fit jest-runtime ${jestRuntimeVersion}: ${problems.join('; ')}. ` +
          "Compare it with that version's Runtime constructor, Resolution and ModuleExecutor.compile (node_modules/jest-runtime/build/index.js), " +
          'or drop `runtime` from jest.fast.config.js; jest and jest-runtime are pinned together in package.json.',
      );
    }
    this._resolution.cjsCache = resolved.cjs;
    this._resolution.esmCache = resolved.esm;
    const executor = this.executor;
    const compile = executor.compile.bind(executor);
    // jest-runtime's own compile (ModuleExecutor.compile) with cachedData added; anything it
    // would report (a syntax error) is left to it.
    executor.compile = (source, filename) => {
      const vmContext = executor.environment.getVmContext();
      if (vmContext == null) return null;
      const entry = commonJsCache.get(filename);
      const cachedData = entry && entry.source === source ? entry.data : undefined;
      const scriptFilename = executor.resolution.isCoreModule(filename) ? `jest-nodejs-core-${filename}` : filename;
      let compiled;
      try {
        compiled = vm.compileFunction(source, executor.injectedModuleParameters, {
          filename: scriptFilename,
          importModuleDynamically: (specifier, _function, importAttributes, ...rest) =>
            executor.dynamicImport(specifier, scriptFilename, vmContext, importAttributes, rest[0]),
          parsingContext: vmContext,
          cachedData,
          produceCachedData: cachedData === undefined,
        });
      } catch {
        return compile(source, filename);
      }
      if (cachedData === undefined && compiled.cachedData)
        commonJsCache.set(filename, { source, data: compiled.cachedData });
      return compiled;
    };
  }
}

module.exports = CodeCacheRuntime;
module.exports.internalsProblems = internalsProblems;
