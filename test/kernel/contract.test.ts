import { DomainError, conflict, invalid, tooMany, unauthenticated, uploadRefused } from '../../src/kernel/errors';
import { toHttpError } from '../../src/kernel/http/error-response';
import { responseCheck } from '../../src/kernel/http/response-check';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { operationHandlers } from '../../src/app';
import type { ContractHandlers, TagHandlers } from '../../src/kernel/http/request-scope';

describe('the handler map is the contract (checked by the typecheck npm test runs first)', () => {
  it('when an operationId is misspelt, then the tag module does not compile', () => {
    const misspelt = {
      // @ts-expect-error getOrdr is not an operation of the spec
      getOrdr: async () => ({ status: 200 as const, body: { status: 'ok' as const } }),
    } satisfies TagHandlers;
    expect(Object.keys(misspelt)).toEqual(['getOrdr']);
  });

  it('when a handler is missing, then the map does not compile', () => {
    // Only the type of what is left matters here; the dropped handler is never called.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { getHealth: _dropped, ...rest } = operationHandlers;
    // @ts-expect-error getHealth has no handler
    const incomplete: ContractHandlers = rest;
    expect(Object.keys(incomplete)).not.toContain('getHealth');
  });

  it('when a handler answers a status its operation does not document, then it does not compile', () => {
    const undocumented = {
      // @ts-expect-error getHealth documents 200 and 500 only
      getHealth: async () => ({ status: 201 as const, body: { status: 'ok' as const } }),
    } satisfies TagHandlers;
    expect(undocumented.getHealth).toBeDefined();
  });
});

describe('responses against the spec', () => {
  const logged: object[] = [];
  const log = () => ({ error: (details: object) => void logged.push(details) });

  async function check(mode: 'log' | 'fail') {
    return responseCheck(loadSpecDocument(), { responseValidation: mode });
  }

  it('when a body breaks its schema, then fail mode refuses it and log mode logs it', async () => {
    const wrong = { status: 200, body: { status: 5 } };
    const strict = await check('fail');
    expect(() => strict('getHealth', wrong, log)).toThrow(/outside its contract/);
    expect((await check('log'))('getHealth', wrong, log)).toBe(wrong);
    expect(logged.at(-1)).toMatchObject({ operationId: 'getHealth', status: 200 });
  });

  it('when the status is not documented, then it is a violation', async () => {
    const strict = await check('fail');
    expect(() => strict('getHealth', { status: 201, body: { status: 'ok' } }, log)).toThrow(/outside its contract/);
    expect(strict('getHealth', { status: 200, body: { status: 'ok' } }, log)).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });
});

describe('error kinds become statuses and shapes only in http/error-response', () => {
  it.each([
    [invalid('Validation failed', { a: 'b' }), 400, 'api'],
    [unauthenticated('Invalid access token'), 401, 'auth'],
    [conflict('The quote has already been used'), 409, 'api'],
    [uploadRefused('Send exactly one file per request'), 400, 'upload'],
    [uploadRefused('File exceeds the maximum size of 10 bytes', true), 413, 'upload'],
    [tooMany('Too many requests, retry later', 7), 429, 'api'],
    [
      new DomainError('method-not-allowed', 'Method PUT is not allowed on /x', { allowedMethods: ['GET', 'POST'] }),
      405,
      'api',
    ],
  ])('when %p is thrown, then it answers its status in its shape', (error, status, shape) => {
    expect(toHttpError(error)).toMatchObject({ status, shape, message: error.message });
  });

  it('when a kind carries a retry time or allowed methods, then they become headers', () => {
    expect(toHttpError(tooMany('Too many requests, retry later', 7)).headers).toEqual({ 'Retry-After': '7' });
    expect(
      toHttpError(new DomainError('method-not-allowed', 'no', { allowedMethods: ['GET', 'POST'] })).headers,
    ).toEqual({ Allow: 'GET, POST' });
  });

  it('when anything else is thrown, then it is a generic 500', () => {
    expect(toHttpError(new Error('secret detail'))).toMatchObject({ status: 500, message: 'Internal server error' });
    expect(toHttpError(undefined)).toMatchObject({ status: 500 });
  });
});
