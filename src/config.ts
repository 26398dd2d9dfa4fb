import { availableParallelism, hostname } from 'node:os';
import path from 'node:path';
import type { ResponseValidation } from './kernel/http/response-check';
import { z } from 'zod';
import { readHttpTimeouts, trustProxySetting, type HttpTimeouts, type TrustProxy } from './kernel/http/settings';
import { streamingConfig } from './kernel/db/settings';
import type { StreamingSettings } from './kernel/db/streaming-connections';
import { metricsConfig, type MetricsConfig } from './kernel/metrics/settings';
import { rateLimitsConfig, type RateLimitConfig } from './kernel/rate-limits/settings';
import {
  anyText,
  ConfigError,
  flag,
  integer,
  oneOf,
  readEnv,
  url,
  type Env,
  type EnvReading,
} from './kernel/settings/env-schema';
import { isIP } from 'node:net';
import { isLocalHost, normalisedHost } from './kernel/settings/host-name';
import { isPublicAddress } from './kernel/public-address';
import { certificateConfig, certificateProblems, type CertificateConfig } from './modules/certificates/settings';
import { commissionConfig, type CommissionConfig } from './modules/commissions/settings';
import { claimsConfig, type ClaimsConfig } from './modules/claims/settings';
import { documentDraftsConfig, documentStoreConfig, type DocumentSettings } from './modules/documents/settings';
import {
  gatewaySecretProblems,
  paymentModeProblems,
  paymentsConfig,
  providersConfig,
  type PaymentConfig,
} from './modules/payments/settings';
import { webhooksConfig, type WebhookConfig } from './modules/webhooks/settings';
import { ordersConfig, type OrderSettings } from './modules/orders/settings';

declare module './kernel/http/request-scope' {
  interface Services {
    /** The service's settings, read once at start. */
    config: Config;
  }
}

export { ConfigError };

/**
 * Every setting of the service, parsed and validated once at start: the core ones here, each
 * capability's in its own settings.ts (payments, documents, certificates, webhooks) and the
 * kernel's beside the code that uses them (http, metrics, rate limits).
 */
export interface Config extends DocumentSettings {
  nodeEnv: string;
  isProduction: boolean;
  /**
   * RESPONSE_VALIDATION: every answer checked against its operation in the spec; `log` a
   * violation, or also `fail` it with a 500 (the default under NODE_ENV=test, so tests catch
   * drift); `off` by default in production, where the check would cost every request.
   */
  responseValidation: ResponseValidation;
  host: string;
  port: number;
  /** Base of links the service hands out (checkout pages, callback); '' until the listening port is known. */
  publicBaseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  dbPoolMax: number;
  logLevel: string;
  /** `pretty`: human-readable lines for a person at a terminal; `json`: one JSON object a line, for log shippers. */
  logFormat: 'json' | 'pretty';
  currency: string;
  tokenTtlSeconds: number;
  quoteTtlDays: number;
  maxJsonBodyBytes: number;
  /** Largest document file accepted by POST /documents, in bytes. */
  maxUploadBytes: number;
  /** Demo partners with published secrets; only when asked for (see sandboxByDefault). */
  seedDemoData: boolean;
  payments: PaymentConfig;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client address (rate limits). */
  trustProxy: TrustProxy;
  http: HttpTimeouts;
  /** How long SIGTERM waits for in-flight requests before it cuts the remaining connections. */
  shutdownTimeoutMs: number;
  /** Server processes `npm run start:cluster` runs. */
  clusterWorkers: number;
  rateLimits: RateLimitConfig;
  metrics: MetricsConfig;
  certificate: CertificateConfig;
  webhooks: WebhookConfig;
  commissions: CommissionConfig;
  claims: ClaimsConfig;
  /** Streamed answers' own database connections and per-company limit. */
  streaming: StreamingSettings;
  orders: OrderSettings;
}

const NODE_ENVS = ['development', 'test', 'production'] as const;
const RESPONSE_VALIDATIONS = ['off', 'log', 'fail'] as const;
const RESPONSE_VALIDATION_DEFAULTS = { development: 'log', test: 'fail', production: 'off' } as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;

