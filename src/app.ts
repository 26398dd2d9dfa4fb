import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Express, type Request, type Response } from 'express';
import type { Context, Document, OpenAPIBackend, Request as OpenApiRequest } from 'openapi-backend';
import type { Orm } from './kernel/db/orm';
import { DomainError, invalid, notFound, unauthenticated } from './kernel/errors';
import { chunkBatcher } from './kernel/http/chunk-batcher';
import type { OperationId } from './kernel/http/contract';
import { errorBody, errorMiddleware, sendError, toHttpError, unknownPathMiddleware, type HttpError } from './kernel/http/error-response';
import { fieldErrorsFromAjv } from './kernel/http/field-errors';
import { fieldNestedTooDeep, fieldWithNonFiniteNumber, fieldWithNul, MAX_JSON_DEPTH } from './kernel/http/input-guards';
import { validatesBeforeHandler } from './kernel/http/multipart-upload';
import { requestMetrics } from './kernel/metrics/metrics';
import { enforceRateLimit } from './kernel/rate-limits/operation-limits';
import { contractRequest, createOpenApiBackend } from './kernel/http/openapi';
import { rejectUnreadablePaths } from './kernel/http/path-guard';
import { requestLog } from './kernel/http/request-log';
import { compressionForAcceptingClients } from './kernel/http/response-compression';
import { responseCheck, type Answer, type ResponseCheckConfig } from './kernel/http/response-check';
import { docsContentSecurityPolicy, securityHeaders } from './kernel/http/security-headers';
import { docsPagePath } from './kernel/http/spec-document';
import { authenticate } from './modules/auth';
import type { TokenCheckCache } from './modules/auth';
import { operationHandlers } from './operation-handlers';
import { PROMO_OPERATION_IDS } from './modules/promos';
import { invalidPromoCode } from './modules/promos';
import type { ContractHandler, ContractHandlers, RequestScope, Services } from './kernel/http/request-scope';

export interface AppDeps {
  orm: Orm;
  services: Services;
  document: Document;
  /** Pages served beside the API, such as the sandbox gateways' hosted checkout. */
  pages?: express.Router[];
  /** Bearer checks kept while the process listens for revocations; without it every check asks the database. */
  tokenChecks?: TokenCheckCache;
}

export const API_PREFIX = '/api/external/v1';

/**
 * Answers under the partner prefix carry tokens (RFC 6749 5.1) or personal data (travellers,
 * orders, payments): no cache, shared or private, may keep them. The published OpenAPI document
 * (served before this) stays cacheable.
 */
const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** Express in front, openapi-backend for routing and validation from the spec, handlers by operationId. */
export async function createApp({ orm, services, document, pages = [], tokenChecks }: AppDeps): Promise<Express> {
  const api = await buildApi(document, operationHandlers, { responseChecks: services.config, tokenChecks });
  return httpStack({ orm, services, document, pages, api });
}

/**
 * openapi-backend over the document with the bearer check, the answers for requests that reach
 * no handler, and `handlers` by operationId. The quote benchmark's stack baseline builds one over
 * its own one-operation document, so it measures the service's own request path.
 */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** openapi-backend calls every handler with these after its context: `handleRequest(request, req, res, scope)`. */
type HandlerArgs = [req: Request, res: Response, scope: RequestScope];

export interface ApiOptions {
  /** Outside production: every answer checked against the document (see http/response-check). */
  responseChecks?: ResponseCheckConfig;
  tokenChecks?: TokenCheckCache;
}

export async function buildApi(document: Document, handlers: ContractHandlers, options: ApiOptions = {}): Promise<OpenAPIBackend> {
  const api = createOpenApiBackend(document, { validate: validatesBeforeHandler });
  await api.init();
  api.registerSecurityHandler('bearerAuth', bearerCheck(options.tokenChecks));
  api.register(unhandledRequestAnswers(api));
  const respond = responder(api, options.responseChecks);
  for (const operationId of Object.keys(handlers)) {
    // register() throws on an operationId the document does not have: a typo fails at boot.
    if (isOperationOf(handlers, operationId)) api.register(operationId, respond(operationId, handlers));
  }
  return api;
}

