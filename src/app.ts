import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import type { Context, Document, OpenAPIBackend } from 'openapi-backend';
import type { Orm } from './db/orm';
import { AppError, badRequest } from './http/app-error';
import { chunkBatcher } from './http/chunk-batcher';
import { errorMiddleware, sendError, toAppError, unknownPathMiddleware } from './http/error-response';
import { fieldErrorsFromAjv } from './http/field-errors';
import { fieldNestedTooDeep, fieldWithNonFiniteNumber, fieldWithNul, MAX_JSON_DEPTH } from './http/input-guards';
import { validatesBeforeHandler } from './http/multipart-upload';
import { requestMetrics } from './http/metrics';
import { enforceRateLimit } from './http/rate-limits';
import { createOpenApiBackend } from './http/openapi';
import { rejectUnreadablePaths } from './http/path-guard';
import { requestLog } from './http/request-log';
import { docsContentSecurityPolicy, securityHeaders, strictContentSecurityPolicy } from './http/security-headers';
import { docsPagePath } from './http/spec-document';
import { authenticate } from './services/authentication';
import type { TokenCheckCache } from './services/token-check-cache';
import { operationHandlers } from './operations';
import { PROMO_OPERATION_IDS } from './operations/promos';
import { invalidPromoCode } from './services/promo';
import type { OperationHandler, OperationHandlers, OperationResult, RequestScope, Services } from './operations/operation';

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

const scopeOf = (res: Response): RequestScope => res.locals.scope as RequestScope;

/** Express in front, openapi-backend for routing and validation from the spec, handlers by operationId. */
export async function createApp({ orm, services, document, pages = [], tokenChecks }: AppDeps): Promise<Express> {
  const api = await buildApi(document, operationHandlers, tokenChecks);
  return httpStack({ orm, services, document, pages, api });
}

/**
 * openapi-backend over the document with the bearer check, the answers for requests that reach
 * no handler, and `handlers` by operationId. The quote benchmark's stack baseline builds one over
 * its own one-operation document, so it measures the service's own request path.
 */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export async function buildApi(document: Document, handlers: OperationHandlers, tokenChecks?: TokenCheckCache): Promise<OpenAPIBackend> {
  const api = createOpenApiBackend(document, { validate: validatesBeforeHandler });
  await api.init();

  api.registerSecurityHandler('bearerAuth', async (c: Context, _req: Request, res: Response) => {
    const header = c.request.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) return { error: new AppError(401, 'Missing Authorization header', undefined, 'auth') };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
    if (!match) return { error: new AppError(401, 'Authorization header must be "Bearer <token>"', undefined, 'auth') };
    try {
      const principal = await authenticate(scopeOf(res).em, match[1], tokenChecks);
      scopeOf(res).principal = principal;
      return principal;
    } catch (error) {
      return { error };
    }
  });

  api.register({
    validationFail: async (c: Context, _req: Request, res: Response) => {
      res.locals.operationId = c.operation.operationId;
      // A malformed promo request (a blank code above all) must not answer differently from a rejected code.
      if (PROMO_OPERATION_IDS.has(c.operation?.operationId ?? '')) throw invalidPromoCode();
      throw badRequest('Validation failed', fieldErrorsFromAjv(c.validation.errors ?? []));
    },
    unauthorizedHandler: async (c: Context, _req: Request, res: Response) => {
      res.locals.operationId = c.operation.operationId;
      const error = (c.security?.bearerAuth as { error?: unknown } | undefined)?.error;
      // Only an authentication failure is a 401; a database outage during the check is not the caller's fault.
      if (error instanceof AppError) throw error;
      throw error ?? new AppError(401, 'Missing Authorization header', undefined, 'auth');
    },
    notFound: async (c: Context) => {
      throw new AppError(404, `No endpoint ${c.request.method.toUpperCase()} ${c.request.path}`);
    },
    methodNotAllowed: async (c: Context) => {
      // RFC 9110 section 15.5.6: a 405 lists the methods the path has.
      const allowed = HTTP_METHODS.filter((method) => api.router.matchOperation({ ...c.request, method }) !== undefined);
      throw new AppError(405, `Method ${c.request.method.toUpperCase()} is not allowed on ${c.request.path}`, undefined, 'api', {
        Allow: allowed.map((method) => method.toUpperCase()).join(', '),
      });
    },
    // Limits hold for an operation before its handler lands too (promo operations answer 501 until then).
    notImplemented: respondWith(async (c: Context) => {
      throw new AppError(501, `${c.operation.operationId} is not implemented yet`);
    }),
  });
  for (const [operationId, handler] of Object.entries(handlers)) {
    // register() throws on an operationId the document does not have: a typo fails at boot.
    api.register(operationId, respondWith(handler));
  }
  return api;
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
  app.use(strictContentSecurityPolicy);
  app.use(rejectUnreadablePaths());
  app.use(compression());
  // A person who opens the service's address lands on the docs.
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.get('/api/external/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.get('/docs', (_req, res) => {
    const page = docsPagePath();
    if (page) res.setHeader('Content-Security-Policy', docsContentSecurityPolicy(page)).sendFile(page);
    else sendError(_req, res, new AppError(404, 'The docs page is not built: run `npm run docs`'));
  });
  app.use(API_PREFIX, noStore);
  for (const router of pages) app.use(router);
  app.use(express.json({ limit: services.config.maxJsonBodyBytes, type: ['application/json', 'application/*+json'] }));
  app.use((req, res, next) => {
    res.locals.scope = { em: orm.em.fork(), services, req } satisfies RequestScope;
    api
      .handleRequest({ method: req.method, path: req.path, body: req.body, query: req.query as Record<string, string>, headers: req.headers as Record<string, string> }, req, res)
      .catch(next);
  });
  app.use(unknownPathMiddleware());
  app.use(errorMiddleware());
  return app;
}

function respondWith(handler: OperationHandler) {
  return async (c: Context, req: Request, res: Response): Promise<void> => {
    const operationId = c.operation.operationId as string;
    res.locals.operationId = operationId;
    let result: OperationResult;
    try {
      rejectUnstorableInput(c, operationId);
      await enforceRateLimit(operationId, scopeOf(res));
      result = await handler(c, scopeOf(res));
    } catch (error) {
      const appError = toAppError(error);
      if (appError.status >= 500 && appError.status !== 501) req.log.error({ err: error, operationId }, 'operation failed');
      sendError(req, res, appError);
      return;
    }
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    res.status(result.status);
    if (result.stream) streamBody(req, res, result.stream, result.contentType ?? 'application/octet-stream', operationId);
    else if (result.contentType) res.type(result.contentType).send(result.body);
    else if (result.body === undefined) res.end();
    else res.json(result.body);
  };
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
  throw badRequest('Validation failed', problem);
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
