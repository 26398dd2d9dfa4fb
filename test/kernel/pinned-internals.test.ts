import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OpenAPIRouter } from 'openapi-backend';
import { CompiledRouter } from '../../src/kernel/http/compiled-router';
import { createOpenApiBackend } from '../../src/kernel/http/openapi';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';

const ROOT = path.resolve(__dirname, '../..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = (name: string) =>
  (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

/**
 * Two pieces of this repository reach into a dependency's internals: CompiledRouter and
 * OpenApi31Backend (src/kernel/http/compiled-router.ts, openapi.ts) into openapi-backend's router
 * and backend, and the fast suite's runtime (test/support/code-cache-runtime.js) into
 * jest-runtime. Those versions are pinned exactly; these tests fail, naming what to check, when
 * the installed version no longer has what they rely on (issue 41).
 */
describe('the versions whose internals the code relies on', () => {
  it('pins openapi-backend, jest and jest-runtime to exact versions, and jest runs the jest-runtime the fast runtime extends', () => {
    const pins = {
      'openapi-backend': packageJson.dependencies['openapi-backend'],
      jest: packageJson.devDependencies.jest,
      'jest-runtime': packageJson.devDependencies['jest-runtime'],
    };
    expect(pins).toEqual({
      'openapi-backend': installed('openapi-backend'),
      jest: installed('jest'),
      'jest-runtime': installed('jest-runtime'),
    });
    // A jest upgrade without jest-runtime would give jest-runner a jest-runtime of its own, not the one extended.
    const runnersRuntime = require.resolve('jest-runtime', { paths: [path.dirname(require.resolve('jest-runner'))] });
    expect(runnersRuntime).toBe(require.resolve('jest-runtime'));
  });
});

describe('openapi-backend, as CompiledRouter and OpenApi31Backend use it', () => {
  const whatToCheck = `check src/kernel/http/compiled-router.ts and openapi.ts against openapi-backend ${installed('openapi-backend')}'s router.js and backend.js before moving its pin in package.json`;

  it('has the router methods CompiledRouter overrides or calls, taking the arguments it passes', () => {
    const router = OpenAPIRouter.prototype as unknown as Record<string, unknown>;
    const arity = (name: string) =>
      typeof router[name] === 'function' ? (router[name] as (...args: unknown[]) => unknown).length : 'missing';
    const expected = {
      getOperations: 0,
      matchOperation: 2,
      parseRequest: 2,
      normalizeRequest: 1,
      normalizePath: 1,
      isUnderApiRoot: 1,
    };
    const found = Object.fromEntries(Object.keys(expected).map((name) => [name, arity(name)]));
    // isUnderApiRoot is private there: CompiledRouter repeats its test as underApiRoot.
    expect({ found, whatToCheck }).toEqual({ found: expected, whatToCheck });
  });

  it('routes, parses and validates every request with the CompiledRouter the backend is given at init', async () => {
    const backend = createOpenApiBackend(loadSpecDocument());
    await backend.init();
    expect({
      router: backend.router instanceof CompiledRouter,
      validatorsRouter: backend.validator.router === backend.router,
      whatToCheck,
    }).toEqual({ router: true, validatorsRouter: true, whatToCheck });
    const parse = jest.spyOn(CompiledRouter.prototype, 'parseRequest');
    try {
      const validation = backend.validateRequest({
        method: 'GET',
        path: '/api/external/v1/reference/ctgs',
        headers: {},
        query: {},
      });
      expect({ valid: validation.valid, parsedByCompiledRouter: parse.mock.calls.length > 0, whatToCheck }).toEqual({
        valid: true,
        parsedByCompiledRouter: true,
        whatToCheck,
      });
    } finally {
      parse.mockRestore();
    }
  });
});

describe("jest-runtime, as the fast suite's code-cache runtime uses it", () => {
  it('builds the runtime on the installed jest-runtime with every internal it takes, shares resolutions across files and hands V8 its code cache', () => {
    // Outside this test's own runtime: the check builds runtimes the way jest does.
    const report: unknown = JSON.parse(
      execFileSync(process.execPath, [path.join(ROOT, 'test/support/code-cache-runtime-check.js')], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    );
    expect(report).toEqual({
      runtimeClass: true,
      internalsProblems: [],
      sharedResolution: true,
      cachedDataAccepted: true,
    });
  });
});