const EXAMPLE_BASE_URL =
  'the https address partners and payment providers reach the service at, e.g. https://api.example.com';

/**
 * PUBLIC_BASE_URL, which QR codes and provider return URLs are built from. Outside production it
 * falls back to this machine (see loadConfig); production must name the https address partners and
 * providers reach, or every link it hands out would point at http://localhost.
 */
function publicBaseUrlSetting(isProduction: boolean) {
  if (!isProduction) return url(['http:', 'https:']).optional();
  return url(['http:', 'https:'], {
    unset: `is not set: in production QR codes and provider return URLs are built from it; set ${EXAMPLE_BASE_URL}`,
    also: publicBaseUrlProblem,
  });
}

function publicBaseUrlProblem(url: URL): string | undefined {
  if (url.protocol !== 'https:') return `must be an https URL in production (got ${url.protocol}//...)`;
  // A user name or password would be printed in every QR code and handed to every provider.
  if (url.username || url.password)
    return `must not carry a user name or password; in production set ${EXAMPLE_BASE_URL}`;
  // Links are built by appending /api/external/v1/... to it: a path, query or fragment would break every one.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return `must be the service's origin only, without a path, query or fragment (got ${url.origin}${url.pathname}...); in production set ${EXAMPLE_BASE_URL}`;
  const host = normalisedHost(url.hostname);
  if (isLocalHost(host) || host === normalisedHost(hostname()) || host === normalisedHost(hostname()).split('.')[0]) {
    return `points at this machine (${url.hostname}); in production set ${EXAMPLE_BASE_URL}`;
  }
  // IP literals of every internal kind (private, link-local, ::127.0.0.1 and the other IPv6 forms of them): no partner reaches those.
  if (isIP(host) !== 0 && !isPublicAddress(host))
    return `points at an internal address (${url.hostname}); in production set ${EXAMPLE_BASE_URL}`;
  return undefined;
}

/** What the other variables' defaults depend on: which environment this is, and where it listens. */
const environmentEnv = z.object({
  // A misspelt NODE_ENV ("prod") would otherwise run production with the public demo credentials.
  NODE_ENV: oneOf(NODE_ENVS).default('development'),
  PORT: integer(0, 65535).default(3000),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  MAX_UPLOAD_BYTES: integer(1024, 100 * 1024 * 1024).default(10 * 1024 * 1024),
  TRUST_PROXY: trustProxySetting,
});

/** The service's own settings, given the environment. */
const serviceEnv = ({
  nodeEnv,
  sandboxByDefault,
}: {
  nodeEnv: (typeof NODE_ENVS)[number];
  sandboxByDefault: boolean;
}) =>
  z.object({
    RESPONSE_VALIDATION: oneOf(RESPONSE_VALIDATIONS).default(RESPONSE_VALIDATION_DEFAULTS[nodeEnv]),
    HOST: anyText()
      .refine((host) => host.trim() !== '', 'must not be blank')
      .default('0.0.0.0'),
    PUBLIC_BASE_URL: publicBaseUrlSetting(nodeEnv === 'production'),
    DATA_DIR: anyText().default('.data'),
    DB_POOL_MAX: integer(1, 200).default(10),
    LOG_LEVEL: oneOf(LOG_LEVELS).default('info'),
    // A terminal gets readable lines, anything else (a pipe, a file, a process manager) JSON.
    LOG_FORMAT: oneOf(LOG_FORMATS).default(process.stdout.isTTY ? 'pretty' : 'json'),
    CURRENCY: anyText()
      .refine((currency) => /^[A-Z]{3}$/.test(currency), {
        error: (issue) => `must be an ISO 4217 code such as NPR (got "${String(issue.input)}")`,
      })
      .default('NPR'),
    TOKEN_TTL_SECONDS: integer(60, 86400).default(3600),
    QUOTE_TTL_DAYS: integer(1, 365).default(7),
    MAX_JSON_BODY_BYTES: integer(1024, 50 * 1024 * 1024).default(1024 * 1024),
    SEED_DEMO_DATA: flag().default(sandboxByDefault),
    SHUTDOWN_TIMEOUT_MS: integer(0, 300_000).default(10_000),
    CLUSTER_WORKERS: integer(1, 64).default(Math.max(2, availableParallelism())),
  });

