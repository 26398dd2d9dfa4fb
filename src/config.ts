import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { ResponseValidation } from './kernel/http/response-check';
import { readHttpTimeouts, readTrustProxy, type HttpTimeouts, type TrustProxy } from './kernel/http/settings';
import { streamingConfig } from './kernel/db/settings';
import type { StreamingSettings } from './kernel/db/streaming-connections';
import { metricsConfig, type MetricsConfig } from './kernel/metrics/settings';
import { rateLimitsConfig, type RateLimitConfig } from './kernel/rate-limits/settings';
import { ConfigError, EnvReader, type Env } from './kernel/settings/env-reader';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { isLocalHost, normalisedHost } from './kernel/settings/host-name';
import { isPublicAddress } from './kernel/public-address';
import { certificateConfig, certificateProblems, type CertificateConfig } from './modules/certificates/settings';
import { commissionConfig, type CommissionConfig } from './modules/commissions/settings';
import { documentDraftsConfig, documentStoreConfig, type DocumentSettings } from './modules/documents/settings';
import { gatewaySecretProblems, paymentModeProblems, paymentsConfig, providersConfig, type PaymentConfig } from './modules/payments/settings';
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
  /** Streamed answers' own database connections and per-company limit. */
  streaming: StreamingSettings;
  orders: OrderSettings;
}

const NODE_ENVS = ['development', 'test', 'production'] as const;
const RESPONSE_VALIDATIONS = ['off', 'log', 'fail'] as const;
const RESPONSE_VALIDATION_DEFAULTS = { development: 'log', test: 'fail', production: 'off' } as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;

/**
 * PUBLIC_BASE_URL, which QR codes and provider return URLs are built from. Outside production it
 * falls back to this machine; production must name the https address partners and providers reach,
 * or every link it hands out would point at http://localhost.
 */
function readPublicBaseUrl(read: EnvReader, port: number, isProduction: boolean): string {
  const given = read.url('PUBLIC_BASE_URL', ['http:', 'https:']);
  if (isProduction) {
    const problem = publicBaseUrlProblem(given, read.optional('PUBLIC_BASE_URL'));
    if (problem) read.problems.push(problem);
  }
  // With PORT=0 (tests, forked servers) the port is known only once listening: '' means "derive it then".
  return (given ?? (port === 0 ? '' : `http://localhost:${port}`)).replace(/\/$/, '');
}

function publicBaseUrlProblem(given: string | undefined, raw: string | undefined): string | undefined {
  const example = 'the https address partners and payment providers reach the service at, e.g. https://api.example.com';
  if (raw === undefined) return `PUBLIC_BASE_URL is not set: in production QR codes and provider return URLs are built from it; set ${example}`;
  if (given === undefined) return undefined; // already named as a bad URL
  const url = new URL(given);
  if (url.protocol !== 'https:') return `PUBLIC_BASE_URL must be an https URL in production (got ${url.protocol}//...)`;
  // A user name or password would be printed in every QR code and handed to every provider.
  if (url.username || url.password) return `PUBLIC_BASE_URL must not carry a user name or password; in production set ${example}`;
  const host = normalisedHost(url.hostname);
  if (isLocalHost(host) || host === normalisedHost(hostname()) || host === normalisedHost(hostname()).split('.')[0]) {
    return `PUBLIC_BASE_URL points at this machine (${url.hostname}); in production set ${example}`;
  }
  // IP literals of every internal kind (private, link-local, ::127.0.0.1 and the other IPv6 forms of them): no partner reaches those.
  if (isIP(host) !== 0 && !isPublicAddress(host)) return `PUBLIC_BASE_URL points at an internal address (${url.hostname}); in production set ${example}`;
  return undefined;
}

/**
 * Reads every setting, then checks the rules between them, noting each problem in that order,
 * and throws one ConfigError naming them all. The object returned is built once, here, and never
 * changed afterwards.
 */
export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  // A misspelt NODE_ENV ("prod") would otherwise run production with the public demo credentials.
  const nodeEnv = read.oneOf('NODE_ENV', 'development', NODE_ENVS);
  const isProduction = nodeEnv === 'production';
  const port = read.integer('PORT', 3000, 0, 65535);
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  // Sandbox payments and demo partners only when asked for: the embedded default of `npm start`
  // (no DATABASE_URL, not production) asks; a deployment on its own database must say so itself.
  const sandboxByDefault = !isProduction && read.optional('DATABASE_URL') === undefined;
  const maxUploadBytes = read.integer('MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  const trustProxy = readTrustProxy(read, 'TRUST_PROXY');
  const http = readHttpTimeouts(read, maxUploadBytes, trustProxy !== false);
  const core = {
    nodeEnv,
    isProduction,
    responseValidation: read.oneOf('RESPONSE_VALIDATION', RESPONSE_VALIDATION_DEFAULTS[nodeEnv], RESPONSE_VALIDATIONS),
    host: read.string('HOST', '0.0.0.0'),
    port,
    publicBaseUrl: readPublicBaseUrl(read, port, isProduction),
    databaseUrl,
    dataDir: path.resolve(read.string('DATA_DIR', '.data')),
    dbPoolMax: read.integer('DB_POOL_MAX', 10, 1, 200),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    // A terminal gets readable lines, anything else (a pipe, a file, a process manager) JSON.
    logFormat: read.oneOf('LOG_FORMAT', process.stdout.isTTY ? 'pretty' : 'json', LOG_FORMATS),
    currency: read.string('CURRENCY', 'NPR'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 86400),
    quoteTtlDays: read.integer('QUOTE_TTL_DAYS', 7, 1, 365),
    maxJsonBodyBytes: read.integer('MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    maxUploadBytes,
  };
  const drafts = documentDraftsConfig(read);
  const seedDemoData = read.boolean('SEED_DEMO_DATA', sandboxByDefault);
  const payments = paymentsConfig(read, { sandboxByDefault });
  const shutdownTimeoutMs = read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 300_000);
  const clusterWorkers = read.integer('CLUSTER_WORKERS', Math.max(2, availableParallelism()), 1, 64);
  const rateLimits = rateLimitsConfig(read);
  const certificate = certificateConfig(read, { isProduction });
  const documentStore = documentStoreConfig(read);
  const metrics = metricsConfig(read, isProduction);
  const webhooks = webhooksConfig(read, { paymentMode: payments.mode, sandboxByDefault });
  const commissions = commissionConfig(read);
  const streaming = streamingConfig(read);
  const orders = ordersConfig(read);

  // Rules between settings, and settings production must not run with.
  if (core.host.trim() === '') read.problems.push('HOST must not be blank');
  if (!/^[A-Z]{3}$/.test(core.currency)) read.problems.push(`CURRENCY must be an ISO 4217 code such as NPR (got "${core.currency}")`);
  read.problems.push(...certificateProblems(certificate), ...paymentModeProblems(payments, isProduction));
  // Demo partners have published secrets: anyone could take their tokens.
  if (isProduction && seedDemoData) read.problems.push('SEED_DEMO_DATA=true is not allowed when NODE_ENV=production');
  read.problems.push(...gatewaySecretProblems(payments, isProduction));
  const providers = providersConfig(read, { mode: payments.mode, isProduction, currency: core.currency });
  if (read.problems.length > 0) throw new ConfigError(read.problems);
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
    streaming,
    orders,
  };
}
