// Baseline (b): the service's own stack answering one primary-key SELECT behind the bearer check
// against PostgreSQL. Loads the compiled dist/ modules.
//
// BASELINE_STACK=full (default): the service's whole request path (src/app.ts: request log,
// metrics, security headers, JSON body parser, request scope, openapi-backend with the bearer
// check and the service's answers for failures) over a one-operation document; only the handler
// differs from the quote's. BASELINE_STACK=lean: Express + openapi-backend + the bearer check and
// nothing else, which shows what the service's cross-cutting middleware costs.
import express from 'express';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { buildApi, httpStack } = require('../../dist/src/app.js');
const { createOpenApiBackend } = require('../../dist/src/kernel/http/openapi.js');
const { authenticate } = require('../../dist/src/modules/auth/authentication.js');
const { initOrm } = require('../../dist/src/database.js');
const { runPrepared } = require('../../dist/src/kernel/db/prepared-statement.js');
const { loadConfig } = require('../../dist/src/config.js');
const { createLogger } = require('../../dist/src/kernel/logging/logger.js');
const { createMetrics } = require('../../dist/src/kernel/metrics/metrics.js');
const { RateLimiter } = require('../../dist/src/kernel/rate-limits/rate-limiter.js');
const { TokenCheckCache } = require('../../dist/src/modules/auth/token-check-cache.js');
const { listenForTokenCheckChanges } = require('../../dist/src/modules/auth/token-check-listener.js');

// The same path the service takes for its per-request statements (the bearer check, the quote insert).
const COMPANY_BY_ID = { name: 'baseline-company-by-id', text: 'select id, name from company where id = $1' };

const document = {
  openapi: '3.1.0',
  info: { title: 'baseline', version: '1' },
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearerAuth: [] }],
  paths: {
    '/companies/{companyId}': {
      get: {
        operationId: 'getCompany',
        parameters: [{ name: 'companyId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { 200: { description: 'company' } },
      },
    },
  },
};

const orm = await initOrm(process.env.DATABASE_URL, 10);
// The service's bearer check, cached the same way (a cache per process, used while its listener holds LISTEN).
const tokenChecks = new TokenCheckCache();
listenForTokenCheckChanges(process.env.DATABASE_URL, tokenChecks, createLogger('warn'));
const app = process.env.BASELINE_STACK === 'lean' ? await leanStack() : await fullStack();
const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));

async function fullStack() {
  const config = loadConfig(process.env);
  const metrics = createMetrics({ used: () => 0, free: () => 0, pending: () => 0, max: 10 });
  const services = {
    config,
    logger: createLogger(config.logLevel),
    metrics,
    rateLimiter: new RateLimiter(config.rateLimits.windowSeconds),
  };
  const handlers = {
    getCompany: async (request, scope) => {
      const [company] = await runPrepared(scope.em, COMPANY_BY_ID, [request.params.companyId]);
      return {
        status: 200,
        body: {
          success: true,
          message: 'OK',
          data: { companyId: company.id, name: company.name },
          timestamp: new Date().toISOString(),
        },
      };
    },
  };
  const api = await buildApi(document, handlers, { tokenChecks });
  return httpStack({ orm, services, document, api });
}

async function leanStack() {
  const api = createOpenApiBackend(document);
  await api.init();
  api.registerSecurityHandler('bearerAuth', async (c, _req, res) => {
    const token = String(c.request.headers.authorization ?? '').replace(/^Bearer /, '');
    try {
      return await authenticate(res.locals.em, token, tokenChecks);
    } catch (error) {
      return { error };
    }
  });
  api.register({
    getCompany: async (c, _req, res) => {
      const [company] = await runPrepared(res.locals.em, COMPANY_BY_ID, [c.request.params.companyId]);
      res.json({
        success: true,
        message: 'OK',
        data: { companyId: company.id, name: company.name },
        timestamp: new Date().toISOString(),
      });
    },
    unauthorizedHandler: async (_c, _req, res) =>
      res.status(401).json({ success: false, message: 'unauthorized', data: null }),
    validationFail: async (_c, _req, res) => res.status(400).json({ message: 'invalid' }),
    notFound: async (_c, _req, res) => res.status(404).json({ message: 'not found' }),
  });
  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    res.locals.em = orm.em.fork();
    api
      .handleRequest(
        { method: req.method, path: req.path, body: req.body, query: req.query, headers: req.headers },
        req,
        res,
      )
      .catch(next);
  });
  return app;
}