/**
 * Reads every setting, then checks the rules between them, noting each problem in that order,
 * and throws one ConfigError naming them all. The object returned is built once, here, and never
 * changed afterwards.
 */
export function loadConfig(env: Env = process.env): Config {
  const reading: EnvReading = { env, problems: [] };
  const environment = readEnv(environmentEnv, reading);
  const nodeEnv = environment.NODE_ENV;
  const isProduction = nodeEnv === 'production';
  const {
    PORT: port,
    DATABASE_URL: databaseUrl,
    MAX_UPLOAD_BYTES: maxUploadBytes,
    TRUST_PROXY: trustProxy,
  } = environment;
  // Sandbox payments and demo partners only when asked for: the embedded default of `npm start`
  // (no DATABASE_URL, not production) asks; a deployment on its own database must say so itself.
  const sandboxByDefault = !isProduction && databaseUrl === undefined;
  const http = readHttpTimeouts(reading, maxUploadBytes, trustProxy !== false);
  const service = readEnv(serviceEnv({ nodeEnv, sandboxByDefault }), reading);
  const core = {
    nodeEnv,
    isProduction,
    responseValidation: service.RESPONSE_VALIDATION,
    host: service.HOST,
    port,
    // With PORT=0 (tests, forked servers) the port is known only once listening: '' means "derive it then".
    publicBaseUrl: (service.PUBLIC_BASE_URL ?? (port === 0 ? '' : `http://localhost:${port}`)).replace(/\/$/, ''),
    databaseUrl,
    dataDir: path.resolve(service.DATA_DIR),
    dbPoolMax: service.DB_POOL_MAX,
    logLevel: service.LOG_LEVEL,
    logFormat: service.LOG_FORMAT,
    currency: service.CURRENCY,
    tokenTtlSeconds: service.TOKEN_TTL_SECONDS,
    quoteTtlDays: service.QUOTE_TTL_DAYS,
    maxJsonBodyBytes: service.MAX_JSON_BODY_BYTES,
    maxUploadBytes,
  };
  const {
    SEED_DEMO_DATA: seedDemoData,
    SHUTDOWN_TIMEOUT_MS: shutdownTimeoutMs,
    CLUSTER_WORKERS: clusterWorkers,
  } = service;
  const drafts = documentDraftsConfig(reading);
  const payments = paymentsConfig(reading, { sandboxByDefault });
  const rateLimits = rateLimitsConfig(reading);
  const certificate = certificateConfig(reading, { isProduction });
  const documentStore = documentStoreConfig(reading);
  const metrics = metricsConfig(reading, isProduction);
  const webhooks = webhooksConfig(reading, { paymentMode: payments.mode, sandboxByDefault });
  const commissions = commissionConfig(reading, { isProduction });
  const claims = claimsConfig(reading);
  const streaming = streamingConfig(reading);
  const orders = ordersConfig(reading);

  // Rules between settings, and settings production must not run with.
  const { problems } = reading;
  problems.push(...certificateProblems(certificate, isProduction), ...paymentModeProblems(payments, isProduction));
  // Demo partners have published secrets: anyone could take their tokens.
  if (isProduction && seedDemoData) problems.push('SEED_DEMO_DATA=true is not allowed when NODE_ENV=production');
  problems.push(...gatewaySecretProblems(payments, isProduction));
  const providers = providersConfig(reading, { mode: payments.mode, isProduction, currency: core.currency });
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...core,
    ...drafts,
    seedDemoData,
    trustProxy,
    http,
    payments: { ...payments, ...providers },
    shutdownTimeoutMs,
    clusterWorkers,
    rateLimits,
    certificate,
    ...documentStore,
    metrics,
    webhooks,
    commissions,
    claims,
    streaming,
    orders,
  };
}