const isOperationOf = (handlers: ContractHandlers, key: string): key is OperationId => Object.hasOwn(handlers, key);

function bearerCheck(tokenChecks: TokenCheckCache | undefined) {
  return async (_c: Context, ...[req, res, scope]: HandlerArgs) => {
    const value = req.headers.authorization;
    try {
      if (!value) throw unauthenticated('Missing Authorization header');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
      if (!match) throw unauthenticated('Authorization header must be "Bearer <token>"');
      scope.principal = await authenticate(scope.em, match[1], tokenChecks);
      return scope.principal;
    } catch (error) {
      // unauthorizedHandler answers with it; openapi-backend only records that the check failed.
      res.locals.authFailure = error;
      return { error };
    }
  };
}

/** Answers for requests that reach no operation handler, each in the contract's error shape. */
function unhandledRequestAnswers(api: OpenAPIBackend) {
  return {
    validationFail: async (c: Context, ...[, res]: HandlerArgs) => {
      res.locals.operationId = c.operation.operationId;
      // A malformed promo request (a blank code above all) must not answer differently from a rejected code.
      if (PROMO_OPERATION_IDS.has(c.operation?.operationId ?? '')) throw invalidPromoCode();
      throw invalid('Validation failed', fieldErrorsFromAjv(c.validation.errors ?? []));
    },
    unauthorizedHandler: async (c: Context, ...[, res]: HandlerArgs) => {
      res.locals.operationId = c.operation.operationId;
      // Only an authentication failure is a 401; a database outage during the check is not the caller's fault.
      throw res.locals.authFailure ?? unauthenticated('Missing Authorization header');
    },
    notFound: async (c: Context) => {
      throw notFound(`No endpoint ${c.request.method.toUpperCase()} ${c.request.path}`);
    },
    methodNotAllowed: async (c: Context) => {
      const allowed = HTTP_METHODS.filter((method) => api.router.matchOperation({ ...c.request, method }) !== undefined);
      throw new DomainError('method-not-allowed', `Method ${c.request.method.toUpperCase()} is not allowed on ${c.request.path}`, {
        allowedMethods: allowed.map((method) => method.toUpperCase()),
      });
    },
  };
}

/** What every request passes through on its way to openapi-backend: log, metrics, headers, JSON body, scope. */
export function httpStack({ orm, services, document, pages = [], api }: AppDeps & { api: OpenAPIBackend }): Express {
  const app = express();
  app.disable('x-powered-by');
  // The contract defines no conditional requests; a SHA-1 of every JSON body would be paid for nothing.
  app.set('etag', false);
  // Which X-Forwarded-For hop is the client (req.ip), for the rate limits counted per address.
  app.set('trust proxy', services.config.trustProxy);
  app.use(requestLog(services.logger));
  app.use(requestMetrics(services.metrics));
  app.use(securityHeaders());
  app.use(rejectUnreadablePaths());
  app.use(compressionForAcceptingClients());
  // A person who opens the service's address lands on the docs.
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.get('/api/external/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.get('/docs', (_req, res) => {
    const page = docsPagePath();
    if (page) res.setHeader('Content-Security-Policy', docsContentSecurityPolicy(page)).sendFile(page);
    else sendError(_req, res, toHttpError(notFound('The docs page is not built: run `npm run docs`')));
  });
  app.use(API_PREFIX, noStore);
  for (const router of pages) app.use(router);
  app.use(express.json({ limit: services.config.maxJsonBodyBytes, type: ['application/json', 'application/*+json'] }));
  app.use((req, res, next) => {
    const scope: RequestScope = { em: orm.em.fork(), services, req };
    api.handleRequest(apiRequest(req), req, res, scope).catch(next);
  });
  app.use(unknownPathMiddleware());
  app.use(errorMiddleware());
  return app;
}

