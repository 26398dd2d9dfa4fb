import type { Request, Response } from 'express';
import type { Context, Document, OpenAPIBackend } from 'openapi-backend';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, invalid, notFound, unauthenticated } from '../errors';
import { enforceRateLimit } from '../rate-limits/operation-limits';
import type { RateLimitConfig } from '../rate-limits/settings';
import { chunkBatcher } from './chunk-batcher';
import type { OperationId } from './contract';
import { errorBody, sendError, toHttpError, type HttpError } from './error-response';
import { fieldErrorsFromAjv } from './field-errors';
import {
  fieldNestedTooDeep,
  fieldWithLoneSurrogate,
  fieldWithNonFiniteNumber,
  fieldWithNul,
  keyUnstorable,
  MAX_JSON_DEPTH,
} from './input-guards';
import { validatesBeforeHandler } from './multipart';
import { contractRequest, createOpenApiBackend } from './openapi';
import type { OperationPolicies, OperationPolicy } from './operation-policy';
import type { ContractHandler, ContractHandlers, Principal, RequestScope } from './request-scope';
import { responseCheck, type Answer, type ResponseCheckConfig } from './response-check';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { deadlineGuard, type StreamDeadlines } from './stream-deadline';
import { setTestToday, testToday } from '../business-today';
import { clockNameOf, CLOCK_NAME_HEADER } from '../test-clock';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** openapi-backend calls every handler with these after its context: `handleRequest(request, req, res, scope)`. */
type HandlerArgs = [req: Request, res: Response, scope: RequestScope];

/** Who a bearer token names; throws an `unauthenticated` error for a token that names nobody. */
export type BearerCheck = (em: EntityManager, token: string) => Promise<Principal>;

/** The date a caller's test clock is set to, if any (sandbox only; decision record 0083). */
export type TestClockOf = (em: EntityManager, principal: Principal, clock: string) => Promise<string | undefined>;

/** Every answer to a caller on a test clock says so, errors included. */
export const TEST_CLOCK_HEADER = 'Sandbox-Today';

export interface ApiOptions {
  /** The bearer security scheme's check (the auth module's, in the service). */
  authenticate: BearerCheck;
  /** Outside production: every answer checked against the document (see response-check). */
  responseChecks?: ResponseCheckConfig;
  /** Each operation's rate limits and malformed-request answer, declared by its module. */
  policies?: OperationPolicies;
  /** The values the policies' rate limits read; without them no operation is limited. */
  rateLimits?: RateLimitConfig;
  /** When a streamed answer is cut (a client that stopped reading, or one too slow in all); without them never. */
  streamDeadlines?: StreamDeadlines;
  /** Where a caller's test clock is read (sandbox mode only); without it every request reads the real date. */
  testClockOf?: TestClockOf;
  /**
   * Operations of the handler map that this document deliberately lacks (the sandbox helpers
   * outside sandbox mode): left unregistered, so their paths answer 404 like any unknown path.
   */
  withdrawn?: ReadonlySet<string>;
}

/**
 * openapi-backend over the document with the bearer check, the answers for requests that reach
 * no handler, and `handlers` by operationId, each wrapped in its policy. The quote benchmark's
 * stack baseline builds one over its own one-operation document, so it measures the service's
 * own request path.
 */
export async function buildApi(
  document: Document,
  handlers: ContractHandlers,
  options: ApiOptions,
): Promise<OpenAPIBackend> {
  const api = createOpenApiBackend(document, { validate: validatesBeforeHandler });
  await api.init();
  const policies: OperationPolicies = options.policies ?? {};
  api.registerSecurityHandler('bearerAuth', bearerCheck(options.authenticate, options.testClockOf));
  api.register(unhandledRequestAnswers(api, policies));
  const respond = responder(document, options, policies);
  for (const operationId of Object.keys(handlers)) {
    // register() throws on an operationId the document does not have: a typo fails at boot.
    if (options.withdrawn?.has(operationId)) continue;
    if (isOperationOf(handlers, operationId)) api.register(operationId, respond(operationId, handlers));
  }
  return api;
}

const isOperationOf = (map: object, key: string): key is OperationId => Object.hasOwn(map, key);

function bearerCheck(authenticate: BearerCheck, testClockOf: TestClockOf | undefined) {
  return async (_c: Context, ...[req, res, scope]: HandlerArgs) => {
    const value = req.headers.authorization;
    try {
      if (!value) throw unauthenticated('Missing Authorization header').coded('TOKEN_MISSING');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
      if (!match?.[1]) throw unauthenticated('Authorization header must be "Bearer <token>"');
      scope.principal = await authenticate(scope.em, match[1]);
      // The clock a CI job names (`Sandbox-Clock`), else the company's; only where clocks exist.
      const today = testClockOf
        ? await testClockOf(scope.em, scope.principal, clockNameOf(req.headers[CLOCK_NAME_HEADER.toLowerCase()]))
        : undefined;
      if (today) {
        setTestToday(today);
        res.setHeader(TEST_CLOCK_HEADER, today);
      }
      return scope.principal;
    } catch (error) {
      // unauthorizedHandler answers with it; openapi-backend only records that the check failed.
      res.locals.authFailure = error;
      return { error };
    }
  };
}

/** The answer to a request the contract refuses: the operation's own (its policy), else the field errors. */
function malformed(policy: OperationPolicy | undefined, fieldErrors: Record<string, string>): Error {
  return policy?.malformedRequest ? policy.malformedRequest() : invalid('Validation failed', fieldErrors);
}

