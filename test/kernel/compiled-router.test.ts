import OpenAPIBackend, { OpenAPIRouter, type Operation, type Request } from 'openapi-backend';
import { CompiledRouter } from '../../src/kernel/http/compiled-router';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { first } from '../support/elements';

/** The spec dereferenced the way the service's backend sees it. */
async function dereferencedSpec() {
  const backend = new OpenAPIBackend({ definition: loadSpecDocument(), quick: true, validate: false });
  await backend.init();
  return backend.definition;
}

/** A concrete path for an operation: each parameter a value that needs percent-decoding. */
const concretePath = (operation: Operation) =>
  operation.path.replace(/\{[^}]+\}/g, (name) => encodeURIComponent(`${name.slice(1, -1)} é/1`));

function outcome(router: OpenAPIRouter, request: Request): unknown {
  try {
    const operation = router.matchOperation(request, true);
    return { operationId: operation.operationId, parsed: router.parseRequest(request, operation) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('the compiled router answers as openapi-backend’s own router', () => {
  let original: OpenAPIRouter;
  let compiled: CompiledRouter;
  let operations: Operation[];

  beforeAll(async () => {
    const definition = await dereferencedSpec();
    original = new OpenAPIRouter({ definition, apiRoot: '/' });
    compiled = new CompiledRouter({ definition, apiRoot: '/' });
    operations = original.getOperations();
  });

  it('routes and parses every operation of the spec alike, its path parameters decoded', () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      const request: Request = {
        method: operation.method.toUpperCase(),
        path: concretePath(operation),
        headers: { 'content-type': 'application/json', Authorization: 'Bearer x' },
        query: { page: '2', tag: ['a', 'b'] },
        body: { a: 1 },
      };
      expect(outcome(compiled, request)).toEqual(outcome(original, request));
      expect(outcome(compiled, { ...request, path: `${request.path}/` })).toEqual(
        outcome(original, { ...request, path: `${request.path}/` }),
      );
    }
  });

  it('refuses an unknown path with 404 and a known path’s missing method with 405, in the same words', () => {
    const refused: [method: string, path: string][] = [
      ['GET', '/api/external/v1/nothing/here'],
      ['GET', '/elsewhere'],
      ['PATCH', '/api/external/v1/reference/quote'],
      ['PUT', concretePath(operations.find((operation) => operation.path.includes('{'))!)],
    ];
    for (const [method, path] of refused) {
      const request: Request = { method, path, headers: {}, query: {} };
      expect(outcome(compiled, request)).toEqual(outcome(original, request));
      expect(compiled.matchOperation(request)).toBe(original.matchOperation(request));
    }
  });

  it('leaves the rare inputs to openapi-backend: cookies, a raw query string, a text body', () => {
    const operation = operations.find((candidate) => candidate.method === 'post')!;
    const requests: Request[] = [
      { method: 'POST', path: concretePath(operation), headers: { cookie: 'a=1; b=2' }, query: {} },
      { method: 'POST', path: `${concretePath(operation)}?x=1`, headers: {}, query: 'x=1&y=2' },
      { method: 'POST', path: concretePath(operation), headers: {}, query: {}, body: '{"a":1}' },
    ];
    for (const request of requests) {
      expect(compiled.parseRequest(request, operation)).toEqual(original.parseRequest(request, operation));
    }
  });

  it('gives each parse its own query, so that coercing one never changes another', () => {
    const operation = first(operations, 'the operations');
    const query = { tag: ['a'] };
    const parsed = compiled.parseRequest(
      { method: 'GET', path: concretePath(operation), headers: {}, query },
      operation,
    );
    (parsed.query as { tag: string[] }).tag.push('b');
    expect(query.tag).toEqual(['a']);
  });
});