/** What openapi-backend routes and validates: Express has parsed the body, and its query parser is the flat one. */
function apiRequest(req: Request): OpenApiRequest {
  // Express 5's "simple" query parser (node:querystring) yields strings and arrays of strings only.
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.query)) if (typeof value === 'string' || isStringArray(value)) query[name] = value;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  // express.json() has parsed it (or left it undefined): unknown until openapi-backend validates it.
  const body: unknown = req.body;
  return { method: req.method, path: req.path, body, query, headers };
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Runs one operation's handler and writes its answer, or the error it threw in the contract's shape. */
function responder(api: OpenAPIBackend, config: ResponseCheckConfig | undefined) {
  const check = responseCheck(api, config);
  return <Id extends OperationId>(operationId: Id, handlers: ContractHandlers) => {
    const handler: ContractHandler<Id> = handlers[operationId];
    return async (c: Context, ...[req, res, scope]: HandlerArgs): Promise<void> => {
      res.locals.operationId = operationId;
      let answer: Answer;
      try {
        rejectUnstorableInput(c, operationId);
        await enforceRateLimit(operationId, scope);
        answer = check(operationId, await handler(contractRequest<Id>(c), scope), () => req.log);
      } catch (error) {
        sendError(req, res, checkedError(error, req, operationId, check));
        return;
      }
      writeAnswer(req, res, answer, operationId);
    };
  };
}

/** A thrown error as its answer, held to the operation's documented statuses and error schemas too. */
function checkedError(error: unknown, req: Request, operationId: OperationId, check: ReturnType<typeof responseCheck>): HttpError {
  const httpError = toHttpError(error);
  if (httpError.status >= 500 && httpError.status !== 501) req.log.error({ err: error, operationId }, 'operation failed');
  try {
    check(operationId, { status: httpError.status, body: errorBody(req, httpError) }, () => req.log);
    return httpError;
  } catch (violation) {
    return toHttpError(violation);
  }
}

function writeAnswer(req: Request, res: Response, answer: Answer, operationId: string): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.status(answer.status);
  if ('stream' in answer) streamBody(req, res, answer.stream, answer.contentType, operationId);
  else if ('contentType' in answer) res.type(answer.contentType).send(answer.body);
  else if (!('body' in answer) || answer.body === undefined) res.end();
  else res.json(answer.body);
}

/**
 * Pipes a streamed body. The status and headers are gone with the first byte, so a failure
 * midway can only cut the connection (the client sees a truncated body, never a half answer
 * that looks whole); it is logged with the operation.
 */
function streamBody(req: Request, res: Response, stream: Readable, contentType: string, operationId: string): void {
  res.type(contentType);
  pipeline(stream, chunkBatcher(), res).catch((error: unknown) => {
    if (!res.writableFinished) req.log.warn({ err: error, operationId }, 'streamed response cut short');
  });
}

/** What the schema lets through but PostgreSQL or the handlers cannot take (see input-guards). */
function rejectUnstorableInput(c: Context, operationId: string): void {
  const problem = unstorableField(c);
  if (!problem) return;
  // Promo operations answer every malformed request like a rejected code (see validationFail).
  if (PROMO_OPERATION_IDS.has(operationId)) throw invalidPromoCode();
  throw invalid('Validation failed', problem);
}

function unstorableField(c: Context): Record<string, string> | undefined {
  // Depth first: it ends the walk of a 200,000-deep body at level 33.
  const deep = fieldNestedTooDeep(c.request.requestBody);
  if (deep) return { [deep]: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
  const nul = fieldWithNul(c.request.params) ?? fieldWithNul(c.request.query) ?? fieldWithNul(c.request.requestBody);
  if (nul) return { [nul]: 'must not contain the NUL character' };
  const infinite = fieldWithNonFiniteNumber(c.request.params) ?? fieldWithNonFiniteNumber(c.request.query);
  return infinite ? { [infinite]: 'must be a finite number' } : undefined;
}
