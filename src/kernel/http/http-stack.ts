import express, { type Express, type Request } from 'express';
import type { Document, OpenAPIBackend, Request as OpenApiRequest } from 'openapi-backend';
import type { Orm } from '../db/orm';
import { notFound } from '../errors';
import { requestMetrics } from '../metrics/metrics';
import { errorMiddleware, sendError, toHttpError, unknownPathMiddleware } from './error-response';
import type { OutcomeMetric } from './operation-policy';
import { rejectUnreadablePaths } from './path-guard';
import type { RequestScope, Services } from './request-scope';
import { requestLog } from './request-log';
import { compressionForAcceptingClients } from './response-compression';
import { docsContentSecurityPolicy, securityHeaders } from './security-headers';
import { bodyDeadline } from './slow-senders';
import { docsPagePath } from './spec-document';
import { withRequestBusinessDay } from '../business-today';

export const API_PREFIX = '/api/external/v1';

export interface StackDeps {
  orm: Orm;
  services: Services;
  document: Document;
  api: OpenAPIBackend;
  /** Pages served beside the API, such as the sandbox gateways' hosted checkout. */
  pages?: express.Router[];
  /** Express's `trust proxy`: which X-Forwarded-For hop is the client (the rate limits count per address). */
  trustProxy: boolean | number | string[];
  maxJsonBodyBytes: number;
  /** How long a non-upload body may take to arrive (HTTP_JSON_BODY_TIMEOUT_SECONDS). */
  jsonBodyTimeoutMs: number;
  /** The outcome counter an operation's policy names, if any. */
  outcomeOf?: (operationId: string) => OutcomeMetric | undefined;
}

/**
 * Answers under the partner prefix carry tokens (RFC 6749 5.1) or personal data (travellers,
 * orders, payments): no cache, shared or private, may keep them. The published OpenAPI document
 * (served before this) stays cacheable.
 */
const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** What every request passes through on its way to openapi-backend: log, metrics, headers, JSON body, scope. */
export function httpStack({
  orm,
  services,
  document,
  pages = [],
  api,
  trustProxy,
  maxJsonBodyBytes,
  jsonBodyTimeoutMs,
  outcomeOf,
}: StackDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // The contract defines no conditional requests; a SHA-1 of every JSON body would be paid for nothing.
  app.set('etag', false);
  // Which X-Forwarded-For hop is the client (req.ip), for the rate limits counted per address.
  app.set('trust proxy', trustProxy);
  app.use(requestLog(services.logger));
  app.use(requestMetrics(services.metrics, outcomeOf));
  app.use(securityHeaders());
  app.use(rejectUnreadablePaths());
  app.use(compressionForAcceptingClients());
  // A person who opens the service's address lands on the docs.
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.get('/api/external/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.get('/docs', (_req, res) => {
    const page = docsPagePath(services.config.payments.mode === 'sandbox');
    if (page) res.setHeader('Content-Security-Policy', docsContentSecurityPolicy(page)).sendFile(page);
    else sendError(_req, res, toHttpError(notFound('The docs page is not built: run `npm run docs`')));
  });
  app.use(API_PREFIX, noStore);
  app.use(bodyDeadline(jsonBodyTimeoutMs));
  for (const router of pages) app.use(router);
  app.use(express.json({ limit: maxJsonBodyBytes, type: ['application/json', 'application/*+json'] }));
  app.use((req, res, next) => {
    const scope: RequestScope = { em: orm.em.fork(), services, req };
    withRequestBusinessDay(() => api.handleRequest(apiRequest(req), req, res, scope)).catch(next);
  });
  app.use(unknownPathMiddleware());
  app.use(errorMiddleware());
  return app;
}

/** What openapi-backend routes and validates: Express has parsed the body, and its query parser is the flat one. */
function apiRequest(req: Request): OpenApiRequest {
  // Express 5's "simple" query parser (node:querystring) yields strings and arrays of strings only.
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.query))
    if (typeof value === 'string' || isStringArray(value)) query[name] = value;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  // express.json() has parsed it (or left it undefined): unknown until openapi-backend validates it.
  const body: unknown = req.body;
  return { method: req.method, path: req.path, body, query, headers };
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