/** Answers for requests that reach no operation handler, each in the contract's error shape. */
function unhandledRequestAnswers(api: OpenAPIBackend, policies: OperationPolicies) {
  return {
    validationFail: async (c: Context, ...[, res]: HandlerArgs) => {
      res.locals.operationId = c.operation.operationId;
      throw malformed(policyOf(policies, c.operation?.operationId), fieldErrorsFromAjv(c.validation.errors ?? []));
    },
    unauthorizedHandler: async (c: Context, ...[, res]: HandlerArgs) => {
      res.locals.operationId = c.operation.operationId;
      // Only an authentication failure is a 401; a database outage during the check is not the caller's fault.
      throw res.locals.authFailure ?? unauthenticated('Missing Authorization header').coded('TOKEN_MISSING');
    },
    notFound: async (c: Context) => {
      throw notFound(`No endpoint ${c.request.method.toUpperCase()} ${c.request.path}`);
    },
    methodNotAllowed: async (c: Context) => {
      const allowed = HTTP_METHODS.filter(
        (method) => api.router.matchOperation({ ...c.request, method }) !== undefined,
      );
      throw new DomainError(
        'method-not-allowed',
        `Method ${c.request.method.toUpperCase()} is not allowed on ${c.request.path}`,
        {
          allowedMethods: allowed.map((method) => method.toUpperCase()),
        },
      );
    },
  };
}

function policyOf(policies: OperationPolicies, operationId: string | undefined): OperationPolicy | undefined {
  return operationId !== undefined && isOperationOf(policies, operationId) ? policies[operationId] : undefined;
}

/** Runs one operation's handler under its policy and writes its answer, or the error it threw in the contract's shape. */
function responder(document: Document, options: ApiOptions, policies: OperationPolicies) {
  const check = responseCheck(document, options.responseChecks);
  return <Id extends OperationId>(operationId: Id, handlers: ContractHandlers) => {
    const handler: ContractHandler<Id> = handlers[operationId];
    const policy = policies[operationId];
    const limits = options.rateLimits;
    return async (c: Context, ...[req, res, scope]: HandlerArgs): Promise<void> => {
      res.locals.operationId = operationId;
      let answer: Answer;
      try {
        rejectUnstorableInput(c, policy);
        if (limits !== undefined) await enforceRateLimit(operationId, policy, scope, limits);
        answer = check(operationId, await handler(contractRequest<Id>(c), scope), () => req.log);
      } catch (error) {
        sendError(req, res, checkedError(error, req, operationId, check));
        return;
      }
      writeAnswer(req, res, answer, operationId, options.streamDeadlines);
    };
  };
}

/** A thrown error as its answer, held to the operation's documented statuses and error schemas too. */
function checkedError(
  error: unknown,
  req: Request,
  operationId: OperationId,
  check: ReturnType<typeof responseCheck>,
): HttpError {
  const httpError = toHttpError(error);
  if (httpError.status >= 500 && httpError.status !== 501)
    req.log.error({ err: error, operationId }, 'operation failed');
  try {
    check(operationId, { status: httpError.status, body: errorBody(req, httpError) }, () => req.log);
    return httpError;
  } catch (violation) {
    return toHttpError(violation);
  }
}

function writeAnswer(
  req: Request,
  res: Response,
  answer: Answer,
  operationId: string,
  deadlines: StreamDeadlines | undefined,
): void {
  // The handler may have set or removed the caller's test clock: the answer says what now holds.
  const today = testToday();
  if (today) res.setHeader(TEST_CLOCK_HEADER, today);
  else res.removeHeader(TEST_CLOCK_HEADER);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.status(answer.status);
  if ('stream' in answer) streamBody(req, res, answer.stream, answer.contentType, operationId, deadlines);
  else if ('contentType' in answer) res.type(answer.contentType).send(answer.body);
  else if (!('body' in answer) || answer.body === undefined) res.end();
  else res.json(answer.body);
}

/**
 * Pipes a streamed body. The status and headers are gone with the first byte, so a failure
 * midway can only cut the connection (the client sees a truncated body, never a half answer
 * that looks whole); it is logged with the operation.
 */
function streamBody(
  req: Request,
  res: Response,
  stream: Readable,
  contentType: string,
  operationId: string,
  deadlines: StreamDeadlines | undefined,
): void {
  res.type(contentType);
  const piped = deadlines
    ? pipeline(stream, deadlineGuard(deadlines), chunkBatcher(), res)
    : pipeline(stream, chunkBatcher(), res);
  piped.catch((error: unknown) => {
    if (!res.writableFinished) req.log.warn({ err: error, operationId }, 'streamed response cut short');
  });
}

/** What the schema lets through but PostgreSQL or the handlers cannot take (see input-guards). */
function rejectUnstorableInput(c: Context, policy: OperationPolicy | undefined): void {
  const problem = unstorableField(c);
  if (problem) throw malformed(policy, problem);
}

function unstorableField(c: Context): Record<string, string> | undefined {
  // Depth first: it ends the walk of a 200,000-deep body at level 33.
  const deep = fieldNestedTooDeep(c.request.requestBody);
  if (deep) return { [deep]: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
  const nul = fieldWithNul(c.request.params) ?? fieldWithNul(c.request.query) ?? fieldWithNul(c.request.requestBody);
  if (nul) return { [nul]: 'must not contain the NUL character' };
  const key = keyUnstorable(c.request.requestBody) ?? keyUnstorable(c.request.query);
  if (key) return { [key.field]: key.reason };
  const surrogate =
    fieldWithLoneSurrogate(c.request.params) ??
    fieldWithLoneSurrogate(c.request.query) ??
    fieldWithLoneSurrogate(c.request.requestBody);
  if (surrogate) return { [surrogate]: 'must not contain an unpaired surrogate (no character)' };
  const infinite = fieldWithNonFiniteNumber(c.request.params) ?? fieldWithNonFiniteNumber(c.request.query);
  return infinite ? { [infinite]: 'must be a finite number' } : undefined;
}
